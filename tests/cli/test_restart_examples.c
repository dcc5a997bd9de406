/* nsdae restart on the example models of examples/restart/ (one per oracle row of digest 2.9 not
 * covered by examples/cup_and_ball.nsm and examples/clutch_exogenous.nsm). Expected numbers are the
 * papers' closed forms, not our output: at p = (0.6, -0.8), v- = (1, -1), L = 1, p.v- = 1.4:
 *   elastic law (Benveniste et al. 2026, (238)): v+ = v- - 2 (p.v-) p = (-0.68, 1.24), percussion 2.8;
 *   inelastic (49): v+ = v- - (p.v-) p = (0.16, 0.12), percussion 1.4;
 *   damped vertical law (Benveniste et al. 2021, (28), alpha = 1/2): y'+ = 0.5,
 *   percussion (2 - alpha) y'-/y- = 1.875, x'+ = x'- - 1.875 x- = -0.125;
 *   F.1 at time 1 with u = 1 + 2t + 3t^2: v1+ = -u(1) = -6, v1'+ = i+ = -u'(1) = -8 (Trenn);
 *   D.1 (K forced to 2): no good solution, (125) fails on x'' and y'' at t*+e (D6);
 *   D.2 (exogenous) at p- = (1.2, -1.6): p+ = L p-/|p-| = (0.6, -0.8), velocities undetermined (D6);
 *   clutch J1 = 1, J2 = 3, w1- = 4, w2- = 0: nonlinear in tau is D4 (brute force: w1+ = w2+, momentum
 *   4 up to O(eps)); junction w2 = w1 + 0.1 w1^3: w1+ the root of w + 3 (w + 0.1 w^3) = 4 (bisection
 *   here); F.2 numerically singular (D7);
 *   RLDC (digest-structural O17): j1+ = -j2+ = (L1 j1- - L2 j2-)/(L1 + L2) = (2 - 1)/3 = 1/3. */
#include "cli_run.h"

#include <math.h>

#define AT "--at 'x=0.6,y=-0.8,der(x)=1,der(y)=-1'"

Test(restart_examples, elastic_law_in_a_when)
{
    cr_assert_eq(run_nsdae("restart", "examples/restart/cup_elastic_when.nsm --json " AT), 0, "%s", err_text);
    HAS(out_text, "\"status\": \"ok\"");
    HAS(out_text, "\"height\": 1");
    cr_expect_float_eq(number_after(out_text, "\"restart\"", "der(x)"), 1 - 2 * 1.4 * 0.6, 1e-12);
    cr_expect_float_eq(number_after(out_text, "\"restart\"", "der(y)"), -1 + 2 * 1.4 * 0.8, 1e-12);
    cr_expect_float_eq(number_after(out_text, "\"impulses\"", "lambda"), 2 * 1.4, 1e-12);
}

Test(restart_examples, transient_mode_without_a_law_is_d2)
{
    cr_assert_eq(run_nsdae("restart", "examples/restart/cup_elastic_no_law.nsm --json"), 0, "%s", err_text);
    HAS(out_text, "\"status\": \"underdetermined\"");
    HAS(out_text, "\"code\": \"D2\"");
}

Test(restart_examples, long_rope_mode_with_elastic_law_is_d3)
{
    cr_assert_eq(run_nsdae("restart", "examples/restart/cup_if_when_conflict.nsm --json"), 0, "%s", err_text);
    HAS(out_text, "\"status\": \"inconsistent\"");
    HAS(out_text, "\"code\": \"D3\"");
    HAS(out_text, "pre(x*der(x) + y*der(y))@t*+e");
}

Test(restart_examples, redundant_inelastic_law_is_d8_and_restarts_inelastically)
{
    cr_assert_eq(run_nsdae("restart", "examples/restart/cup_redundant_law.nsm --json --from 1 --to 0 " AT), 0, "%s",
                 err_text);
    HAS(out_text, "\"code\": \"D8\"");
    HAS(out_text, "\"status\": \"ok\"");
    cr_expect_float_eq(number_after(out_text, "\"restart\"", "der(x)"), 1 - 1.4 * 0.6, 1e-12);
    cr_expect_float_eq(number_after(out_text, "\"restart\"", "der(y)"), -1 + 1.4 * 0.8, 1e-12);
    cr_expect_float_eq(number_after(out_text, "\"impulses\"", "lambda"), 1.4, 1e-12);
}

