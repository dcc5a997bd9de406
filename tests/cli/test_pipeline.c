/* The command line every command shares: --opt=VALUE and --opt VALUE, `--`, exit status 2 for a
 * bad command line, `nsdae help COMMAND`, --example and --param everywhere, write errors and an
 * orderly stop on SIGTERM. */
#include "cli_run.h"

/* Runs `nsdae ARGS` in the build directory with stdout into stdout_path and stderr captured;
 * returns the exit status. */
static int nsdae_to(const char *args, const char *stdout_path)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "cd '%s' && OPENBLAS_NUM_THREADS=1 ./nsdae %s >%s 2>pipeline.err", NSDAE_BINARY_DIR,
             args, stdout_path);
    return collect_run(system(cmd), "pipeline");
}

static int nsdae(const char *args)
{
    return nsdae_to(args, "pipeline.out");
}

#define EX NSDAE_SOURCE_DIR "/examples/"

/* stdout of `nsdae ARGS`, which must succeed, into a fresh buffer */
static char *output_of(const char *args)
{
    cr_assert_eq(nsdae(args), 0, "%s: %s", args, err_text);
    char *copy = strdup(out_text);
    cr_assert_not_null(copy);
    return copy;
}

Test(pipeline, value_after_equals_or_as_next_argument)
{
    char *a = output_of("simulate --example rocca-crossing --steps=100");
    char *b = output_of("simulate --example rocca-crossing --steps 100");
    char *c = output_of("simulate --steps 100 --example=rocca-crossing");
    cr_expect_str_eq(a, b);
    cr_expect_str_eq(a, c, "options before or after one another");
    /* header + initial state + 100 steps */
    int rows = 0;
    for (char *p = a; (p = strchr(p, '\n')); p++) rows++;
    cr_expect_eq(rows, 102);
    free(a); free(b); free(c);
}

Test(pipeline, double_dash_ends_the_options)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cp '%s/examples/rocca_crossing.nsm' '%s/-dash.nsm'", NSDAE_SOURCE_DIR, NSDAE_BINARY_DIR);
    cr_assert_eq(system(cmd), 0);
    cr_expect_eq(nsdae("simulate --steps 5 -- -dash.nsm"), 0, "%s", err_text);
    HAS(out_text, "t,x1,x2,z,");
    HAS(err_text, "5 steps");
    cr_expect_eq(nsdae("check -- -dash.nsm"), 0, "%s", err_text);
    HAS(out_text, "model rocca_crossing");
    /* without --, the file name is read as options */
    cr_expect_eq(nsdae("simulate --steps 5 -dash.nsm"), 2);
    HAS(err_text, "unknown option");
    /* after --, an option-looking word is an operand: here a second model */
    cr_expect_eq(nsdae("simulate --example rocca-crossing -- -dash.nsm --steps"), 2);
    HAS(err_text, "one model only");
}

