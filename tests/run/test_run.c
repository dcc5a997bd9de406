/* The one-call run (run.h) and the two library defaults it fixed: a step set after
 * nsdae_stepper_defaults takes effect, and the model's `experiment scheme` reaches the system.
 * Expected values are closed forms of the schemes on x' = -x and on free fall, not our output. */
#include <criterion/criterion.h>
#include <math.h>
#include <nsdae/model.h>
#include <nsdae/run.h>
#include <nsdae/stepper.h>
#include <nsdae/translate.h>
#include <stdlib.h>
#include <string.h>

/* x' = -a x, x(0) = 1; the experiment asks for the trapezoidal rule (theta = 1/2), h = 0.1. */
static const char decay[] = "model decay\n"
                            "  parameter a = 1;\n"
                            "  var x(start = 1);\n"
                            "equation\n"
                            "  der(x) = -a*x;\n"
                            "experiment stop = 1, step = 0.1, scheme = theta, theta = 0.5;\n"
                            "end decay;\n";

static nsdae_model *parse(const char *text)
{
    nsdae_model *m = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_model_parse_string(text, strlen(text), "decay.nsm", &m, &err), NSDAE_OK, "%s", err.message);
    return m;
}

/* The last row of a run of the decay model with these settings. */
static double last_x(const nsdae_run_settings *set, long *nrows, nsdae_run_plan *plan)
{
    nsdae_model *m = parse(decay);
    nsdae_run *run = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_run_prepare_model(m, set, &run, &err), NSDAE_OK, "%s", err.message);
    *plan = *nsdae_run_plan_of(run);
    long width = 1 + plan->columns.n;
    double *rows = calloc((size_t)((plan->grid.n + 1) * width), sizeof *rows);
    cr_assert_eq(nsdae_run_execute_rows(run, rows, nrows, NULL, &err), NSDAE_OK, "%s", err.message);
    cr_expect_eq(rows[(*nrows - 1) * width], plan->grid.stop, "the last row is at the stop time");
    double x = rows[(*nrows - 1) * width + 1];
    plan->columns = (nsdae_run_columns){0};   /* owned by the run */
    free(rows);
    nsdae_run_destroy(run);
    nsdae_model_destroy(m);
    return x;
}

Test(stepper_defaults, a_step_set_alone_takes_effect)
{
    nsdae_stepper_options o;
    nsdae_stepper_defaults(&o);
    o.step = 0.1;
    double h;
    cr_expect_eq(nsdae_stepper_steps(&o, &h), 10, "1 / 0.1 steps, not the default count");
    cr_expect_float_eq(h, 0.1, 1e-15);
    nsdae_stepper_defaults(&o);
    o.nsteps = 40;
    cr_expect_eq(nsdae_stepper_steps(&o, &h), 40);
    cr_expect_float_eq(h, 0.025, 1e-15);
}

Test(experiment, scheme_and_weights_reach_the_system)
{
    nsdae_model *m = parse(decay);
    nsdae_mlcs *s = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_translate_mlcs(m, &s, NULL, &err), NSDAE_OK, "%s", err.message);
    cr_expect_str_eq(s->scheme, "theta");
    cr_expect_eq(s->theta, 0.5);
    cr_expect_eq(s->step, 0.1);
    nsdae_stepper_options o;
    cr_assert_eq(nsdae_stepper_options_for(s, &o, &err), NSDAE_OK, "%s", err.message);
    cr_expect_eq(o.scheme, NSDAE_SCHEME_THETA);
    cr_expect_eq(o.theta, 0.5);
    double xN;
    cr_assert_eq(nsdae_stepper_run(s, &o, NULL, NULL, &xN, NULL, &err), NSDAE_OK, "%s", err.message);
    cr_expect_float_eq(xN, pow(0.95 / 1.05, 10), 1e-13, "trapezoidal rule: ((1 - h/2) / (1 + h/2))^10");
    nsdae_mlcs_destroy(s);
    nsdae_model_destroy(m);
}

