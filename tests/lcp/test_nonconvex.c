/* The minimal-norm selection on genuinely nonconvex LCPs, against answers from outside the code:
 *  - the 2 x 2 LCP M = [1 2; 2 1] (not a P-matrix: det -3) whose three solutions are enumerated
 *    by hand below, and block-diagonal / block-triangular problems built from it whose
 *    minimal-norm solution follows in closed form;
 *  - the states forced in every solution (decompose.c) on a hand-built block-triangular LCP;
 *  - random block-triangular nonconvex LCPs (m = 5..9, above the fast path's 4) against a brute
 *    force written here: all 2^m patterns, each solved by Gaussian elimination, the feasible
 *    points kept. The data are generic (continuous random entries), so every pattern matrix is
 *    nonsingular, the solution set is finite and the enumeration is exact. */
#include <criterion/criterion.h>
#include <math.h>
#include <nsdae/lcp.h>

#include "internal.h"   /* lcp_forced_pattern on a reduced problem */
#include <stdint.h>
#include <string.h>
#include "xorshift.h"

enum { MAXM = 10 };

/* Hand enumeration of LCP([1 2; 2 1], (-a, -b)) for a, b > 0 with 2a > b, 2b > a:
 *   t = (a, 0): w2 = 2a - b > 0;  t = (0, b): w1 = 2b - a > 0;
 *   t1 + 2 t2 = a, 2 t1 + t2 = b: t = ((2b - a)/3, (2a - b)/3) > 0.
 * (a, b) = (3, 3): (3,0), (0,3), (1,1): minimal norm (1,1).
 * (a, b) = (3, 2): (3,0) norm 3, (0,2) norm 2, (1/3, 4/3) norm sqrt(17)/3: minimal (1/3, 4/3). */

static void put_block(double *M, int N, int o, double a, double b, double c, double d)
{
    M[o + o * N] = a;
    M[o + (o + 1) * N] = b;
    M[o + 1 + o * N] = c;
    M[o + 1 + (o + 1) * N] = d;
}

Test(nonconvex, two_by_two_has_three_solutions_and_the_smallest_is_chosen)
{
    double M[4] = {1, 2, 2, 1}, q[2] = {-3, -2}, z[2], w[2];
    nsdae_mlcp p = {2, M, q, NULL, NULL, NULL};
    nsdae_minnorm_spec spec = {0};
    spec.count_solutions = 1;
    nsdae_minnorm_result res;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_lcp_minnorm(&p, &spec, z, w, &res, &err), NSDAE_OK, "%s", err.message);
    cr_assert_float_eq(z[0], 1.0 / 3, 1e-12);
    cr_assert_float_eq(z[1], 4.0 / 3, 1e-12);
    cr_assert_eq(res.nsol, 3);
    cr_assert_eq(res.unique, 1);
}

/* Four independent blocks: [1 2; 2 1] with q = (-3,-3) and (-3,-2), the 1 x 1 w = -t + 1
 * (t = 0 or 1), the 1 x 1 w = t - 2 (t = 2). The minimal-norm solution of a decoupled LCP is
 * the concatenation of each block's: (1, 1, 1/3, 4/3, 0, 2). m = 6 takes the branch and bound. */
Test(nonconvex, block_diagonal_is_the_concatenation_of_the_blocks)
{
    enum { N = 6 };
    double M[N * N] = {0}, q[N] = {-3, -3, -3, -2, 1, -2}, z[N], w[N];
    put_block(M, N, 0, 1, 2, 2, 1);
    put_block(M, N, 2, 1, 2, 2, 1);
    M[4 + 4 * N] = -1;
    M[5 + 5 * N] = 1;
    nsdae_mlcp p = {N, M, q, NULL, NULL, NULL};
    nsdae_minnorm_result res;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_lcp_minnorm(&p, NULL, z, w, &res, &err), NSDAE_OK, "%s", err.message);
    double want[N] = {1, 1, 1.0 / 3, 4.0 / 3, 0, 2};
    for (int i = 0; i < N; i++)
        cr_assert(fabs(z[i] - want[i]) <= 1e-10, "z[%d] = %.17g, want %.17g", i, z[i], want[i]);
    cr_assert_eq(res.unique, 1);
}

