/* The branch and bound's node relaxations by the warm-started dual active-set method
 * (lcp/dualqp.c) against a brute force written here: a strictly convex QP's minimiser is the one
 * KKT point, found by trying every set of active inequality rows (each one linear system solved
 * by Gaussian elimination; kept when the rows hold and the multipliers are >= 0). Random nodes
 * of random reduced problems (t = v and general V), each solved cold, then its children warm
 * from its active set; infeasible nodes must be pruned by a proven bound; a bound reported for
 * pruning must never exceed the true minimum. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"
#include "xorshift.h"

enum { MAXK = 6, MAXR = 2 * MAXK, MAXS = MAXK + MAXR };

static uint64_t rng = 0x2545F4914F6CDD1DULL;
static double urand(void)   /* uniform in (-1, 1) */
{
    return xorshift_uniform(&rng);
}

/* in long double: the oracle must be more accurate than the method it judges */
static int gauss(int n, long double *a, long double *y, long double *x)   /* a, y overwritten; 0 solved */
{
    for (int c = 0; c < n; c++) {
        int piv = c;
        for (int i = c + 1; i < n; i++)
            if (fabsl(a[i + c * n]) > fabsl(a[piv + c * n]))
                piv = i;
        if (fabsl(a[piv + c * n]) < 1e-10L)
            return 1;
        for (int j = 0; j < n; j++) {
            long double tmp = a[c + j * n];
            a[c + j * n] = a[piv + j * n];
            a[piv + j * n] = tmp;
        }
        long double tmp = y[c];
        y[c] = y[piv];
        y[piv] = tmp;
        for (int i = c + 1; i < n; i++) {
            long double f = a[i + c * n] / a[c + c * n];
            for (int j = c; j < n; j++)
                a[i + j * n] -= f * a[c + j * n];
            y[i] -= f * y[c];
        }
    }
    for (int i = n - 1; i >= 0; i--) {
        long double v = y[i];
        for (int j = i + 1; j < n; j++)
            v -= a[i + j * n] * x[j];
        x[i] = v / a[i + i * n];
    }
    return 0;
}

typedef struct problem {
    int k, m, vunit;
    double V[MAXK * MAXK], v0[MAXK], R[MAXK * MAXK], r0[MAXK], H[MAXK * MAXK], g[MAXK];
    double Z[MAXK * MAXK], z0[MAXK];
    lcp_reduced r;
} problem;

/* row j of the node (2i: v_i, 2i + 1: r_i) as a't + b */
static void row(const problem *p, int j, double *a, double *b)
{
    int i = j / 2;
    for (int c = 0; c < p->k; c++)
        a[c] = (j & 1) ? p->R[i + c * p->m] : p->V[i + c * p->m];
    *b = (j & 1) ? p->r0[i] : p->v0[i];
}

static int is_eq(const signed char *st, int j)
{
    return st[j / 2] == ((j & 1) ? LCP_R0 : LCP_V0);
}

/* min 1/2 t'Ht + g't over the node st by trying every active set: 1 with t and *f, 0 infeasible */
static int brute_qp(const problem *p, const signed char *st, double *t, double *f)
{
    int k = p->k, nrow = 2 * p->m, ineq[MAXR], ni = 0, eqr[MAXR], ne = 0;
    for (int j = 0; j < nrow; j++) {
        if (is_eq(st, j))
            eqr[ne++] = j;
        else
            ineq[ni++] = j;
    }
    int found = 0;
    for (unsigned mask = 0; mask < (1u << ni) && !found; mask++) {
        int act[MAXR], na = 0;
        for (int e = 0; e < ne; e++)
            act[na++] = eqr[e];
        for (int c = 0; c < ni; c++)
            if ((mask >> c) & 1)
                act[na++] = ineq[c];
        if (na > k)
            continue;
        /* [H -A'; A 0] (t, lam) = (-g, -b) */
        int n = k + na;
        long double Kt[MAXS * MAXS] = {0}, y[MAXS], x[MAXS];
        double a[MAXK], b;
        for (int i = 0; i < k; i++) {
            for (int c = 0; c < k; c++)
                Kt[i + c * n] = p->H[i + c * k];
            y[i] = -p->g[i];
        }
        for (int s = 0; s < na; s++) {
            row(p, act[s], a, &b);
            for (int c = 0; c < k; c++) {
                Kt[k + s + c * n] = a[c];
                Kt[c + (k + s) * n] = -a[c];
            }
            y[k + s] = -b;
        }
        if (gauss(n, Kt, y, x))
            continue;
        int ok = 1;
        for (int s = ne; s < na && ok; s++)
            ok = x[k + s] >= -1e-9;
        for (int c = 0; c < ni && ok; c++) {
            row(p, ineq[c], a, &b);
            long double v = b;
            for (int i = 0; i < k; i++)
                v += a[i] * x[i];
            ok = v >= -1e-9;
        }
        if (!ok)
            continue;
        found = 1;
        long double fv = 0;
        for (int i = 0; i < k; i++) {
            t[i] = (double)x[i];
            long double hi = 0;
            for (int c = 0; c < k; c++)
                hi += p->H[i + c * k] * x[c];
            fv += x[i] * (0.5 * hi + p->g[i]);
        }
        *f = (double)fv;
    }
    return found;
}

