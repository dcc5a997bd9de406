/* Example models run through the whole pipeline (parse, translate, step) against closed forms and
 * against the built-in MLCS of Rocca et al. */
#include "example_run.h"

#include "examples/builtin.h"
#include <nsdae/order_fit.h>
#include <nsdae/impulse.h>

#include <math.h>
#include <string.h>

typedef struct trace {
    int ix, iy;         /* columns to record */
    long n;
    double t[4001], x[4001], y[4001];
} trace;

static int record(const nsdae_step_record *rec, void *ctx)
{
    trace *tr = ctx;
    if (rec->k > 4000) return 1;
    tr->t[rec->k] = rec->t;
    tr->x[rec->k] = rec->y[tr->ix];
    tr->y[rec->k] = rec->y[tr->iy];
    tr->n = rec->k;
    return 0;
}

static void run(const nsdae_mlcs *s, double stop, long n, trace *tr, nsdae_scheme scheme, double theta)
{
    nsdae_stepper_options o;
    nsdae_stepper_defaults(&o);
    o.scheme = scheme;
    o.theta = theta;
    o.stop = stop;
    o.nsteps = n;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_stepper_run(s, &o, record, tr, NULL, NULL, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(tr->n, n);
}

Test(examples, rocca_if_form_equals_the_mlcs_16_17)
{
    /* Rocca et al.: the `if` form (4) translated by fill-in-the-graph and the hand-written (16)-(17)
     * must give the same trajectories (examples/LANGUAGE.md). */
    const char *names[][2] = {{"rocca_crossing", "rocca-crossing"}, {"rocca_repulsive", "rocca-repulsive"}};
    for (int c = 0; c < 2; c++) {
        nsdae_mlcs *a = load_example(names[c][0], NULL), *b = NULL;
        cr_assert_eq(nsdae_builtin_create(names[c][1], NULL, 0, &b, NULL), NSDAE_OK);
        static trace ta, tb;
        ta.ix = y_index(a, "x1"), ta.iy = y_index(a, "x2");
        tb.ix = 0, tb.iy = 1;
        const long ns[] = {7, 100, 1000};
        for (int i = 0; i < 3; i++) {
            run(a, 10.0, ns[i], &ta, NSDAE_SCHEME_MINNORM, 0);
            run(b, 10.0, ns[i], &tb, NSDAE_SCHEME_MINNORM, 0);
            for (long k = 0; k <= ns[i]; k++) {
                cr_expect_leq(fabs(ta.x[k] - tb.x[k]), 1e-12, "%s N=%ld t=%g: x1 %.17g vs %.17g", names[c][0], ns[i],
                              ta.t[k], ta.x[k], tb.x[k]);
                cr_expect_leq(fabs(ta.y[k] - tb.y[k]), 1e-12, "%s N=%ld t=%g: x2 %.17g vs %.17g", names[c][0], ns[i],
                              ta.t[k], ta.y[k], tb.y[k]);
            }
        }
        nsdae_mlcs_destroy(a);
        nsdae_mlcs_destroy(b);
    }
}

Test(examples, relay_two_states_closed_form)
{
    /* x' = 2 lambda, lambda in -sign(x): x1 = max(1 - 2t, 0), x2 = -x1. Implicit Euler lands on 0
     * exactly (the step that would overshoot slides instead), so grid values are exact. */
    nsdae_mlcs *s = load_example("relay_two_states", NULL);
    static trace tr;
    tr.ix = y_index(s, "x1");
    tr.iy = y_index(s, "x2");
    const long ns[] = {10, 33, 1000};
    for (int i = 0; i < 3; i++) {
        run(s, 1.0, ns[i], &tr, NSDAE_SCHEME_MINNORM, 0);
        for (long k = 0; k <= ns[i]; k++) {
            double exact = fmax(1.0 - 2.0 * tr.t[k], 0.0);
            cr_expect_leq(fabs(tr.x[k] - exact), 1e-12, "N=%ld t=%g: x1=%.17g", ns[i], tr.t[k], tr.x[k]);
            cr_expect_leq(fabs(tr.y[k] + exact), 1e-12, "N=%ld t=%g: x2=%.17g", ns[i], tr.t[k], tr.y[k]);
        }
    }
    nsdae_mlcs_destroy(s);
}

Test(examples, clutch_engagement_converges_to_the_momentum_weighted_mean)
{
    /* Benveniste et al. 2017, clutch restart (13): at t_e the common speed restarts at
     * (J1 w1- + J2 w2-)/(J1 + J2) with w1- = 10 e^{-b1 t_e / J1}, w2- = 0, then decays as
     * exp(-(b1 + b2)(t - t_e)/(J1 + J2)). Implicit Euler's first state at or after t_e must approach
     * the exact w(t_k) as O(h): grids with N not a multiple of 3 put t_e = 1 inside a step. */
    nsdae_mlcs *s = load_example("clutch_exogenous", NULL);
    const double J1 = 1, J2 = 2, b1 = 0.1, b2 = 0.2, te = 1.0;
    const double w_plus = (J1 * 10.0 * exp(-b1 * te / J1) + J2 * 0.0) / (J1 + J2);
    static trace tr;
    tr.ix = y_index(s, "w1");
    tr.iy = y_index(s, "w2");
    const long ns[] = {100, 200, 400, 800, 1600, 3200};
    double h[6], e[6];
    printf("clutch engagement: first state after t_e against the exact restart\n%10s %8s %14s %10s\n", "h", "N",
           "error", "error/h");
    for (int i = 0; i < 6; i++) {
        run(s, 3.0, ns[i], &tr, NSDAE_SCHEME_MINNORM, 0);
        long k = 0;
        while (tr.t[k] < te) k++;
        double exact = w_plus * exp(-(b1 + b2) * (tr.t[k] - te) / (J1 + J2));
        cr_expect_leq(fabs(tr.x[k] - tr.y[k]), 1e-12, "engaged: w1 = w2");
        h[i] = 3.0 / (double)ns[i];
        e[i] = fabs(tr.x[k] - exact);
        printf("%10.3e %8ld %14.6e %10.4f\n", h[i], ns[i], e[i], e[i] / h[i]);
        cr_expect_leq(e[i], 10.0 * h[i], "N=%ld: error %g", ns[i], e[i]);
    }
    int used;
    double p = nsdae_order_fit(h, e, 6, &used);
    printf("fitted order %.4f\n", p);
    cr_expect(p > 0.9 && p < 1.1, "fitted order %g", p);
    nsdae_mlcs_destroy(s);
}

/* The restart nsdae_impulse_restart_at computes for examples/clutch_exogenous.nsm's engagement
 * (open -> engaged, exogenous, at time t_e) from the left limits w1-, w2- (their derivatives from
 * the open mode J w' = -b w). Returns the common speed w+. */
static double clutch_analysis_restart(double w1, double w2, double te)
{
    char path[512];
    snprintf(path, sizeof path, "%s/examples/clutch_exogenous.nsm", NSDAE_SOURCE_DIR);
    nsdae_model *m = NULL;
    nsdae_switches *sw = NULL;
    nsdae_expr_pool *pool = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_model_parse_file(path, &m, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(nsdae_mode_switches(m, &sw, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(nsdae_expr_pool_create_over(nsdae_model_pool(m), &pool, &err), NSDAE_OK);
    int open[1] = {1}, engaged[1] = {0};
    const nsdae_expr *guard = NULL;
    cr_assert_eq(nsdae_impulse_guard(m, sw, pool, open, engaged, &guard, &err), NSDAE_OK, "%s", err.message);
    nsdae_impulse_input in;
    nsdae_impulse_modes *store = NULL;
    cr_assert_eq(nsdae_impulse_input_from_modes(m, sw, pool, open, NULL, engaged, guard, &in, &store, &err), NSDAE_OK,
                 "%s", err.message);
    nsdae_impulse_result *r = NULL;
    nsdae_impulse_options opt = {-1};
    cr_assert_eq(nsdae_impulse_analyze(&in, &opt, &r, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(r->verdict, NSDAE_IMPULSE_OK, "%s", nsdae_impulse_verdict_name(r->verdict));
    const double *p = nsdae_model_param_values(m); /* J1 J2 b1 b2 t_e */
    enum { W1 = 0, W2 = 1, NV = 4 };
    double left[2 * NV] = {w1, w2, 0, 0, -p[2] * w1 / p[0], -p[3] * w2 / p[1], 0, 0}, plus[8];
    cr_assert(r->nstates <= 8);
    nsdae_impulse_numeric num;
    cr_assert_eq(nsdae_impulse_restart_at(r, left, 1, te, plus, NULL, &num, &err), NSDAE_OK, "%s", err.message);
    double w = NAN;
    for (int k = 0; k < r->nstates; k++)
        if (r->states[k].var == W1 && r->states[k].order == 0) w = plus[k];
    nsdae_impulse_result_destroy(r);
    nsdae_impulse_modes_destroy(store);
    nsdae_expr_pool_destroy(pool);
    nsdae_mode_switches_destroy(sw);
    nsdae_model_destroy(m);
    return w;
}

/* Issue 10: the minimal-norm scheme's first state after t_e converges at O(h) to the restart the
 * analysis computes from the scheme's own state before t_e (the oracle is the library's
 * nsdae_impulse_restart_at on the same file, not a hand formula). */
Test(examples, clutch_engagement_converges_to_the_analysis_restart)
{
    nsdae_mlcs *s = load_example("clutch_exogenous", NULL);
    static trace tr;
    tr.ix = y_index(s, "w1");
    tr.iy = y_index(s, "w2");
    const long ns[] = {100, 200, 400, 800, 1600};
    double h[5], e[5];
    const double te = 1.0;
    for (int i = 0; i < 5; i++) {
        run(s, 3.0, ns[i], &tr, NSDAE_SCHEME_MINNORM, 0);
        long k = 0;
        while (tr.t[k] < te) k++;
        double w_plus = clutch_analysis_restart(tr.x[k - 1], tr.y[k - 1], te);
        h[i] = 3.0 / (double)ns[i];
        e[i] = fabs(tr.x[k] - w_plus);
        printf("clutch: h %10.3e  w(t_k) %.10f  analysis w+ %.10f  error %.3e\n", h[i], tr.x[k], w_plus, e[i]);
    }
    int used;
    double p = nsdae_order_fit(h, e, 5, &used);
    printf("clutch against the analysis: fitted order %.4f\n", p);
    cr_expect_eq(used, 5);
    cr_expect(p > 0.9 && p < 1.1, "fitted order %g", p);
    nsdae_mlcs_destroy(s);
}