/* Block triangular: t0 from w0 = 2 t0 - 4 (t0 = 2), t1 from w1 = t1 + 3 (t1 = 0), then the sink
 * w2 = t2 + 2 t3 + t0/2 - 4, w3 = 2 t2 + t3 + t1 - 2: at t0 = 2, t1 = 0 the 2 x 2 above with
 * (a, b) = (3, 2), so the minimal-norm solution is (2, 0, 1/3, 4/3) and the two sources are
 * forced in every solution: t0 > 0 (r0 = 0), t1 = 0 with r1 = 3 > 0, the sink left free. A fifth
 * index w4 = t4 - t2 - t3 + 5 makes m = 5 (above the fast path) and is forced t4 = 0 only once
 * the sink is known, which it is not (the sink is not a P-matrix): it must stay free. */
Test(nonconvex, block_triangular_sources_forced_and_the_sink_searched)
{
    enum { N = 5 };
    double M[N * N] = {0}, q[N] = {-4, 3, -4, -2, 5}, z[N], w[N];
    M[0 + 0 * N] = 2;
    M[1 + 1 * N] = 1;
    put_block(M, N, 2, 1, 2, 2, 1);
    M[2 + 0 * N] = 0.5;
    M[3 + 1 * N] = 1;
    M[4 + 4 * N] = 1;
    M[4 + 2 * N] = -1;
    M[4 + 3 * N] = -1;
    nsdae_mlcp p = {N, M, q, NULL, NULL, NULL};

    lcp_arena ar = {0};
    lcp_std s;
    lcp_reduced r;
    nsdae_error err = {0};
    signed char st[N];
    cr_assert_eq(lcp_std_build(&p, &ar, &s, &err), NSDAE_OK);
    cr_assert_eq(lcp_reduce(&s, &ar, &r, &err), NSDAE_OK);
    cr_assert_eq(lcp_forced_pattern(&r, st, &ar), 2);
    cr_assert_eq(st[0], LCP_R0);
    cr_assert_eq(st[1], LCP_V0);
    cr_assert_eq(st[2], LCP_FREE);
    cr_assert_eq(st[3], LCP_FREE);
    cr_assert_eq(st[4], LCP_FREE);
    lcp_arena_free(&ar);

    nsdae_minnorm_result res;
    cr_assert_eq(nsdae_lcp_minnorm(&p, NULL, z, w, &res, &err), NSDAE_OK, "%s", err.message);
    double want[N] = {2, 0, 1.0 / 3, 4.0 / 3, 0};
    for (int i = 0; i < N; i++)
        cr_assert(fabs(z[i] - want[i]) <= 1e-10, "z[%d] = %.17g, want %.17g", i, z[i], want[i]);
}

/* ---- brute force over every pattern ------------------------------------------------------- */

static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static double urand(void)   /* uniform in (-1, 1) */
{
    return xorshift_uniform(&rng);
}

/* Gaussian elimination with partial pivoting on a copy; 0 when solved. */
static int gauss(int n, const double *A, const double *b, double *x)
{
    double a[MAXM * MAXM], y[MAXM];
    memcpy(a, A, sizeof(double) * (size_t)n * n);
    memcpy(y, b, sizeof(double) * (size_t)n);
    for (int c = 0; c < n; c++) {
        int piv = c;
        for (int i = c + 1; i < n; i++)
            if (fabs(a[i + c * n]) > fabs(a[piv + c * n]))
                piv = i;
        if (fabs(a[piv + c * n]) < 1e-12)
            return 1;
        for (int j = 0; j < n; j++) {
            double tmp = a[c + j * n];
            a[c + j * n] = a[piv + j * n];
            a[piv + j * n] = tmp;
        }
        double tmp = y[c];
        y[c] = y[piv];
        y[piv] = tmp;
        for (int i = c + 1; i < n; i++) {
            double f = a[i + c * n] / a[c + c * n];
            for (int j = c; j < n; j++)
                a[i + j * n] -= f * a[c + j * n];
            y[i] -= f * y[c];
        }
    }
    for (int i = n - 1; i >= 0; i--) {
        double v = y[i];
        for (int j = i + 1; j < n; j++)
            v -= a[i + j * n] * x[j];
        x[i] = v / a[i + i * n];
    }
    return 0;
}

/* The smallest ||z|| over all solutions of the MLCP whose first n rows are equalities (z free,
 * w = 0) and the rest complementarity rows (INFINITY: none); *count the number of solutions. */
