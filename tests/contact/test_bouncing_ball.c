/* Bouncing ball (issue 5) by Moreau-Jean against two outside references:
 * Siconos' own MoreauJeanOSI run (siconos-numerics-notes.md section 5) and the analytic
 * event-driven solution. */
#include <criterion/criterion.h>

#include "examples/builtin_contact.h"
#include <nsdae/order_fit.h>
#include <nsdae/moreau.h>

#include <math.h>
#include <stdio.h>

/* Analytic solution from q(0) = q0 > 0, v(0) = 0: free fall until t1 = sqrt(2 q0 / g), then at each
 * impact the velocity is multiplied by -e; the flights after impact i last 2 u_i / g with
 * u_i = e^i sqrt(2 g q0). They accumulate at t1 (1 + 2e/(1-e)); after it the ball rests at 0. */
static void ball_exact(double g, double e, double q0, double t, double *q, double *v)
{
    const double t1 = sqrt(2.0 * q0 / g);
    if (t < t1) {
        *q = q0 - 0.5 * g * t * t;
        *v = -g * t;
        return;
    }
    double tk = t1, u = e * sqrt(2.0 * g * q0);
    while (u > 1e-300) {
        double flight = 2.0 * u / g;
        if (t < tk + flight) {
            double s = t - tk;
            *q = u * s - 0.5 * g * s * s;
            *v = u - g * s;
            return;
        }
        tk += flight;
        u *= e;
    }
    *q = 0.0;
    *v = 0.0;
}

static nsdae_lagrangian *ball(void)
{
    nsdae_lagrangian *s = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_builtin_contact_create("bouncing-ball", NULL, 0, &s, &err), NSDAE_OK, "%s", err.message);
    return s;
}

Test(bouncing_ball, analytic_reference_accumulation_time)
{
    /* the accumulation time of the issue text, 8.578949 s, from the series of flight times */
    const double g = 9.81, e = 0.9, t1 = sqrt(2.0 / g);
    double tk = t1, u = e * sqrt(2.0 * g);
    for (int i = 0; i < 2000; i++) {
        tk += 2.0 * u / g;
        u *= e;
    }
    cr_expect(fabs(tk - 8.578949) < 5e-7, "series gives %.9f", tk);
    cr_expect(fabs(t1 * (1.0 + 2.0 * e / (1.0 - e)) - 8.578949) < 5e-7);
    double q, v;
    ball_exact(g, e, 1.0, t1 + 1e-12, &q, &v); /* just after the first impact */
    cr_expect(fabs(v - e * sqrt(2.0 * g)) < 1e-9);
}

typedef struct ball_stats {
    long impacts;        /* steps with a positive percussion */
    double min_q;
    double last_P;
    double rest_from;    /* check rest for t >= rest_from */
    double max_rest_v, max_rest_dq, max_rest_q, prev_q;
    int resting;
} ball_stats;

static int collect(const nsdae_contact_record *r, void *ctx)
{
    ball_stats *b = ctx;
    if (r->P[0] > 0.0) b->impacts++;
    if (r->q[0] < b->min_q) b->min_q = r->q[0];
    b->last_P = r->P[0];
    if (r->t >= b->rest_from) {
        if (b->resting) {
            b->max_rest_dq = fmax(b->max_rest_dq, fabs(r->q[0] - b->prev_q));
        }
        b->max_rest_v = fmax(b->max_rest_v, fabs(r->v[0]));
        b->max_rest_q = fmax(b->max_rest_q, fabs(r->q[0]));
        b->resting = 1;
    }
    b->prev_q = r->q[0];
    return 0;
}

/* Siconos 4.4.0, Python kernel: MoreauJeanOSI(0.5), NewtonImpactNSL(0.9), h = 0.005, T = 10
 * (upstream test_bouncing_ball.py, matched to its result.ref to 1.3e-14): final q =
 * -2.288618090551e-05, v = -2.775557561563e-17, p = lambda = 0.04905, 345 steps with lambda > 0,
 * min height -7.446656e-03. Same scheme, same activation rule: same trajectory to round-off. */
Test(bouncing_ball, reproduces_siconos_moreau_jean)
{
    nsdae_lagrangian *s = ball();
    nsdae_moreau_options o;
    nsdae_moreau_defaults(&o);
    o.theta = 0.5;
    o.stop = 10.0;
    o.nsteps = 0;
    o.step = 0.005;
    ball_stats b = {0, INFINITY, 0, INFINITY, 0, 0, 0, 0, 0};
    double q, v;
    nsdae_error err = {0};
    nsdae_moreau_summary sum;
    cr_assert_eq(nsdae_moreau_run(s, &o, collect, &b, &q, &v, &sum, &err), NSDAE_OK, "%s", err.message);
    cr_expect_eq(sum.steps, 2000);
    cr_expect(fabs(q - -2.288618090551e-05) < 1e-15, "q(10) = %.13e", q);
    cr_expect(fabs(v - -2.775557561563e-17) < 1e-16, "v(10) = %.13e", v);
    cr_expect(fabs(b.last_P - 0.04905) < 1e-14, "P = %.13e", b.last_P);
    cr_expect_eq(b.impacts, 345);
    cr_expect(fabs(b.min_q - -7.446656e-03) < 1e-9, "min q = %.9e", b.min_q);
    nsdae_lagrangian_destroy(s);
}

