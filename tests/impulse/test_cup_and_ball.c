/* Cup-and-ball mode changes (Benveniste et al. 2026, sections 2, 9 and 9.4).
 * Test point (ours): L = 1, (x-, y-) = (0.6, -0.8) on the circle, (x'-, y'-) = (1, -1).
 * Oracles are the paper's closed forms (49), (238): inelastic v+ = v- - (p.v-/L^2) p = (0.16, 0.12) with
 * percussion p.v-/L^2 = 1.4; elastic v+ = v- - 2 (p.v-/L^2) p = (-0.68, 1.24), percussion 2.8. */
#include <math.h>

#include "impulse_helpers.h"

/* Benveniste et al. 2026, model (19) with the branches written out: e1 e2 k1 k2 k3 k4, then the elastic
 * Newton law N (its pre() part added by hand below) and the inelastic law. */
static const char *CUP =
    "model cup\n"
    "  parameter L = 1;\n"
    "  parameter g = 9.81;\n"
    "  var x; var y; var lambda; var s;\n"
    "equation\n"
    "  0 = der(der(x)) + lambda*x;\n"
    "  0 = der(der(y)) + lambda*y + g;\n"
    "  0 = L^2 - (x^2 + y^2);\n"
    "  0 = lambda + s;\n"
    "  0 = lambda;\n"
    "  0 = (L^2 - (x^2 + y^2)) - s;\n"
    "  0 = x*der(x) + y*der(y);\n"
    "end cup;\n";
/* The same without s (the form of Benveniste et al. 2026, Appendix D): new mode e1, e2, k1. */
static const char *CUP_NO_S =
    "model cup\n"
    "  parameter L = 1;\n"
    "  parameter g = 9.81;\n"
    "  var x; var y; var lambda; var s;\n"
    "equation\n"
    "  0 = der(der(x)) + lambda*x;\n"
    "  0 = der(der(y)) + lambda*y + g;\n"
    "  0 = L^2 - (x^2 + y^2);\n"
    "  0 = lambda + s;\n"
    "  0 = lambda;\n"
    "  0 = (L^2 - (x^2 + y^2)) - s;\n"
    "end cup;\n";
static const char *const LABEL[] = {"e1", "e2", "k1", "k2", "k3", "k4", "inel"};
enum { X = 0, Y = 1, LAMBDA = 2, S = 3 };

/* The cup-and-ball mode lists: free = {e1, e2, k3, k4}, taut = {e1, e2, k1, k2}, the transient
 * straight-rope mode = {e1, e2, k1, k2} (+ the law added by the test). */
static const int FREE[] = {0, 1, 4, 5, -1}, TAUT[] = {0, 1, 2, 3, -1}, ROPE[] = {0, 1, 2, 3, -1};
static const int TAUT_NO_S[] = {0, 1, 2, -1}; /* Appendix D: {e1, e2, k1} */

/* A change from the free mode; guard 1: the rope constraint's zero crossing (k1's residual). */
static void cup_setup(change *c, const char *model, const int *trans, const int *next, int guard)
{
    change_setup(c, parse_model(model), LABEL, FREE, trans, next);
    if (guard) c->in.guard = nsdae_model_equation(c->m, 2)->residual;
}

static void left_state(double *left, int nvars)
{
    /* left[order * nvars + j]; free flight: lambda = s = 0, x'' = 0, y'' = -g */
    memset(left, 0, sizeof(double) * 3 * (size_t)nvars);
    left[X] = 0.6, left[Y] = -0.8;
    left[nvars + X] = 1, left[nvars + Y] = -1;
    left[2 * nvars + Y] = -9.81;
}

