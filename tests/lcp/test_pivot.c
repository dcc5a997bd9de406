/* Block principal pivoting (lcp/pivot.c) against enumeration: a positive definite LCP has exactly
 * one solution, so the enumerator's single point (lcp/enumerate.c, an independent solver) is the
 * answer, for every starting guess. Where pivoting must not answer (M not positive definite, not
 * symmetric) the call falls back to Lemke, says so in its counts, and still answers right.
 * Lemke on a kept workspace (lcp/lemke_ws.c) against enumeration too, on P-matrices that are not
 * symmetric (one solution), and on problems it must refuse. */
#include <criterion/criterion.h>
#include <math.h>
#include <nsdae/lcp.h>
#include <nsdae/tolerances.h>

#include "xorshift.h"

#define NMAX 12

/* The unique solution by enumeration. */
static void enumerated(const nsdae_mlcp *p, double *z)
{
    nsdae_lcp_solution_set *set = NULL;
    nsdae_error e;
    cr_assert_eq(nsdae_lcp_enumerate(p, &set, &e), NSDAE_OK, "%s", e.message);
    cr_assert_eq(set->count, 1);
    cr_assert(set->pieces[0].is_point);
    for (int i = 0; i < p->size; i++) z[i] = set->pieces[0].z[i];
    nsdae_lcp_solution_set_free(set);
}

static void assert_close(int n, const double *z, const double *ref)
{
    double scale = 1;
    for (int i = 0; i < n; i++) scale = fmax(scale, fabs(ref[i]));
    for (int i = 0; i < n; i++)
        cr_assert(fabs(z[i] - ref[i]) <= 1e-10 * scale, "z[%d] = %.17g, enumeration %.17g", i, z[i], ref[i]);
}

Test(pivot, random_positive_definite_problems_match_enumeration_from_any_start)
{
    uint64_t seed = 0x5eed1234abcdULL;
    nsdae_lcp_pivot_ws *ws = NULL;
    nsdae_error e;
    cr_assert_eq(nsdae_lcp_pivot_ws_create(4, &ws, &e), NSDAE_OK); /* grows past 4 on demand */
    long solves = 0;
    for (int trial = 0; trial < 60; trial++) {
        const int n = 2 + trial % (NMAX - 1);
        double B[NMAX * NMAX], M[NMAX * NMAX], q[NMAX], z[NMAX], w[NMAX], ref[NMAX];
        for (int k = 0; k < n * n; k++) B[k] = xorshift_uniform(&seed);
        /* M = B B^T + n I / 10: symmetric positive definite, built symmetric to the bit */
        for (int i = 0; i < n; i++)
            for (int j = 0; j <= i; j++) {
                double s = i == j ? 0.1 * n : 0;
                for (int k = 0; k < n; k++) s += B[i + k * n] * B[j + k * n];
                M[i + j * n] = M[j + i * n] = s;
            }
        for (int i = 0; i < n; i++) q[i] = xorshift_uniform(&seed);
        nsdae_mlcp p = {n, M, q, NULL, NULL, NULL};
        enumerated(&p, ref);
        for (int start = 0; start < 3; start++) {
            /* no guess, the answer itself, a wrong guess (every row free) */
            for (int i = 0; i < n; i++) z[i] = start == 0 ? 0 : start == 1 ? ref[i] : 1;
            cr_assert_eq(nsdae_lcp_solve_pivot_ws(ws, &p, z, w, &e), NSDAE_OK, "%s", e.message);
            solves++;
            assert_close(n, z, ref);
            cr_assert(nsdae_mlcp_row_violation(&p, z) <= NSDAE_TOL_RESIDUAL);
        }
    }
    nsdae_lcp_pivot_stats s = nsdae_lcp_pivot_ws_stats(ws);
    cr_assert_eq(s.calls, solves);
    cr_expect_eq(s.fallbacks, 0, "positive definite problems must not need Lemke");
    cr_assert_geq(s.iterations, s.calls);
    nsdae_lcp_pivot_ws_destroy(ws);
}

Test(pivot, a_semidefinite_or_unsymmetric_matrix_goes_to_lemke_and_is_counted)
{
    nsdae_lcp_pivot_ws *ws = NULL;
    nsdae_error e;
    cr_assert_eq(nsdae_lcp_pivot_ws_create(3, &ws, &e), NSDAE_OK);
    /* two equal contacts (rank 1): the principal system of both rows has no Cholesky factor;
     * solutions z1 + z2 = 1, w = 0 */
    const double S[4] = {1, 1, 1, 1}, qs[2] = {-1, -1};
    nsdae_mlcp p = {2, S, qs, NULL, NULL, NULL};
    double z[3] = {1, 1, 0}, w[3];
    cr_assert_eq(nsdae_lcp_solve_pivot_ws(ws, &p, z, w, &e), NSDAE_OK, "%s", e.message);
    cr_assert(fabs(z[0] + z[1] - 1) <= 1e-12 && z[0] >= 0 && z[1] >= 0, "z = %g, %g", z[0], z[1]);
    cr_assert_eq(nsdae_lcp_pivot_ws_stats(ws).fallbacks, 1);
    /* a P-matrix that is not symmetric: [[2, 1], [0, 2]], q = (-3, -2): z = (1, 1) */
    const double U[4] = {2, 0, 1, 2}, qu[2] = {-3, -2};
    p = (nsdae_mlcp){2, U, qu, NULL, NULL, NULL};
    cr_assert_eq(nsdae_lcp_solve_pivot_ws(ws, &p, z, w, &e), NSDAE_OK, "%s", e.message);
    cr_assert(fabs(z[0] - 1) <= 1e-14 && fabs(z[1] - 1) <= 1e-14, "z = %g, %g", z[0], z[1]);
    cr_assert_eq(nsdae_lcp_pivot_ws_stats(ws).fallbacks, 2);
    /* a row kind other than complementarity is refused */
    const nsdae_row_kind kind[2] = {NSDAE_ROW_EQUALITY, NSDAE_ROW_COMPLEMENTARITY};
    p = (nsdae_mlcp){2, S, qs, kind, NULL, NULL};
    cr_assert_eq(nsdae_lcp_solve_pivot_ws(ws, &p, z, w, &e), NSDAE_INVALID_INPUT);
    nsdae_lcp_pivot_ws_destroy(ws);
}