Test(restart_examples, damped_vertical_law_alpha_one_half)
{
    cr_assert_eq(run_nsdae("restart", "examples/restart/cup_damped_vertical_law.nsm --json " AT), 0, "%s", err_text);
    HAS(out_text, "\"status\": \"ok\"");
    double alpha = 0.5, lam = (2 - alpha) * -1 / -0.8;
    cr_expect_float_eq(number_after(out_text, "\"restart\"", "der(y)"), (1 - alpha) * 1, 1e-12);
    cr_expect_float_eq(number_after(out_text, "\"restart\"", "der(x)"), 1 - lam * 0.6, 1e-12);
    cr_expect_float_eq(number_after(out_text, "\"impulses\"", "lambda"), lam, 1e-12);
}

Test(restart_examples, trenn_f1_at_time_one)
{
    cr_assert_eq(run_nsdae("restart", "examples/restart/trenn_f1.nsm --json --at "
                                      "'time=1,v1=0.5,i=0.3,der(v1)=0.3,u=6,der(u)=8,der(der(u))=6'"),
                 0, "%s", err_text);
    HAS(out_text, "\"status\": \"partial\"");
    cr_expect_float_eq(number_after(out_text, "\"restart\"", "v1"), -6, 1e-12);
    cr_expect_float_eq(number_after(out_text, "\"restart\"", "der(v1)"), -8, 1e-12);
    cr_expect_float_eq(number_after(out_text, "\"restart\"", "i"), -8, 1e-12);
}

Test(restart_examples, d1_height_two_has_no_good_solution)
{
    cr_assert_eq(run_nsdae("restart", "examples/restart/cup_d1_height_two.nsm --json --height 2"), 0, "%s", err_text);
    HAS(out_text, "\"from\": \"0\", \"to\": \"1\"");
    HAS(out_text, "\"height\": 2");
    HAS(out_text, "\"status\": \"partial\"");
    HAS(out_text, "\"code\": \"D6\"");
    HAS(out_text, "\"der(der(x))@t*+e\"");
    HAS(out_text, "\"der(der(y))@t*+e\"");
    /* the orders of Appendix D.1 */
    cr_expect_eq(number_after(out_text, "\"impulse_orders\"", "der(der(x))@t*"), 2);
    cr_expect_eq(number_after(out_text, "\"impulse_orders\"", "lambda@t*"), 2);
    cr_expect_eq(number_after(out_text, "\"impulse_orders\"", "der(der(x))@t*+e"), 2);
    cr_expect_eq(number_after(out_text, "\"impulse_orders\"", "lambda@t*+e"), 2);
    cr_expect_eq(number_after(out_text, "\"impulse_orders\"", "der(x)@t*+e"), 1);
    cr_expect_eq(number_after(out_text, "\"impulse_orders\"", "der(y)@t*+e"), 1);
    /* without --height the search stops at K = 1 with the inelastic restart */
    cr_assert_eq(run_nsdae("restart", "examples/restart/cup_d1_height_two.nsm --json --from 0 --to 1 "
                                      "--at 'x=0.6,y=-0.8,der(x)=1,der(y)=-1,der(der(y))=-9.81'"),
                 0, "%s", err_text);
    HAS(out_text, "\"height\": 1");
    cr_expect_float_eq(number_after(out_text, "\"restart\"", "der(x)"), 0.16, 1e-12);
    cr_expect_float_eq(number_after(out_text, "\"restart\"", "der(y)"), 0.12, 1e-12);
}

