/* The Sigma-method on hand-written signature matrices: worked oracles (Pryce 2001 on the pendulum of
 * Benveniste et al. 2013, section II-C, and its x' + y' = 1, x - y = 0) and an independent brute-force
 * check of the transversal value and of LP duality on random matrices. */
#include "sigma_helpers.h"

#include <stdlib.h>

/* Pendulum, second-order form (7): f1 = x'' + x lambda, f2 = y'' + y lambda - G, f3 = x^2 + y^2 - L^2. */
Test(sigma_method, pendulum_second_order)
{
    const char *eqs[] = {"f1", "f2", "f3"}, *vars[] = {"x", "y", "lambda"};
    const int t[] = {2, N_, 0, N_, 2, 0, 0, 0, N_};
    nsdae_sigma *s = make_sigma(3, 3, eqs, vars, t);
    nsdae_structural_result *r = analyze(s);
    cr_assert_eq(r->verdict, NSDAE_STRUCTURAL_OK);
    /* Pryce's offsets of the pendulum: Val = 2, c = (0, 0, 2), d = (2, 2, 0), nu_S = 3 */
    cr_assert_eq(r->value, 2);
    cr_assert_eq(r->c[0], 0); cr_assert_eq(r->c[1], 0); cr_assert_eq(r->c[2], 2);
    cr_assert_eq(r->d[0], 2); cr_assert_eq(r->d[1], 2); cr_assert_eq(r->d[2], 0);
    cr_assert_eq(r->index, 3);
    cr_assert_eq(r->max_c, 2, "the constraint is differentiated twice");
    cr_assert_eq(r->dof, 2);
    /* state candidates x, x', y, y'; a selection of dof = 2 of them (y, y' or x, x': Benveniste et al.
     * 2013, (13)) */
    cr_assert_eq(r->nstates, 4);
    cr_assert(has_deriv(r->states, r->nstates, 0, 0) && has_deriv(r->states, r->nstates, 0, 1));
    cr_assert(has_deriv(r->states, r->nstates, 1, 0) && has_deriv(r->states, r->nstates, 1, 1));
    cr_assert_eq(r->nselected, 2);
    cr_assert_eq(r->ndummies, 2);
    int sx = has_deriv(r->selected, 2, 0, 0) && has_deriv(r->selected, 2, 0, 1);
    int sy = has_deriv(r->selected, 2, 1, 0) && has_deriv(r->selected, 2, 1, 1);
    cr_assert(sx || sy, "selected states are {x, x'} or {y, y'}");
    nsdae_structural_result_destroy(r);
    nsdae_sigma_destroy(s);
}

/* Pendulum, first-order form (8): x' = u, u' = T x, y' = v, v' = T y - g, L^2 = x^2 + y^2. */
Test(sigma_method, pendulum_first_order)
{
    const char *eqs[] = {"i1", "i2", "ii1", "ii2", "iii"}, *vars[] = {"x", "u", "y", "v", "T"};
    const int t[] = {
        1, 0, N_, N_, N_,   /* i1: x' = u */
        0, 1, N_, N_, 0,    /* i2: u' = T x */
        N_, N_, 1, 0, N_,   /* ii1: y' = v */
        N_, N_, 0, 1, 0,    /* ii2: v' = T y - g */
        0, N_, 0, N_, N_,   /* iii */
    };
    nsdae_sigma *s = make_sigma(5, 5, eqs, vars, t);
    nsdae_structural_result *r = analyze(s);
    cr_assert_eq(r->verdict, NSDAE_STRUCTURAL_OK);
    /* Benveniste et al. 2013, section II-C, first-order pendulum: c = (i1: 1, i2: 0, ii1: 1, ii2: 0, iii:
     * 2), d = (x: 2, u: 1, y: 2, v: 1, T: 0) */
    const int c[] = {1, 0, 1, 0, 2}, d[] = {2, 1, 2, 1, 0};
    for (int k = 0; k < 5; k++) {
        cr_assert_eq(r->c[k], c[k], "c[%s]", eqs[k]);
        cr_assert_eq(r->d[k], d[k], "d[%s]", vars[k]);
    }
    cr_assert_eq(r->value, 2);
    cr_assert_eq(r->dof, 2);
    cr_assert_eq(r->index, 3);
    cr_assert_eq(r->c[eq_index(r, "iii")], 2, "(iii) differentiated twice (pendulum)");
    cr_assert_eq(r->nselected, 2);
    nsdae_structural_result_destroy(r);
    nsdae_sigma_destroy(s);
}

/* Benveniste et al. 2013, section II: x' + y' = 1, x - y = 0 is index 1; Sigma = [[1, 1], [0, 0]], Val =
 * 1, c = (0, 1), d = (1, 1). */