Test(pipeline, bad_command_lines_exit_2_everywhere)
{
    struct { const char *args, *expect; } cases[] = {
        {"simulate", "no model file given"},
        {"converge --steps 10,20", "no model file given"},
        {"check", "no model file given"},
        {"analyze", "no model file given"},
        {"simulate --example rocca-crossing --frob", "unknown option '--frob'"},
        {"converge --example rocca-crossing --steps 10,20 --frob=1", "unknown option '--frob'"},
        {"check --example rocca-crossing --frob", "unknown option '--frob'"},
        {"analyze " EX "rocca_crossing.nsm --frob", "unknown option '--frob'"},
        {"simulate --example rocca-crossing --steps=abc", "--steps 'abc': not a whole number"},
        {"simulate --example rocca-crossing --theta=2", "--theta '2': theta must be in [0.5, 1]"},
        {"simulate --example rocca-crossing --every=0", "--every '0'"},
        {"simulate --example rocca-crossing --scheme=rk4", "--scheme 'rk4'"},
        {"simulate --example rocca-crossing --select-all=1", "--select-all takes no value"},
        {"simulate --example nowhere", "--example 'nowhere': unknown example"},
        {"simulate " EX "rocca_crossing.nsm --example rocca-crossing", "not both"},
        {"check --example rocca-crossing --param B1", "--param 'B1': expected NAME=VALUE"},
        {"analyze " EX "rocca_crossing.nsm --param B1=1,B2", "--param 'B1=1,B2': expected NAME=VALUE"},
        {"converge --example relay-decay --steps 10,20 --param a=x", "--param 'a=x': value 'x' is not a finite"},
        {"help frobnicate", "unknown command 'frobnicate'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        cr_expect_eq(nsdae(cases[i].args), 2, "%s: %s", cases[i].args, err_text);
        cr_expect(strstr(err_text, cases[i].expect) != NULL, "%s: missing '%s' in '%s'", cases[i].args,
                  cases[i].expect, err_text);
    }
}

Test(pipeline, help_command_is_the_command_help)
{
    const char *commands[] = {"simulate", "converge", "check", "analyze"};
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
        char args[64];
        snprintf(args, sizeof args, "%s --help", commands[i]);
        char *own = output_of(args);
        snprintf(args, sizeof args, "help %s", commands[i]);
        char *via_help = output_of(args);
        cr_expect_str_eq(via_help, own, "%s", commands[i]);
        HAS(own, "usage: nsdae ");
        free(own);
        free(via_help);
    }
    cr_expect_eq(nsdae("help"), 0);
    HAS(out_text, "commands:");
}

Test(pipeline, write_errors_are_reported)
{
    cr_expect_eq(nsdae("simulate --example rocca-crossing --steps 10 --out /dev/full"), 1);
    HAS(err_text, "writing /dev/full failed");
    HAS(err_text, "No space left on device");
    cr_expect(strstr(err_text, "10 steps of h") == NULL, "no success summary: %s", err_text);
    cr_expect_eq(nsdae("simulate --example bouncing-ball --scheme moreau --steps 10 --out /dev/full"), 1);
    HAS(err_text, "writing /dev/full failed");
    /* the reports of the other commands go to standard output, which is checked too */
    cr_expect_eq(nsdae_to("check " EX "rocca_crossing.nsm", "/dev/full"), 1);
    HAS(err_text, "writing standard output failed");
    cr_expect_eq(nsdae_to("analyze " EX "rocca_crossing.nsm", "/dev/full"), 1);
    HAS(err_text, "writing standard output failed");
    cr_expect_eq(nsdae_to("converge --example relay-decay --steps 10,20", "/dev/full"), 1);
    HAS(err_text, "writing standard output failed");
    cr_expect_eq(nsdae_to("simulate --example relay-decay --steps 10", "/dev/full"), 1);
    HAS(err_text, "writing standard output failed");
}

Test(pipeline, check_and_analyze_take_examples)
{
    /* Rocca, Acary, Brogliato's example (16)-(17): y = (x1, x2, z), three complementarity rows */
    cr_expect_eq(nsdae("check --example rocca-crossing"), 0, "%s", err_text);
    HAS(out_text, "MLCS: ny = 3, nl = 3 (equality 0, complementarity 3, box 0), phases 1");
    HAS(out_text, "x1                       differential");
    HAS(out_text, "z                        algebraic");
    /* the ball on a rope: q = (x, y), one contact (the rope) */
    cr_expect_eq(nsdae("check --example=cup-and-ball --json"), 0, "%s", err_text);
    HAS(out_text, "\"contact\": {\"ndof\": 2, \"ncontacts\": 1}");
    cr_expect_eq(nsdae("check --example rocca-crossing --param nope=1"), 2);
    HAS(err_text, "no parameter 'nope'");
    /* a built-in has no equations: analyze takes its twin model file and says so */
    cr_expect_eq(nsdae("analyze --example rocca-crossing"), 0, "%s", err_text);
    HAS(err_text, "twin model file examples/rocca_crossing.nsm");
    cr_expect_eq(nsdae("analyze --example nowhere"), 2);
    HAS(err_text, "unknown example");
}