/* The error at T = 2.5 (mid-flight between the 3rd and 4th impacts, so q and v are continuous
 * there) over h = 1e-2 .. 1e-4: bounded by C h and of fitted order near 1. C = 50: each of the
 * three impacts is located within a step, which shifts the later flights by O(h) with a factor of
 * the impact velocities (about 4 m/s) times the number of impacts; measured error/h is 14..35. */
Test(bouncing_ball, order_one_at_T_2_5)
{
    const long N[] = {250, 500, 1000, 2500, 5000, 10000, 25000};
    const int n = (int)(sizeof N / sizeof N[0]);
    const double T = 2.5, C = 50.0;
    double h[7], e[7], qx, vx;
    ball_exact(9.81, 0.9, 1.0, T, &qx, &vx);
    nsdae_lagrangian *s = ball();
    printf("bouncing ball, Moreau-Jean theta = 1/2, error at T = 2.5 (exact q = %.10f, v = %.10f)\n", qx, vx);
    printf("%10s %14s %14s %14s %10s\n", "h", "|q - q_ex|", "|v - v_ex|", "error", "error/h");
    for (int i = 0; i < n; i++) {
        nsdae_moreau_options o;
        nsdae_moreau_defaults(&o);
        o.stop = T;
        o.nsteps = N[i];
        double q, v;
        nsdae_error err = {0};
        cr_assert_eq(nsdae_moreau_run(s, &o, NULL, NULL, &q, &v, NULL, &err), NSDAE_OK, "%s", err.message);
        h[i] = T / (double)N[i];
        e[i] = fabs(q - qx) + fabs(v - vx);
        printf("%10.2e %14.6e %14.6e %14.6e %10.4f\n", h[i], fabs(q - qx), fabs(v - vx), e[i], e[i] / h[i]);
        cr_expect(e[i] <= C * h[i], "h = %g: error %g > %g h", h[i], e[i], C);
    }
    int used;
    double order = nsdae_order_fit(h, e, n, &used);
    printf("fitted order (least squares, %d step sizes): %.3f\n", used, order);
    cr_expect_eq(used, n);
    cr_expect(order > 0.85 && order < 1.15, "fitted order %g", order);
    nsdae_lagrangian_destroy(s);
}

/* After the accumulation time 8.578949 the ball rests. The discrete accumulation ends a few hundred
 * steps later: once the bounce is shorter than a step the contact stays active and each step
 * multiplies the residual velocity by -e, so round-off (from |v| ~ g h) needs about
 * ln(g h / 1e-16) / ln(1/e) ~ 300 steps; with h <= 1e-3 that is over before t = 9, the window
 * checked below (h = 5e-3 reaches round-off at t = 10 exactly as Siconos does: test above).
 * The velocity is then at round-off: at rest
 * v_free = -g h and the percussion P = g h cancels it, leaving the rounding of (v - g h) + g h,
 * a few ulps of g h ~ 1e-17..1e-16; we assert |v| <= 1e-14. The position no longer moves
 * (q_{k+1} - q_k = h theta v_{k+1} at round-off: asserted <= 1e-15) and stays where the last
 * discrete impact left it: a penetration of O(h) inherent to the velocity-level law (Siconos'
 * own run ends at -2.29e-5 for h = 0.005), asserted |q| <= h. */
Test(bouncing_ball, rests_after_accumulation)
{
    const double steps[] = {1e-3, 5e-4, 2e-4, 1e-4};
    nsdae_lagrangian *s = ball();
    for (int i = 0; i < 4; i++) {
        nsdae_moreau_options o;
        nsdae_moreau_defaults(&o);
        o.stop = 10.0;
        o.nsteps = (long)llround(10.0 / steps[i]);
        ball_stats b = {0, INFINITY, 0, 9.0, 0, 0, 0, 0, 0};
        nsdae_error err = {0};
        cr_assert_eq(nsdae_moreau_run(s, &o, collect, &b, NULL, NULL, NULL, &err), NSDAE_OK, "%s", err.message);
        printf("rest on [9, 10], h = %g: max |v| = %.3e, max |dq| = %.3e, max |q| = %.3e\n", steps[i],
               b.max_rest_v, b.max_rest_dq, b.max_rest_q);
        cr_expect(b.max_rest_v <= 1e-14, "h = %g: |v| = %g", steps[i], b.max_rest_v);
        cr_expect(b.max_rest_dq <= 1e-15, "h = %g: |dq| = %g", steps[i], b.max_rest_dq);
        cr_expect(b.max_rest_q <= steps[i], "h = %g: |q| = %g", steps[i], b.max_rest_q);
    }
    nsdae_lagrangian_destroy(s);
}
