/* A restart system that is not finite at the left limits must give a clear error, never reach
 * LAPACK (issue 14: the fuzzed restart handed an Inf Jacobian to dgesvd, whose scaling routine
 * printed "On entry to DLASCL parameter number 4 had an illegal value").
 *
 * The model: a capacitor C (voltage v) charged from a source E through an ideal diode (voltage u,
 * current i) in series with a nonlinear resistor whose voltage is R log(1 + i):
 *     0 <= i _|_ -u >= 0,   i = C v',   u + v + R log(1 + i) = E.
 * Switching from blocking (i = 0) to conducting (u = 0) at a left limit v-, the restart system is
 *     u+ = 0,   i+ = C v'+,   v- + R log(1 + i+) = E,
 * so by hand i+ = exp((E - v-)/R) - 1 and v'+ = i+ / C. With R = 1e-3, E = 1001:
 *   - v- = 1001 - R: i+ = e - 1 (the control: the restart works, v+ = v-);
 *   - v- = 1: i+ = e^(10^6) - 1, beyond the largest double (e^709.78): no finite restart exists;
 *     Newton's iterates grow by ~10^6 per step (i <- i + (1 + i)(10^6 - log(1 + i))) until the
 *     Jacobian's entry R/(1 + i) underflows: the call fails with NSDAE_NUMERICAL saying that Newton
 *     did not converge (not D7, which is about a solution);
 *   - v- = 1001 + 800 R: 1 + i+ = e^-800, below the smallest subnormal (e^-744.4): Newton's first
 *     step (from i = 0, slope 1: i = -800) leaves log's domain; the same error. */
#include <math.h>

#include <nsdae/mode.h>

#include "impulse_helpers.h"

static const char *NONLINEAR_DIODE = "model nonlinear_diode\n"
                                     "  parameter C = 0.5; parameter R = 1e-3; parameter E = 1001;\n"
                                     "  var i; var u; var v;\n"
                                     "equation\n"
                                     "  0 <= i _|_ -u >= 0;\n"
                                     "  i = C*der(v);\n"
                                     "  u + v + R*log(1 + i) = E;\n"
                                     "end nonlinear_diode;\n";

enum { I = 0, U = 1, V = 2, N = 3, MAX_ORDER = 1 };

typedef struct blocking_to_conducting {
    nsdae_model *m;
    nsdae_switches *sw;
    nsdae_expr_pool *pool;
    nsdae_impulse_modes *store;
    nsdae_impulse_result *r;
} blocking_to_conducting;

static void setup(blocking_to_conducting *c)
{
    nsdae_error err = {0};
    c->m = parse_model(NONLINEAR_DIODE);
    cr_assert_eq(nsdae_mode_switches(c->m, &c->sw, &err), NSDAE_OK, "%s", err.message);
    int blocking[1] = {0}, conducting[1] = {1}; /* 0: i = 0, 1: -u = 0 */
    cr_assert_eq(nsdae_expr_pool_create_over(nsdae_model_pool(c->m), &c->pool, &err), NSDAE_OK, "%s", err.message);
    const nsdae_expr *guard = NULL;
    cr_assert_eq(nsdae_impulse_guard(c->m, c->sw, c->pool, blocking, conducting, &guard, &err), NSDAE_OK, "%s",
                 err.message);
    nsdae_impulse_input in;
    cr_assert_eq(nsdae_impulse_input_from_modes(c->m, c->sw, c->pool, blocking, NULL, conducting, guard, &in,
                                                &c->store, &err),
                 NSDAE_OK, "%s", err.message);
    nsdae_impulse_options opt = {-1};
    cr_assert_eq(nsdae_impulse_analyze(&in, &opt, &c->r, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(c->r->verdict, NSDAE_IMPULSE_OK, "verdict %s", nsdae_impulse_verdict_name(c->r->verdict));
    cr_assert_not_null(c->r->system);
}

static void teardown(blocking_to_conducting *c)
{
    nsdae_impulse_result_destroy(c->r);
    nsdae_impulse_modes_destroy(c->store);
    nsdae_expr_pool_destroy(c->pool);
    nsdae_mode_switches_destroy(c->sw);
    nsdae_model_destroy(c->m);
}

/* restart from v- = vleft (everything else 0: blocking has i- = 0, and u- is not a state) */
static nsdae_status restart_from(const blocking_to_conducting *c, double vleft, double *plus,
                                 nsdae_impulse_numeric *num, nsdae_error *err)
{
    double left[(MAX_ORDER + 1) * N] = {0};
    left[V] = vleft;
    return nsdae_impulse_restart(c->r, left, MAX_ORDER, plus, NULL, num, err);
}

Test(impulse_restart_nonfinite, a_reachable_restart_is_solved)
{
    blocking_to_conducting c;
    setup(&c);
    double plus[8];
    nsdae_impulse_numeric num;
    nsdae_error err = {0};
    cr_assert_eq(restart_from(&c, 1001 - 1e-3, plus, &num, &err), NSDAE_OK, "%s", err.message);
    int iv = state_index(c.r, V, 0);
    cr_assert_geq(iv, 0);
    cr_expect_float_eq(plus[iv], 1001 - 1e-3, 1e-12, "v is continuous: v+ = %.17g", plus[iv]);
    cr_expect_float_eq(num.residual, 0.0, 1e-12);
    teardown(&c);
}

static void expect_clear_error(double vleft, const char *says, const char *names)
{
    blocking_to_conducting c;
    setup(&c);
    double plus[8];
    nsdae_impulse_numeric num;
    nsdae_error err = {0};
    cr_assert_eq(restart_from(&c, vleft, plus, &num, &err), NSDAE_NUMERICAL, "v- = %g: %s", vleft, err.message);
    cr_expect_not_null(strstr(err.message, says), "%s", err.message);
    cr_expect_not_null(strstr(err.message, names), "%s", err.message);
    cr_expect_null(strstr(err.message, "D7"), "%s", err.message);
    teardown(&c);
}

Test(impulse_restart_nonfinite, a_current_beyond_the_largest_double_is_an_error)
{
    expect_clear_error(1, "did not converge", "no finite solution");
}

Test(impulse_restart_nonfinite, a_current_below_the_smallest_double_is_an_error)
{
    expect_clear_error(1001 + 800e-3, "not finite", "log(i+ + 1)");
}
