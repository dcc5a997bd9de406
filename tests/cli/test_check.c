/* nsdae check: exit codes, messages and output of the command itself. */
#include "cli_run.h"

/* Runs `nsdae check ARGS` (paths relative to the source tree) and returns its exit status. */
static int check(const char *args)
{
    return run_nsdae("check", args);
}

Test(check, text_output)
{
    cr_assert_eq(check("examples/rocca_crossing.nsm"), 0, "%s", err_text);
    HAS(out_text, "model rocca_crossing");
    HAS(out_text, "B1               = -0.5");
    HAS(out_text, "x1                       differential");
    HAS(out_text, "z                        algebraic");
    HAS(out_text, "step(x1)                 multiplier    box [0, 1]");
    HAS(out_text, "MLCS: ny = 3, nl = 2 (equality 0, complementarity 1, box 1), phases 1");
}

Test(check, verbose_prints_matrices)
{
    cr_assert_eq(check("examples/relay_two_states.nsm --verbose"), 0, "%s", err_text);
    HAS(out_text, "E (2 x 2):");
    HAS(out_text, "D (2 x 2):");
}

Test(check, json_output)
{
    cr_assert_eq(check("--json examples/clutch_exogenous.nsm --verbose"), 0, "%s", err_text);
    HAS(out_text, "{\"model\": \"clutch_exogenous\"");
    HAS(out_text, "\"sizes\": {\"ny\": 4, \"nl\": 0, \"equality\": 0, \"complementarity\": 0, \"box\": 0, \"phases\": 2}");
    HAS(out_text, "\"phases\": [{\"E\": ");
}

Test(check, param_override)
{
    cr_assert_eq(check("examples/rocca_crossing.nsm --param B1=-1 --param=B2=0.5"), 0, "%s", err_text);
    HAS(out_text, "B1               = -1  (overridden)");
    HAS(out_text, "B2               = 0.5  (overridden)");
}

Test(check, bad_flags_exit_2)
{
    cr_expect_eq(check("examples/rocca_crossing.nsm --frob"), 2);
    HAS(err_text, "unknown option '--frob'");
    cr_expect_eq(check("examples/rocca_crossing.nsm --param B1=abc"), 2);
    HAS(err_text, "--param 'B1=abc': value 'abc' is not a finite number");
    cr_expect_eq(check("examples/rocca_crossing.nsm --param Q=1"), 2);
    HAS(err_text, "--param 'Q=1': model rocca_crossing has no parameter 'Q'");
    cr_expect_eq(check("examples/rocca_crossing.nsm --param"), 2);
    HAS(err_text, "--param needs a value");
    cr_expect_eq(check(""), 2);
    HAS(err_text, "no model file given");
}

Test(check, model_errors_exit_1)
{
    cr_expect_eq(check("tests/cli/bad_syntax.nsm"), 1);
    HAS(err_text, "tests/cli/bad_syntax.nsm:5:1: expected ';' at the end of the equation, found 'end'");
    cr_expect_eq(check("tests/cli/no_such_file.nsm"), 1);
    HAS(err_text, "cannot open the model file");
}

Test(check, help)
{
    cr_expect_eq(check("--help"), 0);
    HAS(out_text, "usage: nsdae check MODEL");
}
