/* nsdae analyze as a command: exit statuses, messages naming the bad flag, JSON fields, the
 * 2^12 limit with --mode. Runs the built binary (NSDAE_BINARY_DIR/nsdae). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* Runs `nsdae analyze ARGS` (stderr merged), returns the exit status; output in *out (free it). */
static int run(const char *args, char **out)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s/nsdae' analyze %s 2>&1", NSDAE_SOURCE_DIR, NSDAE_BINARY_DIR, args);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    size_t n;
    while ((n = fread(buf + len, 1, cap - len - 1, p)) > 0) {
        len += n;
        if (len + 1 >= cap) { cap *= 2; buf = realloc(buf, cap); }
    }
    buf[len] = '\0';
    int st = pclose(p);
    *out = buf;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

#define MODELS "tests/structural/models/"

Test(cli, help_documents_mode)
{
    char *out;
    cr_assert_eq(run("--help", &out), 0);
    cr_assert(strstr(out, "--mode CODE") && strstr(out, "4096"), "%s", out);
    free(out);
}

Test(cli, bad_flag_exit_2)
{
    char *out;
    cr_assert_eq(run(MODELS "o19.nsm --frobnicate", &out), 2);
    cr_assert(strstr(out, "--frobnicate") != NULL, "%s", out);
    free(out);
    cr_assert_eq(run(MODELS "rldc.nsm --mode 3.0", &out), 2);
    cr_assert(strstr(out, "--mode") && strstr(out, "3.0"), "%s", out);
    free(out);
    cr_assert_eq(run(MODELS "o19.nsm --param", &out), 2);
    cr_assert(strstr(out, "--param") != NULL, "%s", out);
    free(out);
    cr_assert_eq(run("", &out), 2);
    free(out);
}

Test(cli, model_error_exit_1)
{
    char *out;
    cr_assert_eq(run(MODELS "unequal_branches.nsm", &out), 1);
    cr_assert(strstr(out, "unequal_branches.nsm:9:") != NULL, "%s", out);
    free(out);
    cr_assert_eq(run(MODELS "does_not_exist.nsm", &out), 1);
    free(out);
}

Test(cli, json_fields)
{
    char *out;
    cr_assert_eq(run(MODELS "pendulum.nsm --json", &out), 0);
    const char *want[] = {"\"model\": \"pendulum\"", "\"status\": \"ok\"", "\"index\": 3", "\"dof\": 2",
                          "{\"equation\": \"x^2 + y^2 - L^2 = 0\", \"times\": 2}", "\"offsets\": {\"c\": [0, 0, 2], \"d\": [2, 2, 0]}",
                          "\"blocks\": [", "\"states\": [\"x\", \"der(x)\", \"y\", \"der(y)\"]"};
    for (size_t k = 0; k < sizeof want / sizeof *want; k++) cr_assert(strstr(out, want[k]) != NULL, "%s in %s", want[k], out);
    free(out);
}

Test(cli, singular_mode_diagnostic)
{
    char *out;
    cr_assert_eq(run(MODELS "singular_mode.nsm", &out), 0);
    cr_assert(strstr(out, "structurally singular") && strstr(out, "\"y = 2*x\"") && strstr(out, "{z}"), "%s", out);
    free(out);
    cr_assert_eq(run(MODELS "singular_mode.nsm --strict", &out), 3);
    free(out);
    cr_assert_eq(run(MODELS "singular_mode.nsm --json --mode 1", &out), 0);
    cr_assert(strstr(out, "\"status\": \"singular\"") && strstr(out, "\"underdetermined\": {\"equations\": [], \"unknowns\": [\"z\"]}"),
              "%s", out);
    free(out);
}

Test(cli, param_override)
{
    char *out;
    cr_assert_eq(run(MODELS "pendulum.nsm --param L=2", &out), 0);
    free(out);
    cr_assert_eq(run(MODELS "pendulum.nsm --param Q=2", &out), 2);
    cr_assert(strstr(out, "Q") != NULL, "%s", out);
    free(out);
    cr_assert_eq(run(MODELS "pendulum.nsm --param L=abc", &out), 2);
    free(out);
}

/* 13 complementarities: 8192 > 4096 modes: none analysed unless named, and the skipped count. */
Test(cli, mode_limit)
{
    char *out;
    cr_assert_eq(run(MODELS "many_modes.nsm", &out), 0);
    cr_assert(strstr(out, "analysed 0 of 8192 modes; skipped 8192") != NULL, "%s", out);
    free(out);
    cr_assert_eq(run(MODELS "many_modes.nsm --json --mode 0.0.0.0.0.0.0.0.0.0.0.0.1", &out), 0);
    cr_assert(strstr(out, "\"skipped\": 8191") && strstr(out, "\"mode_count\": 8192"), "%s", out);
    free(out);
}

Test(cli, seed003_three_modes)
{
    char *out;
    cr_assert_eq(run("examples/rocca_crossing.nsm", &out), 0);
    cr_assert(strstr(out, "analysed 3 of 3 modes") && strstr(out, "x1 = 0 (sliding)"), "%s", out);
    free(out);
}
