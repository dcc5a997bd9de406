/* An ideal diode switching off in a source + diode + RC circuit (the half-wave rectifier of
 * examples/half_wave_rectifier.nsm): vs(t) = Vm sin(2 pi f t) = vD + vC, C vC' = iD - vC/R,
 * 0 <= -vD _|_ iD >= 0.
 *
 * Derivation by hand. Conducting (vD = 0): vC = vs, so the Sigma-method differentiates vs = vD + vC
 * and -vD = 0 once; vC and vD both have offset 1 there, and their values at t* are fixed by the
 * conducting mode (past): vC(t*) = vC-, vD(t*) = vD- = 0. Blocking (iD = 0): vC is the only state,
 * vD = vs - vC is algebraic. Nothing forces a jump: iD goes to 0 continuously (the guard), and the
 * blocking mode's equations at t*,
 *     C vC' = iD - vC/R,   iD = 0,   vs(t*) = vD + vC,
 * are solved by vC+ = vC-, iD+ = 0, vC'+ = -vC-/(R C), with vs(t*) = vD + vC holding because the
 * conducting mode had it at the same left limits. So the change is a hot restart with height 0,
 * no impulse, and the restart equals the left limit. The third equation is common to both modes
 * and has only past variables: it is entailed, not violated (it was once reported as D3). */
#include <math.h>

#include <nsdae/mode.h>

#include "impulse_helpers.h"

static const char *RECTIFIER = "model rect\n"
                               "  parameter Vm = 10; parameter f = 50; parameter C = 1e-4; parameter R = 1e3;\n"
                               "  parameter pi = 3.141592653589793;\n"
                               "  var vC; var iD; var vD;\n"
                               "equation\n"
                               "  C*der(vC) = iD - vC/R;\n"
                               "  Vm*sin(2*pi*f*time) = vD + vC;\n"
                               "  0 <= -vD _|_ iD >= 0;\n"
                               "end rect;\n";

Test(impulse_diode_off, conducting_to_blocking_restarts_at_the_left_limit)
{
    enum { VC = 0, ID = 1, VD = 2, N = 3 };
    nsdae_error err = {0};
    nsdae_model *m = parse_model(RECTIFIER);
    nsdae_switches *sw = NULL;
    cr_assert_eq(nsdae_mode_switches(m, &sw, &err), NSDAE_OK, "%s", err.message);
    int conducting[1] = {0}, blocking[1] = {1}; /* 0: -vD = 0, 1: iD = 0 */
    nsdae_expr_pool *pool = NULL;
    cr_assert_eq(nsdae_expr_pool_create_over(nsdae_model_pool(m), &pool, &err), NSDAE_OK, "%s", err.message);
    const nsdae_expr *guard = NULL;
    cr_assert_eq(nsdae_impulse_guard(m, sw, pool, conducting, blocking, &guard, &err), NSDAE_OK, "%s", err.message);
    cr_expect_eq(guard, nsdae_model_equation(m, 2)->b, "the diode current crosses zero");
    nsdae_impulse_input in;
    nsdae_impulse_modes *store = NULL;
    cr_assert_eq(nsdae_impulse_input_from_modes(m, sw, pool, conducting, NULL, blocking, guard, &in, &store, &err),
                 NSDAE_OK, "%s", err.message);
    nsdae_impulse_result *r = NULL;
    nsdae_impulse_options opt = {-1};
    cr_assert_eq(nsdae_impulse_analyze(&in, &opt, &r, &err), NSDAE_OK, "%s", err.message);
    dump(r);
    cr_assert_eq(r->verdict, NSDAE_IMPULSE_OK, "verdict %s", nsdae_impulse_verdict_name(r->verdict));
    cr_expect_eq(r->ndiags, 0);
    cr_expect_eq(r->height, 0);
    cr_expect_eq(nsdae_impulse_mu(r, ID, 0, 0), 0, "no impulsive current");
    cr_expect_eq(nsdae_impulse_mu(r, VC, 1, 0), 0);
    int ivc = state_index(r, VC, 0);
    cr_assert_geq(ivc, 0);
    cr_expect_eq(r->nstates, 1, "vC is the blocking mode's only state");
    cr_expect(r->states[ivc].determined && r->states[ivc].continuous);
    /* left limits of the conducting mode, vC- = 8 (a peak's decay), vD- = 0, at the t* where the loop
     * equation (a fact: the conducting mode entailed it) holds: vs(t*) = 10 sin(100 pi t*) = 8 */
    double left[2 * N] = {0}, plus[4], tstar = asin(0.8) / (2 * 3.141592653589793 * 50);
    left[VC] = 8, left[N + VC] = -8 / (1e3 * 1e-4);
    nsdae_impulse_numeric num;
    cr_assert_eq(nsdae_impulse_restart_at(r, left, 1, tstar, plus, NULL, &num, &err), NSDAE_OK, "%s", err.message);
    cr_expect_float_eq(plus[ivc], 8.0, 1e-14, "vC+ = %.17g", plus[ivc]);
    nsdae_impulse_result_destroy(r);
    nsdae_impulse_modes_destroy(store);
    nsdae_expr_pool_destroy(pool);
    nsdae_mode_switches_destroy(sw);
    nsdae_model_destroy(m);
}

/* Control: a past-only equation the previous mode did NOT have is still violated. Conducting
 * (dyn, loop, -vD = 0) -> a mode (dyn, iD = 0, vD + 2 vC = 0): vD and vC are past at t* (vD- = 0,
 * vC- free), and vD + 2 vC = 0 is new, so it is violated for vC- != 0: D3 on that equation. The
 * fix removes only equations the previous mode entailed. */
