/* The nsdae command as a user meets it: exit statuses and messages for bad command lines,
 * CSV output, and a step without solution that keeps the rows computed before it. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* Runs `nsdae ARGS`, captures stdout+stderr into out, returns the exit status. */
static int run(const char *args, char *out, size_t size)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "OPENBLAS_NUM_THREADS=1 %s/nsdae %s 2>&1", NSDAE_BINARY_DIR, args);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    size_t n = fread(out, 1, size - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char buf[1 << 20];

Test(cli, help_and_version)
{
    cr_expect_eq(run("--help", buf, sizeof buf), 0);
    cr_expect_not_null(strstr(buf, "simulate"));
    cr_expect_eq(run("--version", buf, sizeof buf), 0);
    cr_expect_not_null(strstr(buf, "nsdae "));
    cr_expect_eq(run("simulate --help", buf, sizeof buf), 0);
    cr_expect_not_null(strstr(buf, "--scheme"));
    cr_expect_eq(run("converge --help", buf, sizeof buf), 0);
    cr_expect_eq(run("frobnicate", buf, sizeof buf), 2);
    cr_expect_not_null(strstr(buf, "unknown command 'frobnicate'"));
}

Test(cli, bad_flags_name_the_flag_and_value)
{
    struct { const char *args, *expect; } cases[] = {
        {"simulate --example rocca-crossing --bogus", "unknown option '--bogus'"},
        {"simulate --example rocca-crossing --steps abc", "--steps 'abc'"},
        {"simulate --example rocca-crossing --steps 0", "--steps '0'"},
        {"simulate --example rocca-crossing --step -0.1", "--step '-0.1'"},
        {"simulate --example rocca-crossing --step 0", "--step '0'"},
        {"simulate --example rocca-crossing --stop nan", "--stop 'nan'"},
        {"simulate --example rocca-crossing --theta 0.2", "--theta '0.2'"},
        {"simulate --example rocca-crossing --gamma 0.2", "--gamma '0.2'"},
        {"simulate --example rocca-crossing --gamma x", "--gamma 'x'"},
        {"simulate --example rocca-crossing --scheme euler --gamma 0.5", "the euler scheme has gamma = 1"},
        {"simulate --example rocca-crossing --scheme rk4", "--scheme 'rk4'"},
        {"simulate --example rocca-crossing --param B1", "--param 'B1'"},
        {"simulate --example rocca-crossing --param nope=1", "no parameter 'nope'"},
        {"simulate --example nowhere", "--example 'nowhere': unknown example"},
        {"simulate --example rocca-crossing --every 0", "--every '0'"},
        {"simulate --example rocca-crossing --steps", "--steps needs a value"},
        {"converge --example rocca-crossing --steps 10", "--steps '10'"},
        {"converge --example rocca-crossing --steps 10,x", "--steps '10,x'"},
        {"converge --example rocca-crossing --steps 10,20 --reference best", "--reference 'best'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int st = run(cases[i].args, buf, sizeof buf);
        cr_expect_neq(st, 0, "%s: exit 0", cases[i].args);
        cr_expect_not_null(strstr(buf, cases[i].expect), "%s: got '%s'", cases[i].args, buf);
    }
}

Test(cli, csv_header_rows_and_summary)
{
    cr_assert_eq(run("simulate --example rocca-crossing --steps 7", buf, sizeof buf), 0, "%s", buf);
    cr_expect_eq(strncmp(buf, "t,x1,x2,z,lambda1,lambda2,lambda3,nsol,res\n", 42), 0, "%s", buf);
    int rows = 0;
    for (char *p = buf; (p = strchr(p, '\n')); p++) rows++;
    /* header + initial state + 7 steps + summary line */
    cr_expect_eq(rows, 10, "%s", buf);
    cr_expect_not_null(strstr(buf, "7 steps"));
    cr_expect_not_null(strstr(buf, "\n10,"), "the last row is at t = 10 exactly");
}

Test(cli, every_keeps_the_last_step)
{
    cr_assert_eq(run("simulate --example rocca-crossing --steps 10 --every 3 --out /dev/null", buf, sizeof buf), 0);
    cr_assert_eq(run("simulate --example rocca-crossing --steps 10 --every 3", buf, sizeof buf), 0);
    /* rows at k = 0, 3, 6, 9 and the last, 10 */
    int rows = 0;
    for (char *p = buf; (p = strchr(p, '\n')); p++) rows++;
    cr_expect_eq(rows, 1 + 5 + 1, "%s", buf);
}

Test(cli, converge_prints_a_fitted_order)
{
    cr_assert_eq(run("converge --example relay-decay --steps 20,40,80,160,320", buf, sizeof buf), 0, "%s", buf);
    cr_expect_not_null(strstr(buf, "least-squares order: "), "%s", buf);
    double p = 0;
    char *at = strstr(buf, "least-squares order: ");
    cr_assert_not_null(at);
    cr_assert_eq(sscanf(at, "least-squares order: %lf", &p), 1);
    cr_expect(p > 0.9 && p < 1.1, "order %g", p);
}

Test(cli, a_step_without_solution_keeps_the_rows_before_it)
{
    /* blocked_ramp: y' = 1 and 0 <= 1 - y _|_ l >= 0, h = 1/4: the fifth step (to y = 5/4) has no
     * solution. At y = 1 the multiplier l is free in [0, inf): that step's solution set is a ray. */
    char args[2048], csv[512];
    snprintf(csv, sizeof csv, "%s/blocked_ramp.csv", NSDAE_BINARY_DIR);
    snprintf(args, sizeof args, "simulate %s/tests/cli/models/blocked_ramp.nsm --out %s", NSDAE_SOURCE_DIR, csv);
    cr_expect_eq(run(args, buf, sizeof buf), 1, "%s", buf);
    cr_expect_not_null(strstr(buf, "step 5 from t = 1 to 1.25 has no solution; state at t: y=1"), "%s", buf);
    cr_expect_not_null(strstr(buf, "4 steps written before the failure"), "%s", buf);
    FILE *f = fopen(csv, "r");
    cr_assert_not_null(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    cr_expect_str_eq(buf, "t,y,l,nsol,res\n0,0,0,0,0\n0.25,0.25,0,1,0\n0.5,0.5,0,1,0\n0.75,0.75,0,1,0\n1,1,0,inf,0\n");
}

/* The last CSV row of `nsdae ARGS` (the summary line on stderr dropped). */
static void last_row(const char *args, char *row, size_t size)
{
    char piped[3072];
    snprintf(piped, sizeof piped, "%s 2>/dev/null | tail -n 1", args);
    cr_assert_eq(run(piped, row, size), 0, "%s failed", args);
}

Test(cli, gamma_from_the_experiment_unless_a_flag_gives_it)
{
    /* circuit_rlcd.nsm's experiment says scheme = theta, theta = 0.5, gamma = 0.5: the same run as
     * the flags, and the --gamma flag overrides it */
    char from_model[512], from_flags[512], overridden[512];
    char path[1024];
    snprintf(path, sizeof path, "%s/examples/circuit_rlcd.nsm", NSDAE_SOURCE_DIR);
    char args[2048];
    snprintf(args, sizeof args, "simulate %s", path);
    last_row(args, from_model, sizeof from_model);
    snprintf(args, sizeof args, "simulate %s --scheme theta --theta 0.5 --gamma 0.5", path);
    last_row(args, from_flags, sizeof from_flags);
    snprintf(args, sizeof args, "simulate %s --gamma 1", path);
    last_row(args, overridden, sizeof overridden);
    cr_expect_str_eq(from_model, from_flags);
    cr_expect_str_neq(from_model, overridden);
}
