/* Rocca et al. (Rocca, Acary, Brogliato), its MLCS (16)-(17) stepped by the minimal-norm implicit
 * Euler (15). Reference values are closed-form trajectories of the paper's dynamics (the cases of Fig. 5):
 * crossing x(10) = (13/3, 16/3), repulsive x(10) = (8/3, 11/3), sliding on x1 = 0 for t < 2. */
#include <criterion/criterion.h>

#include "examples/builtin.h"
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

Test(rocca, repulsive_is_exact_although_every_step_has_two_solutions)
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
        /* Every step has exactly two solutions. Eliminating z from (12) with B1/B2 = -2 gives
         * x2 = x2k + (x1k + h - x1)/2 on top of 0 in sign(x1) + |x1| - x2. From the sliding segment
         * (x1k = 0, -1 <= x2k <= 1) the roots are x1 = 0 (stay, while x2k <= 1 - h/2) or
         * x1 = (x2k + h/2 - 1)/1.5 > 0 (leave, otherwise), and always x1 = -2 - 2 x2k - h < 0. From the
         * right branch (x2k = 1 + x1k) they are x1 = x1k + h/3 and x1 = -4 - 3 x1k - h < 0. So the
         * spurious jump to the left branch exists at every step, sliding or not (Rocca et al. eq. (13):
         * a = -B2/B1 = 1/2 < b = 1 gives a V-shaped f with two roots), and (15) must reject it. */
        for (long k = 1; k <= log.n; k++)
            cr_expect_eq(log.nsol[k], 2, "N=%ld step %ld from t=%g: nsol=%ld", ns[i], k, log.t[k - 1], log.nsol[k]);
        cr_expect_eq(sum.several, ns[i]);
        /* ... and the minimal-norm choice slides on x1 = 0 exactly while t < 2 */
        for (long k = 0; k <= log.n; k++)
            if (log.t[k] <= 2.0 + 1e-12)
                cr_expect_leq(fabs(log.x1[k]), 1e-12, "N=%ld: x1(%g) = %g", ns[i], log.t[k], log.x1[k]);
            else cr_expect_gt(log.x1[k], 0.0);
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

Test(rocca, plain_euler_takes_the_spurious_branch)
{
    /* The first solution Siconos ENUM finds from (0, 0) is the left-branch jump x1 = -2 - 2*0 - h
     * = -3 (h = 1). On the left branch (x2 = -1 - x1) the dynamics move x1 by h*B2/(B1 + B2) = -1
     * per step, so Euler ends at x1 = -12, x2 = 11 instead of (8/3, 11/3). */
    nsdae_mlcs *s = example("rocca-repulsive");
    double y[3];
    nsdae_stepper_summary sum;
    run_to(s, NSDAE_SCHEME_EULER, 10, y, &sum);
    cr_expect_float_eq(y[0], -12.0, 1e-12);
    cr_expect_float_eq(y[1], 11.0, 1e-12);
    nsdae_mlcs_destroy(s);
}
