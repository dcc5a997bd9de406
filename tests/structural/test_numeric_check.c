/* The numeric check (Pryce's system Jacobian; Benveniste et al. 2013, section II-D): rank and condition
 * number of the system Jacobian, and the state selection's pivots; the pendulum is the classic case. */
#include "sigma_helpers.h"

#include <math.h>

/* Pendulum (7): f1 = x'' + x lambda, f2 = y'' + y lambda - G, f3 = x^2 + y^2 - L^2; the system
 * Jacobian w.r.t. (x'', y'', lambda) with f3 differentiated twice is
 * [[1, 0, x], [0, 1, y], [2x, 2y, 0]], determinant -2 (x^2 + y^2). */
static nsdae_sigma *pendulum(void)
{
    const char *eqs[] = {"f1", "f2", "f3"}, *vars[] = {"x", "y", "lambda"};
    const int t[] = {2, N_, 0, N_, 2, 0, 0, 0, N_};
    return make_sigma(3, 3, eqs, vars, t);
}

static void pendulum_jac(double x, double y, double *jac)
{
    const double j[9] = {1, 0, 2 * x, 0, 1, 2 * y, x, y, 0}; /* column-major */
    for (int k = 0; k < 9; k++) jac[k] = j[k];
}

Test(numeric_check, pendulum_on_the_circle_is_regular)
{
    nsdae_sigma *s = pendulum();
    nsdae_structural_result *r = analyze(s);
    double jac[9];
    pendulum_jac(0.6, -0.8, jac);
    nsdae_error err = {0};
    cr_assert_eq(nsdae_structural_check_numeric(r, s, jac, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(r->numeric.rank, 3);
    cr_assert_eq(r->numeric.singular, 0);
    cr_assert(isfinite(r->numeric.cond));
    cr_assert_eq(r->numeric.static_singular, 0);
    nsdae_structural_result_destroy(r);
    nsdae_sigma_destroy(s);
}

/* Near x = 0 (hanging straight down) the structural state selection that makes x a dummy has a
 * zero pivot 2x: structurally fine but numerically singular; the point-based selection takes y as
 * the dummy and keeps x, x' as states (Benveniste et al. 2013, (13): the choice valid when y != 0). */
Test(numeric_check, pendulum_at_x_zero_selection)
{
    nsdae_sigma *s = pendulum();
    nsdae_structural_result *r = analyze(s);
    /* the structural selection dummifies x (first in order): states y, y' */
    cr_assert(has_deriv(r->dummies, r->ndummies, 0, 0) && has_deriv(r->dummies, r->ndummies, 0, 1));
    double jac[9];
    pendulum_jac(0.0, -1.0, jac);
    nsdae_error err = {0};
    cr_assert_eq(nsdae_structural_check_numeric(r, s, jac, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(r->numeric.singular, 0, "the system Jacobian itself is regular (det = -2 L^2)");
    cr_assert_eq(r->numeric.static_singular, 1);
    cr_assert_eq(r->numeric.static_level, 1);
    cr_assert_eq(r->numeric.reselected, 1);
    cr_assert_eq(r->numeric.selection_singular, 0);
    cr_assert(has_deriv(r->selected, r->nselected, 0, 0) && has_deriv(r->selected, r->nselected, 0, 1),
              "states x, x'");
    nsdae_structural_result_destroy(r);
    nsdae_sigma_destroy(s);
}

/* At x = y = 0 (an inconsistent point, e.g. unset start values) the system Jacobian has rank 2. */
Test(numeric_check, pendulum_at_origin_numerically_singular)
{
    nsdae_sigma *s = pendulum();
    nsdae_structural_result *r = analyze(s);
    cr_assert_eq(r->verdict, NSDAE_STRUCTURAL_OK);
    double jac[9];
    pendulum_jac(0.0, 0.0, jac);
    cr_assert_eq(nsdae_structural_check_numeric(r, s, jac, NULL), NSDAE_OK);
    cr_assert_eq(r->numeric.rank, 2);
    cr_assert_eq(r->numeric.singular, 1);
    cr_assert(isinf(r->numeric.cond) || r->numeric.cond > 1e12);
    nsdae_structural_result_destroy(r);
    nsdae_sigma_destroy(s);
}

static double o19_partial(int eq, int var, int order, void *ctx)
{
    (void)ctx;
    /* f1 = x' + y' - 1 (order 1), f2 = x - y (order 0) */
    if (eq == 0) return order == 1 ? 1.0 : 0.0;
    return order == 0 ? (var == 0 ? 1.0 : -1.0) : 0.0;
}

Test(numeric_check, callback_form)
{
    const char *eqs[] = {"f1", "f2"}, *vars[] = {"x", "y"};
    const int t[] = {1, 1, 0, 0};
    nsdae_sigma *s = make_sigma(2, 2, eqs, vars, t);
    nsdae_structural_result *r = analyze(s);
    nsdae_error err = {0};
    cr_assert_eq(nsdae_structural_check_numeric_cb(r, s, o19_partial, NULL, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(r->numeric.rank, 2);
    cr_assert_float_eq(r->numeric.smax, sqrt(2.0), 1e-12);
    cr_assert_float_eq(r->numeric.smin, sqrt(2.0), 1e-12);
    nsdae_structural_result_destroy(r);
    nsdae_sigma_destroy(s);
}

Test(numeric_check, rejects_non_finite)
{
    nsdae_sigma *s = pendulum();
    nsdae_structural_result *r = analyze(s);
    double jac[9];
    pendulum_jac(0.6, -0.8, jac);
    jac[6] = NAN; /* d f1 / d lambda */
    nsdae_error err = {0};
    cr_assert_eq(nsdae_structural_check_numeric(r, s, jac, &err), NSDAE_INVALID_INPUT);
    cr_assert(strstr(err.message, "f1") && strstr(err.message, "lambda"), "%s", err.message);
    nsdae_structural_result_destroy(r);
    nsdae_sigma_destroy(s);
}