static void check_restart_at(const nsdae_impulse_result *r, double vx, double vy, double percussion, int momentum)
{
    double left[12], plus[8], aux[128];
    nsdae_impulse_numeric num;
    nsdae_error err = {0};
    left_state(left, 4);
    cr_assert_lt(r->navars, 128);
    nsdae_status st = nsdae_impulse_restart(r, left, 2, plus, aux, &num, &err);
    cr_assert_eq(st, NSDAE_OK, "%s", err.message);
    cr_assert_eq(num.singular, 0);
    int ix = state_index(r, X, 0), iy = state_index(r, Y, 0), ivx = state_index(r, X, 1), ivy = state_index(r, Y, 1);
    cr_assert(ix >= 0 && iy >= 0 && ivx >= 0 && ivy >= 0);
    cr_assert(r->states[ix].continuous && r->states[iy].continuous, "positions continuous (49)");
    cr_expect_float_eq(plus[ix], 0.6, 1e-14);
    cr_expect_float_eq(plus[iy], -0.8, 1e-14);
    cr_expect_float_eq(plus[ivx], vx, 1e-12, "x'+ = %.15g", plus[ivx]);
    cr_expect_float_eq(plus[ivy], vy, 1e-12, "y'+ = %.15g", plus[ivy]);
    /* Theorem 4: angular momentum x y' - y x' is an invariant: 0.6*(-1) - (-0.8)*1 = 0.2 */
    double h_minus = 0.6 * -1.0 - (-0.8) * 1.0, h_plus = plus[ix] * plus[ivy] - plus[iy] * plus[ivx];
    if (momentum) cr_expect_float_eq(h_plus, h_minus, 1e-13);
    int il = avar_index(r, LAMBDA, 0, 0);
    cr_assert(il >= 0);
    cr_expect_float_eq(aux[il], percussion, 1e-12, "percussion e*lambda = %.15g", aux[il]);
}

static void check_restart(const nsdae_impulse_result *r, double vx, double vy, double percussion)
{
    check_restart_at(r, vx, vy, percussion, 1);
}

static void check_restart_no_momentum(const nsdae_impulse_result *r, double vx, double vy, double percussion)
{
    check_restart_at(r, vx, vy, percussion, 0);
}

Test(impulse_cup, inelastic_free_to_taut_is_k1_with_impulsive_accelerations)
{
    change c;
    cup_setup(&c, CUP, NULL, TAUT, 1); /* guard L^2 - (x^2 + y^2) (from k4, s = 0) */
    nsdae_impulse_result *r = analyze(&c, -1);
    dump(r);
    cr_assert_eq(r->verdict, NSDAE_IMPULSE_OK);
    cr_expect_eq(r->height, 1);
    cr_expect_eq(r->height_lo, 1);
    cr_expect_eq(r->height_hi, 1);
    /* (38): x'', y'', lambda of order 1 at t*; x'., y'. not impulsive; s too (derived by hand from k2: 0 =
     * lambda + s) */
    cr_expect_eq(nsdae_impulse_mu(r, X, 2, 0), 1);
    cr_expect_eq(nsdae_impulse_mu(r, Y, 2, 0), 1);
    cr_expect_eq(nsdae_impulse_mu(r, LAMBDA, 0, 0), 1);
    cr_expect_eq(nsdae_impulse_mu(r, S, 0, 0), 1);
    cr_expect_eq(nsdae_impulse_mu(r, X, 1, 1), 0);
    cr_expect_eq(nsdae_impulse_mu(r, Y, 1, 1), 0);
    check_restart(r, 0.16, 0.12, 1.4);
    nsdae_impulse_result_destroy(r);
    change_destroy(&c);
}

