/* nsdae simulate with the minimal-norm scheme warns, once per kind of mode change, when a step crosses
 * a change the restart analysis calls partial or underdetermined (issue 10). Oracles from outside the
 * watch: the verdict is `nsdae restart --from --to`'s, and the time is the first row of the written
 * trajectory where the stepper sits on r1's sliding surface (x = 0, r1 strictly inside [-1, 1]). */
#include "cli_run.h"

#define TWIST "tests/cli/models/twisting.nsm"

static int count(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, what)) != NULL; p += strlen(what)) n++;
    return n;
}

/* t of the first CSV row (t,x,v,r1,r2,...) with x = 0 and |r1| < 1 after a row with r1 = -1. */
static double first_sliding_row(const char *csv)
{
    const char *p = strchr(csv, '\n');
    double prev_r1 = 0;
    while (p && *++p) {
        double t, x, v, r1;
        if (sscanf(p, "%lf,%lf,%lf,%lf", &t, &x, &v, &r1) == 4 && x == 0 && fabs(r1) < 1 && prev_r1 == -1) return t;
        if (sscanf(p, "%lf,%lf,%lf,%lf", &t, &x, &v, &r1) == 4) prev_r1 = r1;
        p = strchr(p, '\n');
    }
    return NAN;
}

Test(simulate_mode_watch, minnorm_warns_once_about_a_partial_change)
{
    cr_assert_eq(run_nsdae("restart", TWIST " --json"), 0, "%s", err_text);
    const char *pair = strstr(out_text, "\"from\": \"2.1\", \"to\": \"0.1\"");
    cr_assert_not_null(pair);
    cr_assert_not_null(strstr(pair, "\"status\": \"partial\""), "the analysis' verdict");
    cr_assert_eq(run_nsdae("simulate", TWIST), 0, "%s", err_text);
    double t = first_sliding_row(out_text);
    cr_assert(!isnan(t), "the run enters r1's sliding surface:\n%s", out_text);
    cr_expect_eq(count(err_text, "mode change 2.1 -> 0.1, which the restart analysis calls partial"), 1, "%s",
                 err_text);
    char at[64];
    snprintf(at, sizeof at, "warning: t = %.10g: ", t);
    HAS(err_text, at);
    HAS(err_text, "its pick there is a regularisation, not physics");
    HAS(err_text, "nsdae restart " TWIST " --from 2.1 --to 0.1");
}

Test(simulate_mode_watch, no_warning_for_other_schemes_or_good_changes)
{
    cr_assert_eq(run_nsdae("simulate", TWIST " --scheme euler --out /dev/null"), 0, "%s", err_text);
    cr_expect_null(strstr(err_text, "warning"), "%s", err_text);
    /* the clutch's engagement is ok (momentum conservation): nothing to say */
    cr_assert_eq(run_nsdae("simulate", "examples/clutch_exogenous.nsm --out /dev/null"), 0, "%s", err_text);
    cr_expect_null(strstr(err_text, "warning"), "%s", err_text);
    cr_expect_null(strstr(err_text, "note"), "%s", err_text);
}
