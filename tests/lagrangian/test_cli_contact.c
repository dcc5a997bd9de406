/* nsdae simulate --scheme moreau and nsdae check on .nsm contact models, as a user runs them. */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define EX NSDAE_SOURCE_DIR "/examples/"

static char buf[1 << 20];

/* Runs `nsdae ARGS`, captures stdout+stderr into buf, returns the exit status. */
static int run(const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "OPENBLAS_NUM_THREADS=1 %s/nsdae %s 2>&1", NSDAE_BINARY_DIR, args);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    size_t n = fread(buf, 1, sizeof buf - 1, p);
    buf[n] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Reads the CSV at path: the header into header, the last row's numbers into last (returns how many). */
static int last_row(const char *path, char *header, size_t hsize, double *last, int max)
{
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s", path);
    static char line[4096], prev[4096];
    cr_assert_not_null(fgets(header, (int)hsize, f));
    prev[0] = '\0';
    while (fgets(line, sizeof line, f)) memcpy(prev, line, sizeof line);
    fclose(f);
    int n = 0;
    for (char *p = prev, *end; n < max && *p && *p != '\n'; p = end + (*end == ',')) {
        last[n++] = strtod(p, &end);
        cr_assert(end != p, "not a number in '%s'", prev);
    }
    return n;
}

Test(cli_contact, bouncing_ball_comes_to_rest)
{
    const char *csv = NSDAE_BINARY_DIR "/lagrangian_ball.csv";
    char args[1024], header[256];
    snprintf(args, sizeof args, "simulate " EX "bouncing_ball.nsm --scheme moreau --steps 2000 --out %s", csv);
    cr_assert_eq(run(args), 0, "%s", buf);
    cr_expect(strstr(buf, "2000 Moreau-Jean steps of h = 0.005 to t = 10") != NULL, "%s", buf);
    double row[8];
    int n = last_row(csv, header, sizeof header, row, 8);
    cr_expect_str_eq(header, "t,q,der(q),P_lambda,active_lambda,res\n");
    cr_assert_eq(n, 6);
    cr_expect_eq(row[0], 10.0);
    cr_expect(fabs(row[1]) < 1e-3, "q(10) = %g: the ball should rest after t = 8.578949", row[1]);
    cr_expect(fabs(row[2]) < 1e-3, "der(q)(10) = %g", row[2]);
    remove(csv);
}

Test(cli_contact, parameters_and_experiment_defaults)
{
    const char *csv = NSDAE_BINARY_DIR "/lagrangian_ball_g0.csv";
    char args[1024], header[256];
    double row[8];
    /* g = 0: the ball stays at q = 1; the stop time (10) and step (0.005) come from the experiment */
    snprintf(args, sizeof args, "simulate " EX "bouncing_ball.nsm --scheme moreau --param g=0 --out %s", csv);
    cr_assert_eq(run(args), 0, "%s", buf);
    cr_expect(strstr(buf, "2000 Moreau-Jean steps of h = 0.005 to t = 10") != NULL, "%s", buf);
    cr_assert_eq(last_row(csv, header, sizeof header, row, 8), 6);
    cr_expect_eq(row[1], 1.0);
    /* cup-and-ball: two coordinates, the rope percussion column */
    snprintf(args, sizeof args, "simulate " EX "cup_and_ball.nsm --scheme moreau --stop 1 --steps 100 --out %s", csv);
    cr_assert_eq(run(args), 0, "%s", buf);
    cr_assert_eq(last_row(csv, header, sizeof header, row, 8), 8);
    cr_expect_str_eq(header, "t,x,y,der(x),der(y),P_rope,active_rope,res\n");
    cr_expect(hypot(row[1], row[2]) < 1.0 + 0.05, "|q(1)| = %g: the rope holds the ball", hypot(row[1], row[2]));
    remove(csv);
}

Test(cli_contact, errors_name_the_file_and_equation)
{
    cr_expect_eq(run("simulate " EX "bouncing_ball.nsm --scheme moreau --param e=2"), 1);
    cr_expect(strstr(buf, "bouncing_ball.nsm:17:3: equation '0 <= q _|_ lambda >= 0 restitution e': restitution "
                          "coefficient 2 is outside [0, 1]") != NULL, "%s", buf);
    cr_expect_eq(run("simulate " EX "bouncing_ball.nsm --scheme moreau --param nope=2"), 1);
    cr_expect(strstr(buf, "nope") != NULL, "%s", buf);
    /* an MLCS model is not a contact model */
    cr_expect_eq(run("simulate " EX "rocca_crossing.nsm --scheme moreau"), 1);
    cr_expect(strstr(buf, "rocca_crossing.nsm:") != NULL, "%s", buf);
}

Test(cli_contact, check_reports_the_lagrangian_form)
{
    struct { const char *file, *line; } cases[] = {
        {"bouncing_ball.nsm", "contact model: Lagrangian form with 1 dof and 1 contacts"},
        {"cup_and_ball.nsm", "contact model: Lagrangian form with 2 dof and 1 contacts"},
        {"bead_column.nsm", "contact model: Lagrangian form with 10 dof and 10 contacts"},
    };
    char args[1024];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(args, sizeof args, "check " EX "%s", cases[i].file);
        cr_expect_eq(run(args), 0, "%s: %s", cases[i].file, buf);
        cr_expect(strstr(buf, cases[i].line) != NULL, "%s: %s", cases[i].file, buf);
    }
    cr_expect_eq(run("check " EX "cup_and_ball.nsm --json"), 0, "%s", buf);
    cr_expect(strstr(buf, "\"contact\": {\"ndof\": 2, \"ncontacts\": 1}") != NULL, "%s", buf);
    /* refused by both forms: both reasons are printed */
    cr_expect_eq(run("check " EX "bouncing_ball.nsm --param e=1.5"), 1);
    cr_expect(strstr(buf, "needs the Moreau-Jean scheme") != NULL, "%s", buf);
    cr_expect(strstr(buf, "restitution coefficient 1.5 is outside [0, 1]") != NULL, "%s", buf);
}

Test(cli_contact, array_elements_are_csv_columns)
{
    /* --param N=3 resizes the arrays; each element is a column named as in the model */
    const char *csv = NSDAE_BINARY_DIR "/lagrangian_beads3.csv";
    char args[1024], header[512];
    snprintf(args, sizeof args, "simulate " EX "bead_column.nsm --param N=3 --steps 2 --out %s", csv);
    cr_assert_eq(run(args), 0, "%s", buf);
    double row[32];
    int n = last_row(csv, header, sizeof header, row, 32);
    cr_expect_str_eq(header, "t,z[1],z[2],z[3],der(z[1]),der(z[2]),der(z[3]),P_lambda[1],P_lambda[2],P_lambda[3],"
                             "active_lambda[1],active_lambda[2],active_lambda[3],res\n");
    cr_expect_eq(n, 14);
    remove(csv);
    cr_expect_eq(run("check " EX "bead_column.nsm --param N=0"), 2);
    cr_expect(strstr(buf, "bead_column.nsm:23:9: the size of 'z' must be a positive integer, found 0") != NULL, "%s",
              buf);
}