Test(run, the_model_decides_and_settings_override)
{
    nsdae_run_plan plan;
    long n;
    nsdae_run_settings set = {0};
    double x = last_x(&set, &n, &plan);
    cr_expect_eq(plan.form, NSDAE_FORM_MLCS);
    cr_expect_eq(plan.scheme, NSDAE_SCHEME_THETA);
    cr_expect_eq(n, 11);
    cr_expect_float_eq(x, pow(0.95 / 1.05, 10), 1e-13, "the experiment's trapezoidal rule");

    set.scheme = "euler";
    set.nsteps = 20;
    x = last_x(&set, &n, &plan);
    cr_expect_eq(plan.theta, 1.0, "euler keeps theta = 1 over the experiment's 1/2");
    cr_expect_eq(n, 21);
    cr_expect_float_eq(x, pow(1 / 1.05, 20), 1e-13, "implicit Euler: (1 / (1 + h))^N");

    nsdae_run_param a = {"a", 2.0};
    set = (nsdae_run_settings){.stop = 2, .step = 0.25, .params = &a, .nparams = 1};
    x = last_x(&set, &n, &plan);
    cr_expect_eq(n, 9);
    cr_expect_float_eq(x, pow(0.75 / 1.25, 8), 1e-13, "a = 2, h = 0.25: ((1 - a h/2) / (1 + a h/2))^8");
}

typedef struct fall { double max_dev; long rows; } fall;

/* Free fall before the impact: Moreau-Jean with theta = 1/2 is exact, q = 1 - g t^2 / 2. */
static int check_fall(const nsdae_run_record *rec, void *p)
{
    fall *f = p;
    double q = rec->values[0], exact = 1 - 9.81 * rec->t * rec->t / 2;
    if (rec->t < 0.4 && fabs(q - exact) > f->max_dev) f->max_dev = fabs(q - exact);
    f->rows++;
    return 0;
}

Test(run, an_impact_law_runs_moreau_jean_from_a_file)
{
    nsdae_run_settings set = {.stop = 0.4};
    nsdae_run_summary sum;
    nsdae_error err = {0};
    fall f = {0};
    cr_assert_eq(nsdae_run_file(NSDAE_SOURCE_DIR "/examples/bouncing_ball.nsm", &set, check_fall, &f, &sum, &err),
                 NSDAE_OK, "%s", err.message);
    cr_expect_eq(sum.steps, 80, "0.4 / the experiment's step 0.005");
    cr_expect_eq(f.rows, 81);
    cr_expect_lt(f.max_dev, 1e-12, "free fall: %g", f.max_dev);
}

Test(run, errors_name_their_cause)
{
    struct { nsdae_run_settings set; nsdae_status st; const char *expect; } cases[] = {
        {{.nsteps = 10, .step = 0.1}, NSDAE_INVALID_INPUT, "nsteps or step, not both"},
        {{.scheme = "rk4"}, NSDAE_INVALID_INPUT, "scheme 'rk4' is not one of"},
        {{.theta = 0.2}, NSDAE_INVALID_INPUT, "theta 0.2"},
        {{.scheme = "euler", .theta = 0.5}, NSDAE_INVALID_INPUT, "euler scheme has theta = gamma = 1"},
        {{.params = &(nsdae_run_param){"b", 1}, .nparams = 1}, NSDAE_INVALID_INPUT, "b"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        nsdae_model *m = parse(decay);
        nsdae_run *run = NULL;
        nsdae_error err = {0};
        cr_expect_eq(nsdae_run_prepare_model(m, &cases[i].set, &run, &err), cases[i].st, "case %zu", i);
        cr_expect_not_null(strstr(err.message, cases[i].expect), "case %zu: %s", i, err.message);
        cr_expect_null(run);
        nsdae_model_destroy(m);
    }
    nsdae_error err = {0};
    cr_expect_eq(nsdae_run_file("/nonexistent/x.nsm", NULL, NULL, NULL, NULL, &err), NSDAE_IO);
    cr_expect_not_null(strstr(err.message, "/nonexistent/x.nsm"), "%s", err.message);
}
