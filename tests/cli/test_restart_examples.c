/* nsdae restart on the example models of examples/restart/ (one per oracle row of digest 2.9 not
 * covered by examples/cup_and_ball.nsm and examples/clutch_exogenous.nsm). Expected numbers are the
 * papers' closed forms, not our output: at p = (0.6, -0.8), v- = (1, -1), L = 1, p.v- = 1.4:
 *   elastic law (Benveniste et al. 2026, (238)): v+ = v- - 2 (p.v-) p = (-0.68, 1.24), percussion 2.8;
 *   inelastic (49): v+ = v- - (p.v-) p = (0.16, 0.12), percussion 1.4;
 *   damped vertical law (Benveniste et al. 2021, (28), alpha = 1/2): y'+ = 0.5,
 *   percussion (2 - alpha) y'-/y- = 1.875, x'+ = x'- - 1.875 x- = -0.125;
 *   F.1 at time 1 with u = 1 + 2t + 3t^2: v1+ = -u(1) = -6, v1'+ = i+ = -u'(1) = -8 (Trenn). */
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
