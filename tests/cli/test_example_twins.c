/* `analyze --example` and `restart --example` analyse the built-in's twin model file (compiled into
 * nsdae, src/cli/example_twin.h). Two checks from outside the code under test:
 *  - the built-in's matrices (src/examples/builtin.c) and the file's translation are two independent
 *    constructions of the same MLCS: simulated with the same steps they agree at T to 1e-12 relative
 *    (with --param, so the parameter names mean the same), and the twin's analysis is the file's;
 *  - restart --example cup-and-ball gives the inelastic oracle of Benveniste et al. 2026 (49): at
 *    p = (0.6, -0.8), v- = (1, -1), v+ = v- - (p.v-) p = (0.16, 0.12). */
#include "cli_run.h"

/* built-in, twin file, and the same --param for each (beads' 1024 modes at n = 10 make a 4 MB report) */
static const char *const twins[][4] = {
    {"rocca-crossing", "examples/rocca_crossing.nsm", "", ""},
    {"rocca-repulsive", "examples/rocca_repulsive.nsm", "", ""},
    {"relay-decay", "examples/relay_decay.nsm", "", ""},
    {"bouncing-ball", "examples/bouncing_ball.nsm", "", ""},
    {"beads", "examples/bead_column.nsm", "--param n=3", "--param N=3"},
    {"cup-and-ball", "examples/cup_and_ball.nsm", "", ""},
};

Test(example_twins, analyze_example_is_the_twin_files_analysis)
{
    static char from_file[sizeof out_text];
    for (size_t i = 0; i < sizeof twins / sizeof twins[0]; i++) {
        char args[256];
        snprintf(args, sizeof args, "%s --json %s", twins[i][1], twins[i][3]);
        cr_assert_eq(run_nsdae("analyze", args), 0, "%s: %s", twins[i][1], err_text);
        cr_assert_lt(strlen(out_text), sizeof out_text - 1);
        memcpy(from_file, out_text, sizeof from_file);
        snprintf(args, sizeof args, "--example %s --json %s", twins[i][0], twins[i][2]);
        cr_assert_eq(run_nsdae("analyze", args), 0, "%s: %s", twins[i][0], err_text);
        cr_expect_str_eq(out_text, from_file, "analyze --example %s", twins[i][0]);
        HAS(err_text, twins[i][1]);
    }
}

Test(example_twins, param_names_mean_the_same)
{
    /* beads' n is the file's N: 2 beads, 2 contacts, 4 modes */
    cr_assert_eq(run_nsdae("analyze", "--example beads --param n=2"), 0, "%s", err_text);
    HAS(out_text, "4 modes");
    HAS(err_text, "n is the file's N");
    /* a name neither has is refused as for simulate (status 2) */
    cr_expect_eq(run_nsdae("analyze", "--example rocca-crossing --param nope=1"), 2);
}

/* The last row's value of column col of a CSV in out_text. */
static double last_value(const char *col)
{
    const char *header_end = strchr(out_text, '\n');
    cr_assert(header_end);
    int index = 0;
    for (const char *p = out_text; p < header_end; index++) {
        size_t len = strcspn(p, ",\n");
        if (len == strlen(col) && strncmp(p, col, len) == 0) break;
        p += len + 1;
        cr_assert(p <= header_end, "no column %s", col);
    }
    const char *row = out_text + strlen(out_text) - 1;
    while (row > out_text && row[-1] != '\n') row--;
    for (int k = 0; k < index; k++) row = strchr(row, ',') + 1;
    return strtod(row, NULL);
}

static void same_trajectory_end(const char *example, const char *file, const char *opts, const char *const *cols)
{
    char args[512];
    double x[4];
    snprintf(args, sizeof args, "--example %s %s", example, opts);
    cr_assert_eq(run_nsdae("simulate", args), 0, "%s", err_text);
    for (int k = 0; cols[k]; k++) x[k] = last_value(cols[k]);
    snprintf(args, sizeof args, "%s %s", file, opts);
    cr_assert_eq(run_nsdae("simulate", args), 0, "%s", err_text);
    for (int k = 0; cols[k]; k++) {
        double y = last_value(cols[k]);
        cr_expect_leq(fabs(x[k] - y), 1e-12 * fmax(1.0, fabs(y)), "%s %s at T: built-in %.17g, file %.17g",
                      example, cols[k], x[k], y);
    }
}

Test(example_twins, builtin_matrices_and_twin_translation_agree)
{
    const char *const xs[] = {"x1", "x2", NULL};
    same_trajectory_end("rocca-crossing", "examples/rocca_crossing.nsm", "--steps 1000", xs);
    same_trajectory_end("rocca-crossing", "examples/rocca_crossing.nsm",
                        "--steps 777 --param B1=-0.4,x1_0=-3,x2_0=2", xs);
    same_trajectory_end("rocca-repulsive", "examples/rocca_repulsive.nsm", "--steps 1000", xs);
    same_trajectory_end("relay-decay", "examples/relay_decay.nsm", "--steps 333", xs);
    same_trajectory_end("relay-decay", "examples/relay_decay.nsm", "--steps 200 --param x1_0=0.5", xs);
}

Test(example_twins, restart_example_cup_and_ball)
{
    cr_assert_eq(run_nsdae("restart", "--example cup-and-ball --json --at 'x=0.6,y=-0.8,der(x)=1,der(y)=-1'"), 0,
                 "%s", err_text);
    HAS(err_text, "examples/cup_and_ball.nsm");
    cr_expect_float_eq(number_after(out_text, "\"restart\"", "der(x)"), 1 - 1.4 * 0.6, 1e-12);
    cr_expect_float_eq(number_after(out_text, "\"restart\"", "der(y)"), -1 + 1.4 * 0.8, 1e-12);
}