static void gen(problem *p, int vunit)
{
    memset(p, 0, sizeof *p);
    int m = 3 + (int)((urand() + 1) * 1.5) % 3, k = vunit ? m : m + 1;
    p->k = k;
    p->m = m;
    p->vunit = vunit;
    for (int i = 0; i < m; i++) {
        for (int c = 0; c < k; c++) {
            p->V[i + c * m] = vunit ? (i == c) : urand();
            p->R[i + c * m] = urand();
        }
        p->v0[i] = vunit ? 0 : urand();
        p->r0[i] = urand();
    }
    double B[MAXK * MAXK];
    for (int i = 0; i < k * k; i++)
        B[i] = urand();
    for (int i = 0; i < k; i++) {
        for (int c = 0; c < k; c++) {
            double v = 0.3 * (i == c);
            for (int l = 0; l < k; l++)
                v += B[i + l * k] * B[c + l * k];
            p->H[i + c * k] = v;
        }
        p->g[i] = urand();
        p->Z[i + i * k] = 1;
    }
    lcp_reduced r = {k, m, k, p->V, p->v0, p->R, p->r0, p->Z, p->z0, vunit, 2.0, 0};
    p->r = r;
}

/* one node against the brute force; returns 1 when feasible (then act holds its active set) */
static int check_node(lcp_dqp *d, const problem *p, const signed char *st, signed char *act, int rep)
{
    double tb[MAXK], fb, t[MAXK], bound;
    int feas = brute_qp(p, st, tb, &fb);
    signed char keep[MAXR];
    memcpy(keep, act, sizeof keep);
    int s;
    if (!feas) {
        s = lcp_dqp_solve(d, st, act, INFINITY, t, &bound);
        cr_assert_neq(s, 0, "rep %d: brute force finds the node infeasible, dual method solved it", rep);
        memcpy(act, keep, sizeof keep);
        s = lcp_dqp_solve(d, st, act, 1e6, t, &bound);
        cr_assert_eq(s, 1, "rep %d: an infeasible node must be pruned by its dual ray (status %d)", rep, s);
        cr_assert_gt(bound, 1e6);
        return 0;
    }
    /* pruning: a cutoff below the minimum is exceeded by a bound that is still a lower bound */
    double cut = fb - 0.1 * (1 + fabs(fb));
    s = lcp_dqp_solve(d, st, act, cut, t, &bound);
    cr_assert_eq(s, 1, "rep %d: cutoff %g below the minimum %g not proven (status %d)", rep, cut, fb, s);
    cr_assert(bound > cut && bound <= fb + 1e-9 * (1 + fabs(fb)), "rep %d: bound %.17g, minimum %.17g", rep, bound, fb);
    memcpy(act, keep, sizeof keep);
    s = lcp_dqp_solve(d, st, act, INFINITY, t, &bound);
    cr_assert_eq(s, 0, "rep %d: feasible node (brute force f = %g), status %d", rep, fb, s);
    cr_assert(fabs(bound - fb) <= 1e-9 * (1 + fabs(fb)), "rep %d: bound %.17g, brute force %.17g", rep, bound, fb);
    for (int i = 0; i < p->k; i++)
        cr_assert(fabs(t[i] - tb[i]) <= 1e-7 * (1 + fabs(tb[i])), "rep %d: t[%d] %.17g vs %.17g", rep, i, t[i], tb[i]);
    return 1;
}