/* Newton's law (201): 0 = (x x' + y y') + pre(x x' + y y'), built with pre() leaves. */
static const nsdae_expr *newton_law(change *c, double restitution)
{
    nsdae_expr_pool *p = c->in.pool;
    int n = c->in.nvars;
    const nsdae_expr *now = nsdae_expr_binary(p, NSDAE_EXPR_ADD,
                                              nsdae_expr_binary(p, NSDAE_EXPR_MUL, nsdae_expr_var(p, X, 0),
                                                                nsdae_expr_var(p, X, 1)),
                                              nsdae_expr_binary(p, NSDAE_EXPR_MUL, nsdae_expr_var(p, Y, 0),
                                                                nsdae_expr_var(p, Y, 1)));
    const nsdae_expr *pre = nsdae_expr_binary(
        p, NSDAE_EXPR_ADD,
        nsdae_expr_binary(p, NSDAE_EXPR_MUL, nsdae_expr_var(p, NSDAE_IMPULSE_PRE(n, X), 0),
                          nsdae_expr_var(p, NSDAE_IMPULSE_PRE(n, X), 1)),
        nsdae_expr_binary(p, NSDAE_EXPR_MUL, nsdae_expr_var(p, NSDAE_IMPULSE_PRE(n, Y), 0),
                          nsdae_expr_var(p, NSDAE_IMPULSE_PRE(n, Y), 1)));
    const nsdae_expr *law = nsdae_expr_binary(
        p, NSDAE_EXPR_ADD, now, nsdae_expr_binary(p, NSDAE_EXPR_MUL, nsdae_expr_const(p, restitution), pre));
    cr_assert_not_null(law);
    return law;
}

static void add_transient(change *c, const nsdae_expr *e, const char *name)
{
    int n = c->in.transient.n;
    c->res[1][n] = e;
    c->names[1][n] = name;
    c->in.transient = (nsdae_impulse_eqs){n + 1, c->res[1], c->names[1]};
}

/* Benveniste et al. 2026, section 9: free -> transient (k0, k1, N) -> free, K = 1, v+ = (-0.68, 1.24),
 * e*lambda = 2.8. */
Test(impulse_cup, elastic_cascade_with_newton_law_reflects_the_radial_velocity)
{
    change c;
    cup_setup(&c, CUP, ROPE, FREE, 0);
    add_transient(&c, newton_law(&c, 1.0), "N");
    c.in.guard = nsdae_model_equation(c.m, 2)->residual;
    nsdae_impulse_result *r = analyze(&c, -1);
    dump(r);
    cr_assert_eq(r->verdict, NSDAE_IMPULSE_OK);
    cr_expect_eq(r->height, 1);
    cr_expect_eq(nsdae_impulse_mu(r, X, 2, 0), 1);
    cr_expect_eq(nsdae_impulse_mu(r, Y, 2, 0), 1);
    cr_expect_eq(nsdae_impulse_mu(r, LAMBDA, 0, 0), 1);
    cr_expect_eq(nsdae_impulse_mu(r, X, 1, 1), 0);
    check_restart(r, -0.68, 1.24, 2.8);
    /* |v|^2 = 2 before and after (fully elastic) is implied by the two oracle numbers */
    nsdae_impulse_result_destroy(r);
    change_destroy(&c);
}

/* Benveniste et al. 2026, (192): the transient mode without an impact law is under-determined: D2, y'. (or
 * x'.) unmatched. */
Test(impulse_cup, elastic_without_law_is_underdetermined)
{
    change c;
    cup_setup(&c, CUP, ROPE, FREE, 1);
    nsdae_impulse_result *r = analyze(&c, 1);
    dump(r);
    cr_assert_eq(r->verdict, NSDAE_IMPULSE_UNDERDETERMINED);
    cr_expect(has_diag(r, "D2"));
    cr_expect(diag_names(r, "D2", "der(y)@t*+e") || diag_names(r, "D2", "der(x)@t*+e"));
    cr_expect_null(r->system);
    nsdae_impulse_result_destroy(r);
    change_destroy(&c);
}

/* Benveniste et al. 2026, section 9.4, (247): `if` (long straight-rope mode) + `when` with the elastic
 * law: k1'. and N are both must-enable and conflict: D3. */
