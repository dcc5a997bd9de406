/* Complementarity states that are the same in EVERY solution, found before the branch and bound
 * so that it branches only over the genuinely nonconvex rest (issue 12).
 *
 * On a reduced problem with t >= 0 _|_ r(t) = R t + r0 >= 0 (vunit), two provable rules:
 *
 *  1. Block triangular solve. Row i depends on t_j when R_ij != 0. Take the strongly connected
 *     components of this graph in topological order (Tarjan emits a component only after every
 *     component it depends on). A component B whose dependencies are all already fixed is the
 *     LCP (R_BB, r0_B + R_B,fixed t_fixed); when the symmetric part of R_BB is positive definite
 *     (R_BB is a P-matrix) that LCP has exactly one solution, so t_B is the same in every
 *     solution of the whole problem: one Lemke solve fixes it. Siconos' deltasigma MLCPs: 28 of
 *     the 156 complementarity pairs are 1 x 1 sources (a diode on a fixed source) fixed this way.
 *  2. Sign rule. If the fixed part of row i is positive and every R_ij with t_j not fixed is
 *     >= 0, then r_i(t) > 0 for every t >= 0, so t_i = 0 in every solution.
 *
 * The rules feed each other (a zero fixed by rule 2 removes a dependency), so they alternate
 * until nothing changes. A fixed index whose t_i and r_i both vanish (degenerate) is left free:
 * both of its branches then hold the same point, which the branch and bound handles as a tie.
 * Entries below 1e-14 of their row's largest are rounding left by the elimination of equality
 * rows (structural zeros of the Schur complement) and do not count as dependencies: ignoring
 * them moves a row by less than 1e-12 of its terms, far below the per-row acceptance check
 * that every candidate passes anyway. Only where rows were eliminated: with none (r->exact) an
 * entry is the data's own, and a tiny one can carry a huge t. crash-be48...: w4 = 1e-3 z2 + 3 z3
 * - 1e-14 z4 + 1 (reduced: -2.5e-15 t5 next to 1.5) has its only solutions at z4 ~ 1e14, where
 * that term cancels the 1; the sign rule read row 4 as positive, fixed z4 = 0 at the root, and
 * the branch and bound found the root empty (NO_SOLUTION). */
#include "internal.h"

#include <math.h>
#include <string.h>

enum { UNKNOWN = 0, FIXED = 1 };
#define SIGN_TOL_ELIMINATED 1e-7   /* the sign rule's margin after an elimination (sign_rule) */

typedef struct presolve {
    const lcp_reduced *r;
    int m;
    double *thr;          /* per row: entries at or below it are not dependencies */
    signed char *known;
    double *tval, *shift; /* fixed values; r0_i + sum over fixed j of R_ij t_j */
    /* Tarjan's iterative state */
    int *index, *low, *stack, *onstack, *call, *edge, *comp;
    double *Rb, *qb, *tb, *work;
    lcp_lemke_ws lw;
} presolve;

static int depends(const presolve *p, int i, int j)
{
    return j != i && p->known[j] == UNKNOWN && fabs(p->r->R[i + (size_t)j * p->m]) > p->thr[i];
}

static void update_shift(presolve *p)
{
    const lcp_reduced *r = p->r;
    int m = p->m;
    for (int i = 0; i < m; i++) {
        double s = r->r0[i];
        for (int j = 0; j < m; j++)
            if (p->known[j] == FIXED)
                s += r->R[i + (size_t)j * m] * p->tval[j];
        p->shift[i] = s;
    }
}

/* Rule 2 on every unknown index; returns how many it fixed. */
static int sign_rule(presolve *p)
{
    const lcp_reduced *r = p->r;
    int m = p->m, fixed = 0;
    /* Where equality rows were eliminated, r0 carries their block's rounding, cond(A_uu) eps
     * relative, and a row that is zero on a continuum can come out slightly positive: crash-9c18...
     * (fuzzing; a block of condition 2e9 after box shifts whose constants 1000.000001 round) left
     * shifts 5.2e-9 and 3.2e-10 on two such rows, both pairs were fixed at their lower ends, and
     * the answer was a corner of |z|^2 = 5 where the minimum is 2. There a shift must clear
     * SIGN_TOL_ELIMINATED: a fix is an optimisation, and declining it costs branches only. */
    double tol = (r->exact ? NSDAE_TOL_SIGN : SIGN_TOL_ELIMINATED) * r->scale;
    for (int i = 0; i < m; i++) {
        if (p->known[i] != UNKNOWN || !(p->shift[i] > tol))
            continue;
        int nonneg = 1;
        for (int j = 0; j < m && nonneg; j++)
            if (p->known[j] == UNKNOWN && r->R[i + (size_t)j * m] < -p->thr[i])
                nonneg = 0;
        if (nonneg) {
            p->known[i] = FIXED;
            p->tval[i] = 0;
            fixed++;
        }
    }
    return fixed;
}

/* Solves the component comp[0..nb) if all its dependencies are fixed and it is a P-matrix by
 * its symmetric part; returns 1 when fixed. */