Test(pivot, a_tridiagonal_column_is_solved_in_band_storage)
{
    /* a resting column of n beads on the ground (unit masses): W = G G^T with G the
     * difference rows, tridiagonal (2 on the diagonal but 1 for the ground row, -1 beside), q =
     * h g times each contact's load count, so every contact carries its beads above: P_c =
     * (n - c) h g exactly when the column rests (w = 0). The band path (2 kd + 1 < nf) solves it. */
    enum { n = 40 };
    static double W[n * n], q[n], z[n], w[n];
    const double hg = 1e-3 * 9.81;
    for (int c = 0; c < n; c++) {
        W[c + c * n] = c == 0 ? 1 : 2;
        if (c + 1 < n) W[c + (c + 1) * n] = W[c + 1 + c * n] = -1;
    }
    /* w = W P + q = 0 at P_c = (n - c) hg: q = -W P */
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += W[i + j * n] * (n - j) * hg;
        q[i] = -s;
    }
    nsdae_lcp_pivot_ws *ws = NULL;
    nsdae_error e;
    cr_assert_eq(nsdae_lcp_pivot_ws_create(n, &ws, &e), NSDAE_OK);
    nsdae_mlcp p = {n, W, q, NULL, NULL, NULL};
    cr_assert_eq(nsdae_lcp_solve_pivot_ws(ws, &p, z, w, &e), NSDAE_OK, "%s", e.message);
    for (int c = 0; c < n; c++)
        cr_assert(fabs(z[c] - (n - c) * hg) <= 1e-12 * n * hg, "P[%d] = %.17g, want %.17g", c, z[c], (n - c) * hg);
    cr_assert_eq(nsdae_lcp_pivot_ws_stats(ws).fallbacks, 0);
    nsdae_lcp_pivot_ws_destroy(ws);
}

Test(lemke_ws, random_unsymmetric_p_matrices_match_enumeration)
{
    uint64_t seed = 0x1e3e5eedULL;
    nsdae_lcp_lemke_ws *ws = NULL;
    nsdae_error e;
    cr_assert_eq(nsdae_lcp_lemke_ws_create(4, &ws, &e), NSDAE_OK); /* grows past 4 on demand */
    for (int trial = 0; trial < 60; trial++) {
        const int n = 2 + trial % (NMAX - 1);
        double B[NMAX * NMAX], S[NMAX * NMAX], M[NMAX * NMAX], q[NMAX], z[NMAX], w[NMAX], ref[NMAX];
        for (int k = 0; k < n * n; k++) {
            B[k] = xorshift_uniform(&seed);
            S[k] = xorshift_uniform(&seed);
        }
        /* M = B B^T + n I / 10 + S - S^T: its symmetric part is positive definite, so M is a P-matrix */
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                double s = (i == j ? 0.1 * n : 0) + S[i + j * n] - S[j + i * n];
                for (int k = 0; k < n; k++) s += B[i + k * n] * B[j + k * n];
                M[i + j * n] = s;
            }
        for (int i = 0; i < n; i++) q[i] = trial % 4 == 0 && i % 2 ? 0 : xorshift_uniform(&seed); /* some degenerate */
        nsdae_mlcp p = {n, M, q, NULL, NULL, NULL};
        enumerated(&p, ref);
        cr_assert_eq(nsdae_lcp_solve_lemke_ws(ws, &p, z, w, &e), NSDAE_OK, "trial %d: %s", trial, e.message);
        assert_close(n, z, ref);
        cr_assert(nsdae_mlcp_row_violation(&p, z) <= NSDAE_TOL_RESIDUAL);
    }
    nsdae_lcp_lemke_ws_destroy(ws);
}

Test(lemke_ws, no_solution_and_other_kinds_are_refused)
{
    nsdae_lcp_lemke_ws *ws = NULL;
    nsdae_error e;
    cr_assert_eq(nsdae_lcp_lemke_ws_create(2, &ws, &e), NSDAE_OK);
    /* w = -z - 1 >= 0 has no z >= 0: Lemke ends on a ray */
    const double N[4] = {-1, 0, 0, -1}, qn[2] = {-1, -1};
    double z[2], w[2];
    nsdae_mlcp p = {2, N, qn, NULL, NULL, NULL};
    cr_assert_eq(nsdae_lcp_solve_lemke_ws(ws, &p, z, w, &e), NSDAE_NO_SOLUTION);
    const nsdae_row_kind kind[2] = {NSDAE_ROW_EQUALITY, NSDAE_ROW_COMPLEMENTARITY};
    p = (nsdae_mlcp){2, N, qn, kind, NULL, NULL};
    cr_assert_eq(nsdae_lcp_solve_lemke_ws(ws, &p, z, w, &e), NSDAE_INVALID_INPUT);
    cr_assert_eq(nsdae_lcp_solve_lemke_ws(NULL, &p, z, w, &e), NSDAE_INVALID_INPUT);
    nsdae_lcp_lemke_ws_destroy(ws);
    nsdae_lcp_lemke_ws_destroy(NULL);
}