Test(impulse_cup, long_rope_mode_with_elastic_law_is_inconsistent)
{
    change c;
    cup_setup(&c, CUP, ROPE, TAUT, 0);
    add_transient(&c, newton_law(&c, 1.0), "N");
    c.in.guard = nsdae_model_equation(c.m, 2)->residual;
    nsdae_impulse_result *r = analyze(&c, -1);
    dump(r);
    cr_assert_eq(r->verdict, NSDAE_IMPULSE_INCONSISTENT);
    cr_expect(diag_names(r, "D3", "N@t*+e"));
    cr_expect(diag_names(r, "D3", "k1'@t*+e"));
    nsdae_impulse_result_destroy(r);
    change_destroy(&c);
}

/* Benveniste et al. 2026, section 9.4, (267): the inelastic law x x' + y y' = 0 with the long
 * straight-rope mode is redundant with k1'.: D8, discarded; the restart is the inelastic one. */
Test(impulse_cup, redundant_inelastic_law_is_fused)
{
    change c;
    cup_setup(&c, CUP, ROPE, TAUT, 1);
    add_transient(&c, nsdae_model_equation(c.m, 6)->residual, "inel");
    nsdae_impulse_result *r = analyze(&c, -1);
    dump(r);
    cr_assert_eq(r->verdict, NSDAE_IMPULSE_OK);
    cr_expect(diag_names(r, "D8", "inel@t*+e"));
    cr_expect_eq(r->height, 1);
    check_restart(r, 0.16, 0.12, 1.4);
    nsdae_impulse_result_destroy(r);
    change_destroy(&c);
}

/* Benveniste et al. 2021, (28): the transient law y'. + (1 - alpha) y' = 0, alpha = 1/2: y'+ = 0.5,
 * e*lambda = (2 - alpha) y'-/y- = 1.875, x'+ = x'- - e*lambda x- = -0.125. */
Test(impulse_cup, damped_vertical_law_of_seed_001)
{
    change c;
    cup_setup(&c, CUP, ROPE, FREE, 0);
    nsdae_expr_pool *p = c.in.pool;
    const nsdae_expr *law = nsdae_expr_binary(
        p, NSDAE_EXPR_ADD, nsdae_expr_var(p, Y, 1),
        nsdae_expr_binary(p, NSDAE_EXPR_MUL, nsdae_expr_const(p, 0.5), nsdae_expr_var(p, NSDAE_IMPULSE_PRE(4, Y), 1)));
    add_transient(&c, law, "tau1");
    c.in.guard = nsdae_model_equation(c.m, 2)->residual;
    nsdae_impulse_result *r = analyze(&c, -1);
    dump(r);
    cr_assert_eq(r->verdict, NSDAE_IMPULSE_OK);
    check_restart_no_momentum(r, -0.125, 0.5, 1.875);
    nsdae_impulse_result_destroy(r);
    change_destroy(&c);
}

/* Benveniste et al. 2026, Appendix D.1: the inelastic change forced to K = 2 has no good solution: mu = 2
 * on x'', y'', lambda, x''., y''., lambda., mu = 1 on x'., y'.; (125) fails on x''. and y''. */
Test(impulse_cup, too_tall_array_has_no_good_solution)
{
    change c;
    cup_setup(&c, CUP_NO_S, NULL, TAUT_NO_S, 1);
    nsdae_impulse_result *r = analyze(&c, 2);
    dump(r);
    cr_assert_neq(r->verdict, NSDAE_IMPULSE_OK);
    cr_expect_eq(nsdae_impulse_mu(r, X, 2, 0), 2);
    cr_expect_eq(nsdae_impulse_mu(r, Y, 2, 0), 2);
    cr_expect_eq(nsdae_impulse_mu(r, LAMBDA, 0, 0), 2);
    cr_expect_eq(nsdae_impulse_mu(r, X, 2, 1), 2);
    cr_expect_eq(nsdae_impulse_mu(r, Y, 2, 1), 2);
    cr_expect_eq(nsdae_impulse_mu(r, LAMBDA, 0, 1), 2);
    cr_expect_eq(nsdae_impulse_mu(r, X, 1, 1), 1);
    cr_expect_eq(nsdae_impulse_mu(r, Y, 1, 1), 1);
    cr_expect(diag_names(r, "D6", "der(der(x))@t*+e"));
    cr_expect(diag_names(r, "D6", "der(der(y))@t*+e"));
    nsdae_impulse_result_destroy(r);
    change_destroy(&c);
}