Test(pipeline, one_param_syntax_for_every_command)
{
    cr_expect_eq(nsdae("check " EX "rocca_crossing.nsm --param B1=-1,B2=0.5"), 0, "%s", err_text);
    HAS(out_text, "B1               = -1  (overridden)");
    HAS(out_text, "B2               = 0.5  (overridden)");
    char *a = output_of("simulate --example rocca-crossing --steps 20 --param B1=-1,B2=0.5");
    char *b = output_of("simulate --example rocca-crossing --steps 20 --param=B1=-1 --param B2=0.5");
    char *c = output_of("simulate --example rocca-crossing --steps 20");
    cr_expect_str_eq(a, b);
    cr_expect_str_neq(a, c, "the overrides change the run");
    free(a); free(b); free(c);
    cr_expect_eq(nsdae("analyze " EX "rocca_crossing.nsm --param B1=-1,B2=0.5"), 0, "%s", err_text);
    cr_expect_eq(nsdae("converge --example relay-decay --steps 10,20 --param=x1_0=3"), 0, "%s", err_text);
    cr_expect_eq(nsdae("check " EX "rocca_crossing.nsm --param B1=-1,Q=1"), 2);
    HAS(err_text, "--param 'B1=-1,Q=1': model rocca_crossing has no parameter 'Q'");
}

Test(pipeline, sigterm_ends_the_csv_with_a_whole_row)
{
    /* a run far longer than the test: stopped by SIGTERM once its CSV has reached the disk */
    char cmd[4096], path[1024];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && rm -f sig.csv && "
             "(OPENBLAS_NUM_THREADS=1 ./nsdae simulate --example relay-decay --steps 1000000000 --out sig.csv "
             "2>sig.err & pid=$!; "
             "while kill -0 $pid 2>/dev/null && [ \"$(cat sig.csv 2>/dev/null | wc -c)\" -lt 200000 ]; "
             "do sleep 0.05; done; kill -TERM $pid; wait $pid; echo $? >sig.rc)",
             NSDAE_BINARY_DIR);
    cr_assert_eq(system(cmd), 0);
    snprintf(path, sizeof path, "%s/sig.rc", NSDAE_BINARY_DIR);
    slurp(path, out_text, sizeof out_text);
    cr_expect_eq(atoi(out_text), 128 + 15, "exit status %s", out_text);
    snprintf(path, sizeof path, "%s/sig.err", NSDAE_BINARY_DIR);
    slurp(path, err_text, sizeof err_text);
    HAS(err_text, "stopped by SIGTERM; the output ends with the row of step ");
    /* every line has the header's number of fields and the file ends with a newline */
    snprintf(path, sizeof path, "%s/sig.csv", NSDAE_BINARY_DIR);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    static char line[4096];
    int fields = -1, lines = 0, ends_whole = 1;
    while (fgets(line, sizeof line, f)) {
        int n = 1;
        for (char *p = line; *p; p++) n += *p == ',';
        if (fields < 0) fields = n;
        cr_expect_eq(n, fields, "line %d: '%s'", lines + 1, line);
        ends_whole = strchr(line, '\n') != NULL;
        lines++;
    }
    fclose(f);
    cr_expect(ends_whole, "the last line is cut: '%s'", line);
    cr_expect_gt(lines, 1000);
    /* the message names the step of the last row */
    long k = -1;
    const char *at = strstr(err_text, "row of step ");
    cr_assert_not_null(at);
    cr_assert_eq(sscanf(at, "row of step %ld", &k), 1);
    cr_expect_eq(k, lines - 2, "rows are steps 0 .. k after the header");
    remove(path);
}
