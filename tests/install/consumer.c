/* A C program built against an installed nsdae (find_package or pkg-config): runs decay.nsm with
 * the model's own scheme, then with an override, and checks both against the schemes' closed
 * forms. usage: consumer MODEL; exit 0 when every check holds. */
#include <nsdae/run.h>
#include <nsdae/version.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct last { double t, x; long rows; } last;

static int keep_last(const nsdae_run_record *rec, void *p)
{
    last *l = p;
    l->t = rec->t;
    l->x = rec->values[0];
    l->rows++;
    return 0;
}

static int check(const char *what, double got, double want)
{
    int ok = fabs(got - want) <= 1e-13;
    printf("%s: x(1) = %.15f, closed form %.15f: %s\n", what, got, want, ok ? "ok" : "WRONG");
    return ok;
}

int main(int argc, char **argv)
{
    if (argc != 2) return 2;
    if (strcmp(nsdae_version(), NSDAE_VERSION_STRING) != 0) {
        printf("library %s, headers %s\n", nsdae_version(), NSDAE_VERSION_STRING);
        return 1;
    }
    printf("nsdae %s (%s)\n", nsdae_version(), nsdae_git_commit());
    nsdae_error err = {0};
    last l = {0};
    nsdae_run_summary sum;
    if (nsdae_run_file(argv[1], NULL, keep_last, &l, &sum, &err) != NSDAE_OK) {
        printf("error: %s\n", err.message);
        return 1;
    }
    int ok = check("model's scheme (theta, h = 0.1)", l.x, pow(0.95 / 1.05, 10)) && l.rows == 11 && l.t == 1.0;
    nsdae_run_settings set = {0};
    set.scheme = "euler";
    set.nsteps = 20;
    l = (last){0};
    if (nsdae_run_file(argv[1], &set, keep_last, &l, &sum, &err) != NSDAE_OK) {
        printf("error: %s\n", err.message);
        return 1;
    }
    ok = check("override (euler, 20 steps)", l.x, pow(1 / 1.05, 20)) && ok && l.rows == 21;
    set.scheme = "rk4";
    ok = nsdae_run_file(argv[1], &set, keep_last, &l, &sum, &err) == NSDAE_INVALID_INPUT && ok;
    printf("error carried: %s\n", err.message);
    return ok ? 0 : 1;
}