Test(sigma_method, o19_index_one)
{
    const char *eqs[] = {"f1", "f2"}, *vars[] = {"x", "y"};
    const int t[] = {1, 1, 0, 0};
    nsdae_sigma *s = make_sigma(2, 2, eqs, vars, t);
    nsdae_structural_result *r = analyze(s);
    cr_assert_eq(r->verdict, NSDAE_STRUCTURAL_OK);
    cr_assert_eq(r->c[0], 0); cr_assert_eq(r->c[1], 1);
    cr_assert_eq(r->d[0], 1); cr_assert_eq(r->d[1], 1);
    cr_assert_eq(r->value, 1);
    cr_assert_eq(r->index, 1);
    cr_assert_eq(r->dof, 1);
    /* J = [[1, 1], [1, -1]] (Benveniste et al. 2013, section II): nonsingular, singular values sqrt(2),
     * sqrt(2) */
    const double jac[] = {1, 1, 1, -1}; /* column-major */
    nsdae_error err = {0};
    cr_assert_eq(nsdae_structural_check_numeric(r, s, jac, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(r->numeric.rank, 2);
    cr_assert_eq(r->numeric.singular, 0);
    cr_assert_float_eq(r->numeric.cond, 1.0, 1e-12);
    nsdae_structural_result_destroy(r);
    nsdae_sigma_destroy(s);
}

/* Benveniste et al. 2013, section II (output set, BLT): A = [[0, b], [c, d]]: output set {c, b}, BLT [[b,
 * 0], [d, c]]: solve row 1 for x2 first, then row 2 for x1. */
Test(sigma_method, output_set_and_blt)
{
    const char *eqs[] = {"r1", "r2"}, *vars[] = {"x1", "x2"};
    const int t[] = {N_, 0, 0, 0};
    nsdae_sigma *s = make_sigma(2, 2, eqs, vars, t);
    nsdae_structural_result *r = analyze(s);
    cr_assert_eq(r->transversal[0], 1);
    cr_assert_eq(r->transversal[1], 0);
    cr_assert_eq(r->nblocks, 2);
    cr_assert_eq(r->blocks[0].n, 1); cr_assert_eq(r->blocks[0].eqs[0], 0); cr_assert_eq(r->blocks[0].vars[0], 1);
    cr_assert_eq(r->blocks[1].n, 1); cr_assert_eq(r->blocks[1].eqs[0], 1); cr_assert_eq(r->blocks[1].vars[0], 0);
    nsdae_structural_result_destroy(r);
    nsdae_sigma_destroy(s);
}

Test(sigma_method, empty_system)
{
    nsdae_sigma *s = NULL;
    cr_assert_eq(nsdae_sigma_create(0, 0, &s, NULL), NSDAE_OK);
    nsdae_structural_result *r = analyze(s);
    cr_assert_eq(r->verdict, NSDAE_STRUCTURAL_OK);
    cr_assert_eq(r->dof, 0);
    cr_assert_eq(r->nblocks, 0);
    nsdae_structural_result_destroy(r);
    nsdae_sigma_destroy(s);
}

/* Independent check: brute force over all permutations gives the transversal value; the offsets
 * must be valid (c >= 0, d_j - c_i >= sigma_ij, equality on the HVT) and satisfy LP duality
 * sum d - sum c = Val. */
static int best_value(int n, const int *sig, int *perm, int k, int used)
{
    if (k == n) return 0;
    int best = NSDAE_SIGMA_NONE;
    for (int j = 0; j < n; j++) {
        if (used & (1 << j) || sig[k * n + j] == NSDAE_SIGMA_NONE) continue;
        int rest = best_value(n, sig, perm, k + 1, used | (1 << j));
        if (rest == NSDAE_SIGMA_NONE) continue;
        if (sig[k * n + j] + rest > best) best = sig[k * n + j] + rest;
    }
    return best;
}

Test(sigma_method, random_matrices_against_brute_force)
{
    unsigned seed = 12345u;
    int perm[8];
    for (int trial = 0; trial < 400; trial++) {
        int n = 1 + trial % 6;
        int t[36];
        for (int k = 0; k < n * n; k++) {
            seed = seed * 1103515245u + 12345u;
            unsigned v = (seed >> 16) % 7u;
            t[k] = v < 3 ? N_ : (int)(v - 3);   /* about 40% missing, orders 0..3 */
        }
        nsdae_sigma *s = NULL;
        cr_assert_eq(nsdae_sigma_create(n, n, &s, NULL), NSDAE_OK);
        for (int k = 0; k < n * n; k++) nsdae_sigma_set(s, k / n, k % n, t[k], NULL);
        nsdae_structural_result *r = analyze(s);
        int val = best_value(n, t, perm, 0, 0);
        if (val == NSDAE_SIGMA_NONE) {
            cr_assert_neq(r->verdict, NSDAE_STRUCTURAL_OK, "trial %d", trial);
        } else {
            cr_assert_eq(r->verdict, NSDAE_STRUCTURAL_OK, "trial %d", trial);
            cr_assert_eq(r->value, val, "trial %d: HVT value", trial);
            long long sd = 0, sc = 0;
            for (int i = 0; i < n; i++) {
                cr_assert_geq(r->c[i], 0);
                sc += r->c[i];
                sd += r->d[i];
                for (int j = 0; j < n; j++)
                    if (t[i * n + j] != N_) cr_assert_geq(r->d[j] - r->c[i], t[i * n + j], "trial %d", trial);
                cr_assert_eq(r->d[r->transversal[i]] - r->c[i], t[i * n + r->transversal[i]]);
            }
            cr_assert_eq(sd - sc, val, "trial %d: duality", trial);
            cr_assert_eq(r->dof, val);
            cr_assert_eq(r->nselected, r->dof);
            int rows = 0;
            for (int b = 0; b < r->nblocks; b++) rows += r->blocks[b].n;
            cr_assert_eq(rows, n);
        }
        nsdae_structural_result_destroy(r);
        nsdae_sigma_destroy(s);
    }
}