static double brute_force(int N, int n, const double *M, const double *q, int *count)
{
    double best = INFINITY;
    *count = 0;
    int m = N - n;
    for (unsigned mask = 0; mask < (1u << m); mask++) {
        /* equality rows, and per complementarity row i: bit set w_i = 0 (row i of M), clear z_i = 0 */
        double A[MAXM * MAXM], b[MAXM], z[MAXM];
        for (int i = 0; i < N; i++) {
            int wrow = i < n || ((mask >> (i - n)) & 1);
            for (int j = 0; j < N; j++)
                A[i + j * N] = wrow ? M[i + j * N] : (i == j);
            b[i] = wrow ? -q[i] : 0;
        }
        if (gauss(N, A, b, z))
            continue;
        int ok = 1;
        double n2 = 0;
        for (int i = 0; i < N; i++) {
            double wi = q[i];
            for (int j = 0; j < N; j++)
                wi += M[i + j * N] * z[j];
            if (i >= n)
                ok = ok && z[i] >= -1e-9 && wi >= -1e-9;
            n2 += z[i] * z[i];
        }
        if (ok) {
            (*count)++;
            best = fmin(best, sqrt(n2));
        }
    }
    return best;
}

/* Block lower triangular in a random order: blocks of 1 to 3 indices, half of them positive
 * definite (B B' + I + skew), half indefinite (entries in (-1,1), a negative diagonal entry),
 * coupled downwards by entries in (-1,1). */
static void gen_triangular(int m, double *M, double *q)
{
    int perm[MAXM], start[MAXM + 1], nb = 0;
    for (int i = 0; i < m; i++)
        perm[i] = i;
    for (int i = m - 1; i > 0; i--) {
        int j = (int)((urand() + 1) * 0.5 * (i + 1)) % (i + 1);
        int tmp = perm[i];
        perm[i] = perm[j];
        perm[j] = tmp;
    }
    for (int o = 0; o < m;) {
        start[nb++] = o;
        o += 1 + (int)((urand() + 1) * 1.5) % 3;
        if (o > m)
            o = m;
    }
    start[nb] = m;
    double A[MAXM * MAXM] = {0};
    for (int b = 0; b < nb; b++) {
        int o = start[b], s = start[b + 1] - o, pd = urand() > 0;
        for (int i = o; i < o + s; i++) {
            for (int j = 0; j < o; j++)
                A[i + j * m] = urand();
            for (int j = o; j < o + s; j++)
                A[i + j * m] = urand();
        }
        if (pd) {
            for (int i = o; i < o + s; i++)
                for (int j = o; j < o + s; j++) {
                    double v = (i == j);
                    for (int l = o; l < o + s; l++)
                        v += A[i + l * m] * A[j + l * m];
                    A[i + j * m] = v + 0.2 * urand();
                }
            for (int i = o; i < o + s; i++)   /* keep the symmetric part positive definite */
                A[i + i * m] += s;
        } else {
            A[o + o * m] = -0.5 - 0.5 * fabs(urand());
        }
    }
    for (int i = 0; i < m; i++) {
        q[perm[i]] = 2 * urand();
        for (int j = 0; j < m; j++)
            M[perm[i] + perm[j] * m] = A[i + j * m];
    }
}

/* minnorm on p against the brute force's smallest norm want (INFINITY: no solution); returns
 * 1 when p has a solution. */
static int expect_minnorm(const nsdae_mlcp *p, double want, int count, int rep)
{
    double z[MAXM], w[MAXM];
    nsdae_minnorm_result res;
    nsdae_error err = {0};
    nsdae_status st = nsdae_lcp_minnorm(p, NULL, z, w, &res, &err);
    if (!isfinite(want)) {
        cr_assert_eq(st, NSDAE_NO_SOLUTION, "rep %d: brute force finds no solution, minnorm %d (%s)", rep, st,
                     err.message);
        return 0;
    }
    cr_assert_eq(st, NSDAE_OK, "rep %d (size %d, %d solutions): %s", rep, p->size, count, err.message);
    double n2 = 0;
    for (int i = 0; i < p->size; i++)
        n2 += z[i] * z[i];
    cr_assert(fabs(sqrt(n2) - want) <= 1e-8 * (1 + want), "rep %d: norm %.17g, brute force %.17g", rep, sqrt(n2),
              want);
    cr_assert(nsdae_mlcp_row_violation(p, z) <= NSDAE_TOL_RESIDUAL, "rep %d", rep);
    return 1;
}