static int solve_block(presolve *p, const int *comp, int nb)
{
    const lcp_reduced *r = p->r;
    int m = p->m;
    for (int a = 0; a < nb; a++)
        for (int j = 0; j < m; j++)
            if (depends(p, comp[a], j)) {
                int inside = 0;
                for (int c = 0; c < nb && !inside; c++)
                    inside = comp[c] == j;
                if (!inside)
                    return 0;
            }
    for (int c = 0; c < nb; c++) {
        for (int a = 0; a < nb; a++)
            p->Rb[a + (size_t)c * nb] = r->R[comp[a] + (size_t)comp[c] * m];
        p->qb[c] = p->shift[comp[c]];
    }
    if (!lcp_sym_part_pd(nb, p->Rb, p->work) || lcp_lemke(nb, p->Rb, p->qb, p->tb, &p->lw) != 0)
        return 0;
    for (int c = 0; c < nb; c++) {   /* fixed: its column moves into every row's fixed part */
        int j = comp[c];
        p->known[j] = FIXED;
        p->tval[j] = fmax(p->tb[c], 0.0);
        for (int i = 0; i < m; i++)
            p->shift[i] += r->R[i + (size_t)j * m] * p->tval[j];
    }
    return 1;
}

/* Rule 1: Tarjan's algorithm (iterative: no recursion depth in m) over the unknown indices,
 * each component tried as it is emitted. Returns how many indices it fixed. */
static int block_rule(presolve *p)
{
    int m = p->m, counter = 0, sp = 0, fixed = 0;
    for (int i = 0; i < m; i++) {
        p->index[i] = -1;
        p->onstack[i] = 0;
    }
    for (int root = 0; root < m; root++) {
        if (p->known[root] != UNKNOWN || p->index[root] >= 0)
            continue;
        int depth = 0;
        p->call[0] = root;
        p->edge[0] = 0;
        p->index[root] = p->low[root] = counter++;
        p->stack[sp++] = root;
        p->onstack[root] = 1;
        while (depth >= 0) {
            int v = p->call[depth];
            int j = p->edge[depth];
            while (j < m && !depends(p, v, j))
                j++;
            if (j < m) {
                p->edge[depth] = j + 1;
                if (p->index[j] < 0) {   /* descend */
                    depth++;
                    p->call[depth] = j;
                    p->edge[depth] = 0;
                    p->index[j] = p->low[j] = counter++;
                    p->stack[sp++] = j;
                    p->onstack[j] = 1;
                } else if (p->onstack[j]) {
                    p->low[v] = p->low[v] < p->index[j] ? p->low[v] : p->index[j];
                }
                continue;
            }
            if (p->low[v] == p->index[v]) {   /* v roots a component: pop and try it */
                int nb = 0, w;
                do {
                    w = p->stack[--sp];
                    p->onstack[w] = 0;
                    p->comp[nb++] = w;
                } while (w != v);
                if (solve_block(p, p->comp, nb))
                    fixed += nb;
            }
            depth--;
            if (depth >= 0) {
                int u = p->call[depth];
                p->low[u] = p->low[u] < p->low[v] ? p->low[u] : p->low[v];
            }
        }
    }
    return fixed;
}

int lcp_forced_pattern(const lcp_reduced *r, signed char *st, lcp_arena *ar)
{
    int m = r->m;
    memset(st, LCP_FREE, (size_t)m);
    if (!r->vunit || m == 0)
        return 0;
    presolve p = {.r = r, .m = m};
    size_t mm = (size_t)m * m;
    p.thr = lcp_arena_doubles(ar, (size_t)m);
    p.known = lcp_arena_alloc(ar, (size_t)m);
    p.tval = lcp_arena_doubles(ar, (size_t)m);
    p.shift = lcp_arena_doubles(ar, (size_t)m);
    int **ints[] = {&p.index, &p.low, &p.stack, &p.onstack, &p.call, &p.edge, &p.comp};
    for (size_t a = 0; a < sizeof ints / sizeof *ints; a++)
        *ints[a] = lcp_arena_alloc(ar, sizeof(int) * (size_t)m);
    p.Rb = lcp_arena_doubles(ar, mm);
    p.work = lcp_arena_doubles(ar, mm);
    p.qb = lcp_arena_doubles(ar, (size_t)m);
    p.tb = lcp_arena_doubles(ar, (size_t)m);
    if (ar->failed || lcp_lemke_ws_init(&p.lw, m, ar))
        return -1;
    for (int i = 0; i < m; i++) {
        double mx = 0;
        for (int j = 0; j < m; j++)
            mx = fmax(mx, fabs(r->R[i + (size_t)j * m]));
        p.thr[i] = r->exact ? 0.0 : 1e-14 * mx;
    }
    update_shift(&p);
    for (;;) {   /* the sign rule fixes zeros: the fixed parts stay as they are */
        int a = sign_rule(&p);
        int b = block_rule(&p);
        if (!a && !b)
            break;
    }
    double tol = NSDAE_TOL_SIGN * r->scale;
    int nfixed = 0;
    for (int i = 0; i < m; i++) {
        if (p.known[i] != FIXED)
            continue;
        /* a row fixed by rule 1 depends only on fixed indices: r_i is final; one fixed by rule
         * 2 has r_i >= shift_i > 0, and shift_i only grew since (its other entries are >= 0) */
        if (p.tval[i] > tol)
            st[i] = LCP_R0;   /* complementarity of the unique block solution: r_i = 0 */
        else if (p.shift[i] > tol)
            st[i] = LCP_V0;
        nfixed += st[i] != LCP_FREE;
    }
    return nfixed;
}