Test(impulse_diode_off, a_new_past_only_equation_is_still_inconsistent)
{
    const char *const label[] = {"dyn", "loop", "on", "off", "twice"};
    nsdae_model *m = parse_model("model twice\n"
                                 "  parameter C = 1e-4; parameter R = 1e3;\n"
                                 "  var vC; var iD; var vD;\n"
                                 "equation\n"
                                 "  C*der(vC) = iD - vC/R;\n"
                                 "  0 = vD + vC;\n"
                                 "  0 = -vD;\n"
                                 "  0 = iD;\n"
                                 "  0 = vD + 2*vC;\n"
                                 "end twice;\n");
    change c;
    const int prev[] = {0, 1, 2, -1}, next[] = {0, 3, 4, -1};
    change_setup(&c, m, label, prev, NULL, next);
    nsdae_impulse_result *r = analyze(&c, -1);
    dump(r);
    cr_expect_eq(r->verdict, NSDAE_IMPULSE_INCONSISTENT, "verdict %s", nsdae_impulse_verdict_name(r->verdict));
    cr_expect(diag_names(r, "D3", "twice@t*"));
    nsdae_impulse_result_destroy(r);
    change_destroy(&c);
}

/* A constraint shared by all three modes of a cascade (the ~-equivalent copies of its derivatives
 * are enabled once, see must_enable). Two beads of mass m on a floor: bead 1 rests on it (contact 1
 * closed throughout), bead 2 falls on bead 1 with Newton's law of restitution e. By hand: bead 1
 * cannot move (z1' = 0 before and after), so the law z2'+ - z1'+ = -e (z2'- - z1'-) gives
 * z2'+ = -e z2'-; with z2'- = -2, e = 0.9: z2'+ = 1.8, and the percussion on bead 2 is
 * m (z2'+ - z2'-) = 3.8, transmitted unchanged to the floor (bead 1's momentum does not change). */
Test(impulse_diode_off, impact_on_a_resting_bead_keeps_the_resting_contact)
{
    enum { Z1 = 0, Z2 = 1, L1 = 2, L2 = 3, N = 4 };
    nsdae_error err = {0};
    nsdae_model *m = parse_model("model beads\n"
                                 "  parameter r = 0.1; parameter m = 1; parameter g = 9.81; parameter e = 0.9;\n"
                                 "  var z1; var z2; var l1; var l2;\n"
                                 "equation\n"
                                 "  m*der(der(z1)) = -m*g + l1 - l2;\n"
                                 "  m*der(der(z2)) = -m*g + l2;\n"
                                 "  0 <= z1 - r _|_ l1 >= 0 restitution e;\n"
                                 "  0 <= z2 - z1 - 2*r _|_ l2 >= 0 restitution e;\n"
                                 "end beads;\n");
    nsdae_switches *sw = NULL;
    cr_assert_eq(nsdae_mode_switches(m, &sw, &err), NSDAE_OK, "%s", err.message);
    int apart[2] = {0, 1}, touching[2] = {0, 0}; /* 0: gap = 0, 1: multiplier = 0 */
    nsdae_expr_pool *pool = NULL;
    cr_assert_eq(nsdae_expr_pool_create_over(nsdae_model_pool(m), &pool, &err), NSDAE_OK, "%s", err.message);
    const nsdae_expr *guard = NULL, *law = NULL;
    cr_assert_eq(nsdae_impulse_guard(m, sw, pool, apart, touching, &guard, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(nsdae_impulse_newton_law(m, sw, pool, 1, &law, &err), NSDAE_OK, "%s", err.message);
    nsdae_impulse_input in;
    nsdae_impulse_modes *store = NULL;
    cr_assert_eq(nsdae_impulse_input_from_modes(m, sw, pool, apart, touching, apart, guard, &in, &store, &err), NSDAE_OK,
                 "%s", err.message);
    cr_assert_eq(nsdae_impulse_modes_add_transient(store, &in, law, "newton", &err), NSDAE_OK, "%s", err.message);
    nsdae_impulse_result *r = NULL;
    nsdae_impulse_options opt = {-1};
    cr_assert_eq(nsdae_impulse_analyze(&in, &opt, &r, &err), NSDAE_OK, "%s", err.message);
    dump(r);
    cr_assert_eq(r->verdict, NSDAE_IMPULSE_OK, "verdict %s", nsdae_impulse_verdict_name(r->verdict));
    double left[3 * N] = {0}, plus[8], aux[128];
    left[Z1] = 0.1, left[Z2] = 0.3, left[N + Z2] = -2, left[2 * N + Z2] = -9.81;
    nsdae_impulse_numeric num;
    cr_assert_lt(r->navars, 128);
    cr_assert_eq(nsdae_impulse_restart(r, left, 2, plus, aux, &num, &err), NSDAE_OK, "%s", err.message);
    int iv1 = state_index(r, Z1, 1), iv2 = state_index(r, Z2, 1), ip2 = avar_index(r, L2, 0, 0);
    int ip1 = avar_index(r, L1, 0, 0);
    cr_assert(iv1 >= 0 && iv2 >= 0 && ip1 >= 0 && ip2 >= 0);
    cr_expect_float_eq(plus[iv1], 0.0, 1e-14, "z1'+ = %.17g", plus[iv1]);
    cr_expect_float_eq(plus[iv2], 1.8, 1e-13, "z2'+ = %.17g", plus[iv2]);
    cr_expect_float_eq(aux[ip2], 3.8, 1e-13, "bead-bead percussion %.17g", aux[ip2]);
    cr_expect_float_eq(aux[ip1], 3.8, 1e-13, "floor percussion %.17g", aux[ip1]);
    nsdae_impulse_result_destroy(r);
    nsdae_impulse_modes_destroy(store);
    nsdae_expr_pool_destroy(pool);
    nsdae_mode_switches_destroy(sw);
    nsdae_model_destroy(m);
}
