/* A step whose MLCP has no solution ends the run with NO_SOLUTION and a message giving t and the
 * state, after every earlier step was delivered; bad options are refused with their value. */
#include <criterion/criterion.h>

#include <nsdae/stepper.h>

#include <math.h>
#include <string.h>

/* y' = 1 from y = 0, and 0 <= 1 - y _|_ l >= 0 with l acting on nothing: feasible while y <= 1,
 * so with h = 1/4 the fifth step (to y = 5/4) has no solution. */
static nsdae_mlcs *bounded_ramp(void)
{
    nsdae_mlcs *s = NULL;
    cr_assert_eq(nsdae_mlcs_create(1, 1, 1, &s, NULL), NSDAE_OK);
    s->phases[0].E[0] = 1;
    s->phases[0].b[0] = 1;
    s->phases[0].C[0] = -1;
    s->phases[0].c[0] = 1;
    cr_assert_eq(nsdae_mlcs_set_name(s, 'y', 0, "y", NULL), NSDAE_OK);
    return s;
}

static int count_rows(const nsdae_step_record *rec, void *ctx)
{
    long *last = ctx;
    cr_expect_eq(rec->k, *last + 1, "rows arrive in order");
    *last = rec->k;
    return 0;
}

Test(stepper_errors, no_solution_keeps_earlier_steps)
{
    nsdae_mlcs *s = bounded_ramp();
    nsdae_stepper_options o;
    nsdae_stepper_defaults(&o);
    o.stop = 2.0;
    o.nsteps = 8;
    long last = -1;
    double y;
    nsdae_stepper_summary sum;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_stepper_run(s, &o, count_rows, &last, &y, &sum, &err), NSDAE_NO_SOLUTION);
    cr_expect_eq(last, 4, "initial row and four steps delivered");
    cr_expect_eq(sum.steps, 4);
    cr_expect_float_eq(y, 1.0, 1e-14);
    cr_expect_not_null(strstr(err.message, "t = 1 "), "%s", err.message);
    cr_expect_not_null(strstr(err.message, "y=1"), "%s", err.message);
    nsdae_mlcs_destroy(s);
}

Test(stepper_errors, bad_options)
{
    nsdae_mlcs *s = bounded_ramp();
    nsdae_stepper_options o;
    nsdae_error err = {0};
    struct { double stop, step, theta; long n; nsdae_scheme scheme; const char *expect; } cases[] = {
        {0.0, 0.1, 0, 0, NSDAE_SCHEME_MINNORM, "stop time"},
        {NAN, 0.1, 0, 0, NSDAE_SCHEME_MINNORM, "stop time"},
        {1.0, 0.0, 0, 0, NSDAE_SCHEME_MINNORM, "step 0"},
        {1.0, -1.0, 0, 0, NSDAE_SCHEME_MINNORM, "step -1"},
        {1.0, 0.1, 0.3, 0, NSDAE_SCHEME_THETA, "theta 0.3"},
        {1.0, 0.1, 0.5, 0, NSDAE_SCHEME_EULER, "plain Euler"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        nsdae_stepper_defaults(&o);
        o.stop = cases[i].stop;
        o.step = cases[i].step;
        o.nsteps = cases[i].n;
        o.theta = cases[i].theta;
        o.scheme = cases[i].scheme;
        cr_expect_eq(nsdae_stepper_run(s, &o, NULL, NULL, NULL, NULL, &err), NSDAE_INVALID_INPUT, "case %zu", i);
        cr_expect_not_null(strstr(err.message, cases[i].expect), "case %zu: %s", i, err.message);
    }
    s->phases[0].A[0] = NAN;
    nsdae_stepper_defaults(&o);
    cr_expect_eq(nsdae_stepper_run(s, &o, NULL, NULL, NULL, NULL, &err), NSDAE_INVALID_INPUT);
    cr_expect_not_null(strstr(err.message, "NaN"), "%s", err.message);
    nsdae_mlcs_destroy(s);
}

Test(stepper_errors, bad_gamma)
{
    nsdae_mlcs *s = bounded_ramp();
    nsdae_stepper_options o;
    nsdae_error err = {0};
    struct { double gamma; nsdae_scheme scheme; const char *expect; } cases[] = {
        {0.3, NSDAE_SCHEME_THETA, "gamma 0.3 is outside [1/2, 1]"},
        {1.5, NSDAE_SCHEME_MINNORM, "gamma 1.5 is outside [1/2, 1]"},
        {NAN, NSDAE_SCHEME_THETA, "gamma nan"},
        {0.5, NSDAE_SCHEME_EULER, "plain Euler scheme has gamma = 1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        nsdae_stepper_defaults(&o);
        o.gamma = cases[i].gamma;
        o.scheme = cases[i].scheme;
        cr_expect_eq(nsdae_stepper_run(s, &o, NULL, NULL, NULL, NULL, &err), NSDAE_INVALID_INPUT, "case %zu", i);
        cr_expect_not_null(strstr(err.message, cases[i].expect), "case %zu: %s", i, err.message);
    }
    nsdae_mlcs_destroy(s);
}

Test(stepper_errors, step_lands_on_stop)
{
    nsdae_stepper_options o;
    nsdae_stepper_defaults(&o);
    o.stop = 1.0;
    o.nsteps = 0;
    o.step = 0.3;
    double h;
    cr_expect_eq(nsdae_stepper_steps(&o, &h), 4, "0.3, 0.6, 0.9, then a short step to 1");
    o.step = 0.25;
    cr_expect_eq(nsdae_stepper_steps(&o, &h), 4, "no sliver step when h divides T");
}