/* drop (unit rows only): the variables t_i of the pairs fixed to v_i = t_i = 0 are left out of
 * the dual method (lcp_dqp_init_on), as the branch and bound does below its root; the brute force
 * still works on all variables. */
static void run_family(int vunit, int reps, int drop)
{
    int feasible = 0, infeasible = 0, warm = 0;
    for (int rep = 0; rep < reps; rep++) {
        problem p;
        gen(&p, vunit);
        lcp_arena ar = {0};
        lcp_dqp d;
        signed char st[MAXK], act[MAXR] = {0};
        int cols[MAXK], kk = 0;
        for (int i = 0; i < p.m; i++) {
            double u = urand();
            st[i] = u < 0.2 ? LCP_FREE : u < 0.6 ? LCP_R0 : u < 0.8 ? LCP_V0 : LCP_FREE;
            if (st[i] != LCP_V0)
                cols[kk++] = i;
        }
        if (drop)
            cr_assert_eq(lcp_dqp_init_on(&d, &p.r, p.H, p.g, 0.0, cols, kk, &ar), kk > 0 ? 0 : 1);
        else
            cr_assert_eq(lcp_dqp_init(&d, &p.r, p.H, p.g, 0.0, &ar), 0);
        if (drop && kk == 0) {
            lcp_arena_free(&ar);
            continue;
        }
        int f = check_node(&d, &p, st, act, rep);
        feasible += f;
        infeasible += !f;
        /* the children of a feasible node, warm from its active set (the first one also reuses
         * the kept factor) */
        for (int i = 0; i < p.m && f; i++) {
            if (st[i] != LCP_FREE)
                continue;
            for (int c = 0; c < 2; c++) {
                signed char ch[MAXK], ca[MAXR];
                memcpy(ch, st, sizeof ch);
                memcpy(ca, act, sizeof ca);
                ch[i] = c ? LCP_V0 : LCP_R0;
                check_node(&d, &p, ch, ca, rep);
                warm++;
            }
            break;
        }
        lcp_arena_free(&ar);
    }
    cr_assert(feasible >= reps / 5 && infeasible >= reps / 10 && warm >= reps / 5,
              "feasible %d, infeasible %d, warm children %d", feasible, infeasible, warm);
}

Test(dualqp, unit_rows_against_brute_force)
{
    run_family(1, 300, 0);
}

Test(dualqp, unit_rows_with_the_fixed_variables_dropped_against_brute_force)
{
    run_family(1, 300, 1);
}

Test(dualqp, general_rows_against_brute_force)
{
    run_family(0, 300, 0);
}

/* Two equalities on the same variable that contradict each other: t0 = 0 (v_0 = 0) and
 * r_1 = t0 + 1 = 0. The second is dependent on the first, so it enters as a violated row
 * (value +1 at t = 0, violated from above); its dual ray must raise the bound past any cutoff. */
Test(dualqp, contradicting_equalities_are_pruned_by_the_dual_ray)
{
    double V[4] = {1, 0, 0, 1}, v0[2] = {0, 0}, R[4] = {2, 1, 0, 0}, r0[2] = {-1, 1};
    double Z[4] = {1, 0, 0, 1}, z0[2] = {0, 0}, H[4] = {1, 0, 0, 1}, g[2] = {0, 0}, t[2], bound;
    lcp_reduced r = {2, 2, 2, V, v0, R, r0, Z, z0, 1, 3.0, 0};
    lcp_arena ar = {0};
    lcp_dqp d;
    cr_assert_eq(lcp_dqp_init(&d, &r, H, g, 0.0, &ar), 0);
    signed char st[2] = {LCP_V0, LCP_R0}, act[4] = {0};
    cr_assert_eq(lcp_dqp_solve(&d, st, act, 1e3, t, &bound), 1);
    cr_assert_gt(bound, 1e3);
    lcp_arena_free(&ar);
}
