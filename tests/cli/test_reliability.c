/* Issue 14: bad or unusual input ends as the right answer or a clear error naming its cause,
 * never as a silent wrong answer. */
#include "cli_run.h"

#include <math.h>
#include <unistd.h>

/* The last value of the column `col` (0-based) in the CSV of the last run. */
static double last_value(int col)
{
    char *end = out_text + strlen(out_text);
    while (end > out_text && end[-1] == '\n') end--;
    char *row = end;
    while (row > out_text && row[-1] != '\n') row--;
    for (int c = 0; c < col && row; c++) row = strchr(row, ',') ? strchr(row, ',') + 1 : NULL;
    cr_assert_not_null(row, "no column %d in:\n%s", col, out_text);
    return strtod(row, NULL);
}

Test(reliability, a_constant_guard_selects_its_branch)
{
    /* implicit Euler, h = 0.1, 10 steps: x' = -x gives (1/1.1)^10, x' = x gives (1/0.9)^10 */
    cr_assert_eq(run_nsdae("simulate", "tests/cli/models/const_guard_true.nsm"), 0, "%s", err_text);
    cr_expect(fabs(last_value(1) - pow(1 / 1.1, 10)) < 1e-12, "x(1) = %.17g", last_value(1));
    cr_assert_eq(run_nsdae("simulate", "tests/cli/models/const_guard_false.nsm"), 0, "%s", err_text);
    cr_expect(fabs(last_value(1) - pow(1 / 0.9, 10)) < 1e-12, "x(1) = %.17g", last_value(1));
    cr_assert_eq(run_nsdae("check", "tests/cli/models/const_guard_true.nsm"), 0, "%s", err_text);
    HAS(out_text, "phases 1");
}