Test(restart_examples, d2_exogenous_projects_positions_only)
{
    cr_assert_eq(run_nsdae("restart", "examples/restart/cup_d2_exogenous.nsm --json "
                                      "--at 'time=1,x=1.2,y=-1.6,der(x)=1,der(y)=-1,der(der(y))=-9.81'"),
                 0, "%s", err_text);
    HAS(out_text, "\"status\": \"partial\"");
    HAS(out_text, "\"height\": 2");
    HAS(out_text, "\"code\": \"D6\"");
    HAS(out_text, "\"undetermined\": [\"der(x)\", \"der(y)\"]");
    cr_expect_float_eq(number_after(out_text, "\"restart\"", "x"), 1.2 / 2, 1e-12);
    cr_expect_float_eq(number_after(out_text, "\"restart\"", "y"), -1.6 / 2, 1e-12);
    HAS(out_text, "\"der(x)\": null");
}

Test(restart_examples, clutch_nonlinear_in_tau_is_d4_with_a_labelled_brute_force)
{
    cr_assert_eq(run_nsdae("restart", "examples/restart/clutch_nonlinear_tau.nsm --json --at 'time=1,w1=4,w2=0,der(w1)=-2'"),
                 0, "%s", err_text);
    HAS(out_text, "\"status\": \"not-rescalable\"");
    HAS(out_text, "\"code\": \"D4\"");
    HAS(out_text, "\"label\": \"brute force (not a structural restart)");
    double eps = number_after(out_text, "\"brute_force\"", "eps");
    double w1 = number_after(out_text, "\"brute_force\"", "w1"), w2 = number_after(out_text, "\"brute_force\"", "w2");
    cr_expect_float_eq(eps, 1e-6, 1e-20);
    cr_expect(fabs(w1 - w2) <= 1e-12, "shafts locked: %.17g %.17g", w1, w2);
    cr_expect(fabs(1 * w1 + 3 * w2 - 4) <= 10 * eps, "momentum %.17g", w1 + 3 * w2);
}

Test(restart_examples, clutch_junction_is_good_and_nonlinear)
{
    cr_assert_eq(run_nsdae("restart", "examples/restart/clutch_junction.nsm --json --at 'time=1,w1=4,w2=0,der(w1)=-2'"),
                 0, "%s", err_text);
    HAS(out_text, "\"status\": \"ok\"");
    HAS(out_text, "\"height\": 1");
    double lo = 0, hi = 4;
    for (int it = 0; it < 200; it++) {
        double w = 0.5 * (lo + hi);
        if (1 * (w - 4) + 3 * (w + 0.1 * w * w * w) > 0) hi = w;
        else lo = w;
    }
    double w1 = number_after(out_text, "\"restart\"", "w1");
    cr_expect_float_eq(w1, 0.5 * (lo + hi), 1e-12);
    cr_expect_float_eq(number_after(out_text, "\"restart\"", "w2"), w1 + 0.1 * w1 * w1 * w1, 1e-12);
}

Test(restart_examples, f2_transformed_clutch_is_numerically_singular)
{
    cr_expect_eq(run_nsdae("restart", "examples/restart/clutch_f2_singular.nsm --json --at 'time=1,w1=1,s1=1'"), 1, "%s",
                 err_text);
    HAS(out_text, "\"status\": \"numerically-singular\"");
    HAS(out_text, "D7");
}

Test(restart_examples, rldc_inductor_cut_conserves_flux)
{
    cr_assert_eq(run_nsdae("restart", "examples/restart/rldc_inductor_cut.nsm --json --from 1.0 --to 1.1 "
                                      "--at 'j1=2,j2=0.5,v1=0.3,v2=1'"),
                 0, "%s", err_text);
    HAS(out_text, "\"status\": \"ok\"");
    double jplus = (1.0 * 2 - 2.0 * 0.5) / (1.0 + 2.0);
    cr_expect_float_eq(number_after(out_text, "\"restart\"", "j1"), jplus, 1e-12);
    cr_expect_float_eq(number_after(out_text, "\"restart\"", "j2"), -jplus, 1e-12);
    cr_expect_float_eq(number_after(out_text, "\"restart\"", "v1"), 0.3, 1e-12);
    cr_expect_float_eq(number_after(out_text, "\"restart\"", "v2"), 1.0, 1e-12);
}
