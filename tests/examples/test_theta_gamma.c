/* The theta-gamma method's weighting (issue 15): algebraic rows and the
 * complementarity relations hold at t_{k+1}; theta weights the differential unknowns and gamma the
 * algebraic unknowns and multipliers, in the differential rows only. Reference numbers: the closed
 * forms of the scheme on an RC circuit, and Rocca et al.'s exact crossing trajectory (section 2.1). */
#include "example_run.h"

#include <math.h>
#include <string.h>

static nsdae_mlcs *from_text(const char *text)
{
    nsdae_model *m = NULL;
    nsdae_mlcs *s = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_model_parse_string(text, strlen(text), "rc.nsm", &m, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(nsdae_translate_mlcs(m, &s, NULL, &err), NSDAE_OK, "%s", err.message);
    nsdae_model_destroy(m);
    return s;
}

/* C v' = -i, i = v/R (algebraic row, algebraic unknown i with an inconsistent start 0). */
#define RC_MODEL                                                                                   \
    "model rc\n  parameter C = 2;\n  parameter R = 0.5;\n  var v(start = 3);\n  var i;\nequation\n" \
    "  C*der(v) = -i;\n  i = v/R;\nend rc;\n"

typedef struct rc_watch {
    int iv, ii;
    double worst_law; /* max over steps k >= 1 of |i_k - v_k/R| */
} rc_watch;

static int watch_law(const nsdae_step_record *rec, void *ctx)
{
    rc_watch *w = ctx;
    if (rec->k > 0) w->worst_law = fmax(w->worst_law, fabs(rec->y[w->ii] - rec->y[w->iv] / 0.5));
    return 0;
}

static double run_rc(double theta, double gamma, long n, rc_watch *w)
{
    nsdae_mlcs *s = from_text(RC_MODEL);
    w->iv = y_index(s, "v");
    w->ii = y_index(s, "i");
    w->worst_law = 0.0;
    nsdae_stepper_options o;
    nsdae_stepper_defaults(&o);
    o.scheme = NSDAE_SCHEME_THETA;
    o.theta = theta;
    o.gamma = gamma;
    o.stop = 1.0;
    o.nsteps = n;
    double y[2];
    nsdae_error err = {0};
    cr_assert_eq(nsdae_stepper_run(s, &o, watch_law, w, y, NULL, &err), NSDAE_OK, "%s", err.message);
    double v = y[w->iv];
    nsdae_mlcs_destroy(s);
    return v;
}

Test(theta_gamma, resistor_law_holds_at_every_step_despite_an_inconsistent_start)
{
    /* theta-weighted, the row i = v/R read i1 = 2 v1/R - i0 - ... at theta = 1/2: the start
     * i(0) = 0 (consistent is 6) would alternate forever around the law */
    rc_watch w;
    run_rc(0.5, 1.0, 10, &w);
    cr_expect_leq(w.worst_law, 1e-12, "i - v/R reached %g", w.worst_law);
    run_rc(0.5, 0.5, 10, &w);
    cr_expect_leq(w.worst_law, 1e-12, "gamma = 1/2: i - v/R reached %g", w.worst_law);
}

Test(theta_gamma, rc_closed_forms_of_the_scheme)
{
    /* a = h/(R C). gamma = 1: C (v1 - v0) = -h i1 = -h v1/R, so v_N = v0 (1 + a)^-N whatever theta
     * is (v enters der(v)'s row only through the algebraic i). theta = gamma = 1/2 with i(0) = 0:
     * the first step is C (v1 - v0) = -h/2 (v1/R + 0), v1 = v0/(1 + a/2), then the trapezoid
     * v_{k+1} = v_k (1 - a/2)/(1 + a/2). */
    const long n = 10;
    const double h = 1.0 / (double)n, a = h / (0.5 * 2.0), v0 = 3.0;
    rc_watch w;
    double v = run_rc(0.5, 1.0, n, &w);
    double want = v0 * pow(1.0 + a, -(double)n);
    cr_expect_leq(fabs(v - want), 1e-13, "gamma = 1: v(1) = %.17g, closed form %.17g", v, want);
    v = run_rc(0.5, 0.5, n, &w);
    want = v0 / (1.0 + a / 2) * pow((1.0 - a / 2) / (1.0 + a / 2), (double)(n - 1));
    cr_expect_leq(fabs(v - want), 1e-13, "theta = gamma = 1/2: v(1) = %.17g, closed form %.17g", v, want);
}

typedef struct crossing_watch {
    int i1, i2, iz;
    double worst_x, worst_res, z_last;
} crossing_watch;

/* Rocca et al., crossing case from x(0) = (-5, 4): x1 = -5 + 2t on the left branch until t = 2.5,
 * sliding on x1 = 0 with x2 = -1 + 2(t - 2.5) until t = 3.5, then x1 = 2(t - 3.5)/3, x2 = 1 + x1. */
static void crossing_exact(double t, double x[2])
{
    if (t <= 2.5) x[0] = -5.0 + 2.0 * t, x[1] = -1.0 - x[0];
    else if (t <= 3.5) x[0] = 0.0, x[1] = -1.0 + 2.0 * (t - 2.5);
    else x[0] = 2.0 * (t - 3.5) / 3.0, x[1] = 1.0 + x[0];
}

static int watch_crossing(const nsdae_step_record *rec, void *ctx)
{
    crossing_watch *w = ctx;
    double x[2];
    crossing_exact(rec->t, x);
    w->worst_x = fmax(w->worst_x, fmax(fabs(rec->y[w->i1] - x[0]), fabs(rec->y[w->i2] - x[1])));
    w->worst_res = fmax(w->worst_res, rec->residual);
    w->z_last = rec->y[w->iz];
    return 0;
}

Test(theta_gamma, index2_crossing_at_theta_half_stays_on_the_exact_trajectory)
{
    /* Before algebraic rows held at t_{k+1}, x1 reached 2.7e16 by t = 0.38 with residuals up to 8.
     * The exact trajectory is piecewise linear, so the scheme reproduces it; z, the index-2
     * multiplier (z = 2/3 on the right branch), is taken at t_{k+1} and does not oscillate. */
    nsdae_mlcs *s = load_example("rocca_crossing", NULL);
    const long ns[] = {997, 1000, 3001};
    for (size_t k = 0; k < sizeof ns / sizeof *ns; k++) {
        crossing_watch w = {y_index(s, "x1"), y_index(s, "x2"), y_index(s, "z"), 0.0, 0.0, 0.0};
        nsdae_stepper_options o;
        nsdae_stepper_defaults(&o);
        o.scheme = NSDAE_SCHEME_THETA;
        o.theta = 0.5;
        o.stop = 10.0;
        o.nsteps = ns[k];
        nsdae_error err = {0};
        cr_assert_eq(nsdae_stepper_run(s, &o, watch_crossing, &w, NULL, NULL, &err), NSDAE_OK, "%s", err.message);
        cr_expect_leq(w.worst_x, 1e-9, "N=%ld: x left the exact trajectory by %g", ns[k], w.worst_x);
        cr_expect_leq(w.worst_res, 1e-9, "N=%ld: a step was accepted with residual %g", ns[k], w.worst_res);
        cr_expect_leq(fabs(w.z_last - 2.0 / 3.0), 1e-9, "N=%ld: z(10) = %.17g, exact 2/3", ns[k], w.z_last);
    }
    nsdae_mlcs_destroy(s);
}