/* Benveniste et al. 2026, Appendix D.2: the exogenous change (no guard, no facts): K = 2, positions
 * projected radially p+ = L p-/|p-| (p- = (1.2, -1.6) -> (0.6, -0.8), e^2 lambda = 1 - L/|p-| = 0.5),
 * velocities undetermined (D6). */
Test(impulse_cup, exogenous_change_projects_positions_only)
{
    change c;
    cup_setup(&c, CUP_NO_S, NULL, TAUT_NO_S, 0);
    nsdae_impulse_result *r = analyze(&c, -1);
    dump(r);
    cr_assert_eq(r->verdict, NSDAE_IMPULSE_PARTIAL);
    cr_expect_eq(r->height, 2);
    cr_expect(has_diag(r, "D6"));
    int ix = state_index(r, X, 0), iy = state_index(r, Y, 0), ivx = state_index(r, X, 1), ivy = state_index(r, Y, 1);
    cr_assert(ix >= 0 && iy >= 0 && ivx >= 0 && ivy >= 0);
    cr_expect(r->states[ix].determined && r->states[iy].determined);
    cr_expect(!r->states[ivx].determined && !r->states[ivy].determined);
    double left[12] = {0}, plus[8], aux[256];
    left[X] = 1.2, left[Y] = -1.6, left[4 + X] = 1, left[4 + Y] = -1, left[8 + Y] = -9.81;
    nsdae_impulse_numeric num;
    nsdae_error err = {0};
    cr_assert_lt(r->navars, 256);
    cr_assert_eq(nsdae_impulse_restart(r, left, 2, plus, aux, &num, &err), NSDAE_OK, "%s", err.message);
    cr_expect_float_eq(plus[ix], 0.6, 1e-12);
    cr_expect_float_eq(plus[iy], -0.8, 1e-12);
    cr_expect(isnan(plus[ivx]) && isnan(plus[ivy]));
    cr_expect_float_eq(aux[avar_index(r, LAMBDA, 0, 0)], 0.5, 1e-12);
    nsdae_impulse_result_destroy(r);
    change_destroy(&c);
}

/* The brute-force array of Benveniste et al. 2021, section 2.5.3 (unscaled f1-f5 with x. = x + e x') gives
 * v+ = (0.11274, 0.08491), e*lambda = 1.47876 at e = 1e-2; (0.159527, 0.119650), 1.400789 at 1e-4;
 * (0.1599953, 0.1199965), 1.4000079 at 1e-6: O(e) convergence to the restart. */
Test(impulse_cup, brute_force_array_converges_to_the_inelastic_restart)
{
    change c;
    cup_setup(&c, CUP, NULL, TAUT, 1);
    nsdae_impulse_result *r = analyze(&c, -1);
    cr_assert_eq(r->verdict, NSDAE_IMPULSE_OK);
    cr_assert_not_null(r->brute);
    const double eps[3] = {1e-2, 1e-4, 1e-6};
    const double vx[3] = {0.11274, 0.159527, 0.1599953}, vy[3] = {0.08491, 0.119650, 0.1199965};
    const double pl[3] = {1.47876, 1.400789, 1.4000079}, tol[3] = {1e-5, 1e-6, 1e-7};
    double left[12], plus[8], aux[128];
    left_state(left, 4);
    int ivx = state_index(r, X, 1), ivy = state_index(r, Y, 1), il = avar_index(r, LAMBDA, 0, 0);
    for (int k = 0; k < 3; k++) {
        nsdae_impulse_numeric num;
        nsdae_error err = {0};
        cr_assert_eq(nsdae_impulse_brute_force(r, left, 2, eps[k], plus, aux, &num, &err), NSDAE_OK, "%s",
                     err.message);
        cr_expect(fabs(plus[ivx] - vx[k]) <= tol[k], "eps %g: x'+ = %.9f", eps[k], plus[ivx]);
        cr_expect(fabs(plus[ivy] - vy[k]) <= tol[k], "eps %g: y'+ = %.9f", eps[k], plus[ivy]);
        cr_expect(fabs(aux[il] - pl[k]) <= tol[k] * 10, "eps %g: e*lambda = %.9f", eps[k], aux[il]);
    }
    nsdae_impulse_result_destroy(r);
    change_destroy(&c);
}

