/* Seed 003 (Rocca, Acary, Brogliato), its MLCS (16)-(17) stepped by the minimal-norm implicit
 * Euler (15). Reference values are the seed's closed-form trajectories (section 2.1; DESIGN.md 8):
 * crossing x(10) = (13/3, 16/3), repulsive x(10) = (8/3, 11/3), sliding on x1 = 0 for t < 2. */
#include <criterion/criterion.h>

#include <nsdae/builtin.h>
#include <nsdae/stepper.h>

#include <math.h>
#include <stdlib.h>

static nsdae_mlcs *example(const char *name)
{
    nsdae_mlcs *s = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_builtin_create(name, NULL, 0, &s, &err), NSDAE_OK, "%s", err.message);
    return s;
}

static double run_to(nsdae_mlcs *s, nsdae_scheme scheme, long n, double *y, nsdae_stepper_summary *sum)
{
    nsdae_stepper_options o;
    nsdae_stepper_defaults(&o);
    o.scheme = scheme;
    o.stop = 10.0;
    o.nsteps = n;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_stepper_run(s, &o, NULL, NULL, y, sum, &err), NSDAE_OK, "N=%ld: %s", n, err.message);
    return sum->t_end;
}

Test(rocca, crossing_is_exact_for_every_grid)
{
    nsdae_mlcs *s = example("rocca-crossing");
    const long ns[] = {7, 33, 101, 1001, 10001};
    for (size_t i = 0; i < sizeof ns / sizeof *ns; i++) {
        double y[3];
        nsdae_stepper_summary sum;
        double t = run_to(s, NSDAE_SCHEME_MINNORM, ns[i], y, &sum);
        cr_expect_eq(t, 10.0, "last step must land on T exactly");
        cr_expect_eq(sum.steps, ns[i]);
        double e = hypot(y[0] - 13.0 / 3.0, y[1] - 16.0 / 3.0);
        cr_expect_leq(e, 1e-9, "N=%ld: x(T)=(%.17g, %.17g), error %.3g", ns[i], y[0], y[1], e);
    }
    nsdae_mlcs_destroy(s);
}

typedef struct step_log {
    long n;
    double t[20001];
    double x1[20001];
    long nsol[20001];
} step_log;

static int record(const nsdae_step_record *rec, void *ctx)
{
    step_log *log = ctx;
    log->t[rec->k] = rec->t;
    log->x1[rec->k] = rec->y[0];
    log->nsol[rec->k] = rec->nsol;
    log->n = rec->k;
    return 0;
}

Test(rocca, repulsive_is_exact_and_only_sliding_steps_have_several_solutions)
{
    nsdae_mlcs *s = example("rocca-repulsive");
    const long ns[] = {10, 33, 100, 1000};
    for (size_t i = 0; i < sizeof ns / sizeof *ns; i++) {
        static step_log log;
        nsdae_stepper_options o;
        nsdae_stepper_defaults(&o);
        o.stop = 10.0;
        o.nsteps = ns[i];
        double y[3];
        nsdae_stepper_summary sum;
        nsdae_error err = {0};
        cr_assert_eq(nsdae_stepper_run(s, &o, record, &log, y, &sum, &err), NSDAE_OK, "%s", err.message);
        double e = hypot(y[0] - 8.0 / 3.0, y[1] - 11.0 / 3.0);
        cr_expect_leq(e, 1e-9, "N=%ld: x(T)=(%.17g, %.17g), error %.3g", ns[i], y[0], y[1], e);
        /* The exact solution slides on x1 = 0 for t in [0, 2] (x2 from 0 to 1 at speed 1/2). A step
         * from t_k has several solutions exactly when it starts on the sliding segment with room
         * to stay on it, i.e. when t_k < 2. */
        long several = 0, sliding = 0;
        for (long k = 1; k <= log.n; k++) {
            int starts_sliding = log.t[k - 1] < 2.0 - 1e-12;
            sliding += starts_sliding;
            several += log.nsol[k] > 1 || log.nsol[k] < 0;
            cr_expect_eq(log.nsol[k] > 1 || log.nsol[k] < 0, starts_sliding,
                         "N=%ld step %ld from t=%g: nsol=%ld", ns[i], k, log.t[k - 1], log.nsol[k]);
        }
        cr_expect_eq(several, sum.several);
        cr_expect_eq(sliding, (long)ceil(2.0 / (10.0 / (double)ns[i]) - 1e-9), "about 2/h sliding steps");
    }
    nsdae_mlcs_destroy(s);
}

Test(rocca, exact_references_match_the_seed)
{
    double x[2];
    cr_assert(nsdae_builtin_exact("rocca-crossing", NULL, 0, 10.0, x));
    cr_expect_float_eq(x[0], 13.0 / 3.0, 1e-14);
    cr_expect_float_eq(x[1], 16.0 / 3.0, 1e-14);
    cr_assert(nsdae_builtin_exact("rocca-repulsive", NULL, 0, 10.0, x));
    cr_expect_float_eq(x[0], 8.0 / 3.0, 1e-14);
    cr_expect_float_eq(x[1], 11.0 / 3.0, 1e-14);
}