Test(nonconvex, random_block_triangular_against_brute_force)
{
    int solved = 0, none = 0, several = 0;
    for (int rep = 0; rep < 160; rep++) {
        int m = 5 + rep % 5;
        double M[MAXM * MAXM], q[MAXM];
        gen_triangular(m, M, q);
        int count;
        double want = brute_force(m, 0, M, q, &count);
        nsdae_mlcp p = {m, M, q, NULL, NULL, NULL};
        if (!expect_minnorm(&p, want, count, rep)) {
            none++;
            continue;
        }
        solved++;
        several += count > 1;
    }
    /* the family must exercise what it is for: nonconvex problems with several solutions */
    cr_assert(several >= 20 && none >= 5, "solved %d (several solutions: %d), none %d", solved, several, none);
}

/* The same LCPs behind two equality rows, as Siconos' circuit MLCPs are: rows 0, 1 are
 * w = A u + B z + c = 0 with A = [3 1; -1 2] (invertible), and u enters the complementarity
 * rows through C, so the reduced LCP is D - C A^-1 B, no longer triangular in general. The brute
 * force works on the MLCP itself, and the norm includes u. */
Test(nonconvex, random_mlcp_with_equality_rows_against_brute_force)
{
    int solved = 0, several = 0;
    for (int rep = 0; rep < 80; rep++) {
        int m = 5 + rep % 4, N = m + 2;
        double D[MAXM * MAXM], d[MAXM], M[MAXM * MAXM] = {0}, q[MAXM];
        gen_triangular(m, D, d);
        for (int i = 0; i < m; i++) {
            q[2 + i] = d[i];
            for (int j = 0; j < m; j++)
                M[2 + i + (2 + j) * N] = D[i + j * m];
        }
        double A[4] = {3, -1, 1, 2};   /* column-major [3 1; -1 2] */
        for (int i = 0; i < 2; i++) {
            q[i] = urand();
            for (int j = 0; j < 2; j++)
                M[i + j * N] = A[i + j * 2];
        }
        /* sparse B and C: a row of D that u does not enter keeps its place in the triangular
         * order, so states stay forced through the elimination */
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < m; j++) {
                if (urand() > 0.7)
                    M[i + (2 + j) * N] = urand();
                if (urand() > 0.7)
                    M[2 + j + i * N] = urand();
            }
        nsdae_row_kind kind[MAXM];
        for (int i = 0; i < N; i++)
            kind[i] = i < 2 ? NSDAE_ROW_EQUALITY : NSDAE_ROW_COMPLEMENTARITY;
        int count;
        double want = brute_force(N, 2, M, q, &count);
        nsdae_mlcp p = {N, M, q, kind, NULL, NULL};
        if (!expect_minnorm(&p, want, count, rep))
            continue;
        solved++;
        several += count > 1;
    }
    cr_assert(several >= 10, "solved %d, several solutions %d", solved, several);
}

/* Dense nonconvex LCPs (entries in (-1, 1), no structure for the presolve to use: decompose.c
 * fixes nothing), m = 6..10, against the brute force: these are decided by the branch and bound
 * itself, its node bounds by the warm-started dual method (dualqp.c), pruned by the incumbent. */
Test(nonconvex, random_dense_against_brute_force)
{
    int solved = 0, several = 0, searched = 0;
    for (int rep = 0; rep < 120; rep++) {
        int m = 6 + rep % 5;
        double M[MAXM * MAXM], q[MAXM];
        for (int i = 0; i < m; i++) {
            q[i] = urand();
            for (int j = 0; j < m; j++)
                M[i + j * m] = urand();
        }
        int count;
        double want = brute_force(m, 0, M, q, &count);
        nsdae_mlcp p = {m, M, q, NULL, NULL, NULL};
        double z[MAXM], w[MAXM];
        nsdae_minnorm_result res;
        nsdae_error err = {0};
        if (isfinite(want) && nsdae_lcp_minnorm(&p, NULL, z, w, &res, &err) == NSDAE_OK)
            searched += res.nodes > 1;
        if (!expect_minnorm(&p, want, count, rep))
            continue;
        solved++;
        several += count > 1;
    }
    cr_assert(several >= 30 && searched >= 30, "solved %d, several solutions %d, searched %d", solved, several,
              searched);
}