/* H14 and digest 1.4 Step D [IMPL] item 3: the facts assumed by the analysis are the guard's root
 * fact (k1 = L^2 - (x^2 + y^2) at t* and t*+e); at a left state on the circle it holds (|g| = 0),
 * off the circle (x = 0.9, y = -0.8: |p|^2 = 0.81 + 0.64 = 1.45, g = 1 - 1.45 = -0.45) the restart is
 * refused, naming k1 and the residual 0.45. */
Test(impulse_cup, fact_residual_is_the_guard_at_the_left_limits)
{
    change c;
    cup_setup(&c, CUP, NULL, TAUT, 1);
    nsdae_impulse_result *r = analyze(&c, -1);
    double left[12], plus[8];
    nsdae_impulse_numeric num;
    nsdae_error err = {0};
    left_state(left, 4);
    cr_assert_eq(nsdae_impulse_restart(r, left, 2, plus, NULL, &num, NULL), NSDAE_OK);
    cr_expect_leq(num.fact_residual, 1e-15);
    cr_expect_eq(num.fact_violated, 0);
    left[X] = 0.9;
    cr_assert_eq(nsdae_impulse_restart(r, left, 2, plus, NULL, &num, &err), NSDAE_INVALID_INPUT);
    cr_expect_float_eq(num.fact_residual, 0.45, 1e-14);
    cr_expect_eq(num.fact_violated, 1);
    cr_expect(strstr(err.message, "k1@t*") != NULL, "%s", err.message);
    cr_expect(strstr(err.message, "0.45") != NULL, "%s", err.message);
    cr_expect(isnan(plus[state_index(r, X, 1)]), "nothing solved");
    nsdae_impulse_result_destroy(r);
    change_destroy(&c);
}

/* D1: a new mode that fails the Sigma-method (lambda = 0 twice, s never determined). */
Test(impulse_cup, structurally_singular_new_mode_is_d1)
{
    change c;
    const int prev[] = {0, 1, 4, 5, -1}, next[] = {0, 1, 2, 4, -1};
    change_setup(&c, parse_model(CUP), LABEL, prev, NULL, next);
    nsdae_impulse_result *r = analyze(&c, -1);
    cr_expect_eq(r->verdict, NSDAE_IMPULSE_SINGULAR_MODE);
    cr_expect(has_diag(r, "D1"));
    cr_expect_null(r->system);
    cr_expect_eq(nsdae_impulse_restart(r, (double[12]){0}, 2, NULL, NULL, NULL, NULL), NSDAE_INVALID_INPUT);
    nsdae_impulse_result_destroy(r);
    change_destroy(&c);
}

Test(impulse_cup, bad_input_is_an_error_naming_the_cause)
{
    nsdae_impulse_input in = {0};
    nsdae_impulse_result *r = (nsdae_impulse_result *)1;
    nsdae_error err = {0};
    cr_expect_eq(nsdae_impulse_analyze(&in, NULL, &r, &err), NSDAE_INVALID_INPUT);
    cr_expect_null(r);
    cr_expect(strstr(err.message, "pool") != NULL, "%s", err.message);
}

/* Appendix D's change free -> taut with the guard x x' + y y' (on the gap's rate), in the model's pool. */
static void gap_rate_setup(change *c)
{
    cup_setup(c, CUP_NO_S, NULL, TAUT_NO_S, 0);
    nsdae_expr_pool *p = c->in.pool;
    c->in.guard = nsdae_expr_binary(p, NSDAE_EXPR_ADD,
                                    nsdae_expr_binary(p, NSDAE_EXPR_MUL, nsdae_expr_var(p, X, 0), nsdae_expr_var(p, X, 1)),
                                    nsdae_expr_binary(p, NSDAE_EXPR_MUL, nsdae_expr_var(p, Y, 0), nsdae_expr_var(p, Y, 1)));
}

/* Benveniste et al. 2026, Appendix D.3: the guard on s' (s' = -2 (x x' + y y') in the free mode) makes k1'
 * at t* the fact (ell = 0) and k1 a conflict: the analysis and conclusion are those of D.2 (K = 2,
 * positions projected, velocities undetermined). Left state tangent: x x' + y y' = 0. */
Test(impulse_cup, guard_on_the_gap_rate_behaves_as_the_exogenous_change)
{
    change c;
    gap_rate_setup(&c);
    nsdae_impulse_result *r = analyze(&c, -1);
    dump(r);
    cr_assert_eq(r->verdict, NSDAE_IMPULSE_PARTIAL);
    cr_expect_eq(r->height, 2);
    int ix = state_index(r, X, 0), iy = state_index(r, Y, 0), ivx = state_index(r, X, 1), ivy = state_index(r, Y, 1);
    cr_expect(r->states[ix].determined && r->states[iy].determined);
    cr_expect(!r->states[ivx].determined && !r->states[ivy].determined);
    double left[12] = {0}, plus[8], aux[256];
    left[X] = 1.2, left[Y] = -1.6, left[4 + X] = 1.6, left[4 + Y] = 1.2, left[8 + Y] = -9.81;
    nsdae_impulse_numeric num;
    nsdae_error err = {0};
    cr_assert_lt(r->navars, 256);
    cr_assert_eq(nsdae_impulse_restart(r, left, 2, plus, aux, &num, &err), NSDAE_OK, "%s", err.message);
    cr_expect_float_eq(plus[ix], 0.6, 1e-12);
    cr_expect_float_eq(plus[iy], -0.8, 1e-12);
    cr_expect_leq(num.fact_residual, 1e-15);
    nsdae_impulse_result_destroy(r);
    change_destroy(&c);
}

/* The same check on a velocity fact: with the guard on the gap rate (Appendix D.3) the fact is
 * k1' = d/dt (L^2 - x^2 - y^2) = -2 p.v; at p = (1.2, -1.6), v = (1, -1), p.v = 1.2 + 1.6 = 2.8 (by
 * hand), so k1' = -5.6: refused, naming k1'. */
Test(impulse_cup, velocity_fact_violated_at_the_left_limits_is_refused)
{
    change c;
    gap_rate_setup(&c);
    nsdae_impulse_result *r = analyze(&c, -1);
    cr_assert_eq(r->verdict, NSDAE_IMPULSE_PARTIAL);
    double left[12] = {0}, plus[8];
    left[X] = 1.2, left[Y] = -1.6, left[4 + X] = 1, left[4 + Y] = -1, left[8 + Y] = -9.81;
    nsdae_impulse_numeric num;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_impulse_restart(r, left, 2, plus, NULL, &num, &err), NSDAE_INVALID_INPUT);
    cr_expect_eq(num.fact_violated, 1);
    cr_expect_float_eq(num.fact_residual, 5.6, 1e-14);
    cr_expect(strstr(err.message, "k1'@t*") != NULL, "%s", err.message);
    cr_expect(strstr(err.message, "5.6") != NULL, "%s", err.message);
    nsdae_impulse_result_destroy(r);
    change_destroy(&c);
}
