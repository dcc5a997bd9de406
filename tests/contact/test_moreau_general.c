/* Moreau-Jean beyond the built-ins: a q-dependent mass matrix with a nonlinear gap, and the
 * error paths (bad options, failing callbacks, an LCP without solution). */
#include <criterion/criterion.h>

#include <nsdae/order_fit.h>
#include <nsdae/moreau.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The bouncing ball (m = 1, g = 9.81, e = 0.9, height 1) written in a curved coordinate s with
 * height x = phi(s) = s + s^3. Lagrangian T = phi'(s)^2 s'^2 / 2, V = g phi(s):
 *   M(s) = phi'^2,  F(s, s') = -phi' phi'' s'^2 - g phi',  gap phi(s), G = phi'(s).
 * Newton's law on G v is the law on x', so x(t) is the ball's analytic solution. */
static double phi(double s) { return s + s * s * s; }
static double dphi(double s) { return 1.0 + 3.0 * s * s; }

static int curved_mass(const double *q, double *M, void *ctx)
{
    (void)ctx;
    M[0] = dphi(q[0]) * dphi(q[0]);
    return 0;
}

static int curved_forces(double t, const double *q, const double *v, double *F, void *ctx)
{
    (void)t; (void)ctx;
    F[0] = -dphi(q[0]) * 6.0 * q[0] * v[0] * v[0] - 9.81 * dphi(q[0]);
    return 0;
}

static int curved_gaps(const double *q, double *g, void *ctx)
{
    (void)ctx;
    g[0] = phi(q[0]);
    return 0;
}

static int curved_jacobian(const double *q, double *G, void *ctx)
{
    (void)ctx;
    G[0] = dphi(q[0]);
    return 0;
}

/* x(t), x'(t) of the ball between its 1st and 2nd impacts (t1 = sqrt(2/g), u1 = e sqrt(2 g)). */
static void ball_after_first_impact(double t, double *x, double *xd)
{
    const double g = 9.81, t1 = sqrt(2.0 / g), u = 0.9 * sqrt(2.0 * g), s = t - t1;
    cr_assert(s > 0.0 && s < 2.0 * u / g);
    *x = u * s - 0.5 * g * s * s;
    *xd = u - g * s;
}

static nsdae_lagrangian *curved_ball(void)
{
    nsdae_lagrangian *s = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_lagrangian_create(1, 1, &s, &err), NSDAE_OK, "%s", err.message);
    s->mass = curved_mass;
    s->forces = curved_forces;
    s->gaps = curved_gaps;
    s->gap_jacobian = curved_jacobian;
    s->restitution[0] = 0.9;
    /* phi(s0) = 1: s0 = 0.6823278038280193 (real root of s^3 + s - 1) */
    s->q0[0] = 0.6823278038280193;
    cr_assert(fabs(phi(s->q0[0]) - 1.0) < 1e-15);
    return s;
}

Test(moreau_general, q_dependent_mass_and_nonlinear_gap_order_one)
{
    const long N[] = {100, 200, 500, 1000, 2000, 5000, 10000};
    const int n = 7;
    const double T = 1.0;
    double h[7], e[7], x_ex, xd_ex;
    ball_after_first_impact(T, &x_ex, &xd_ex);
    nsdae_lagrangian *s = curved_ball();
    printf("ball in the curved coordinate x = s + s^3 (q-dependent mass), error in (x, x') at T = 1\n");
    printf("%10s %14s %10s\n", "h", "error", "error/h");
    for (int i = 0; i < n; i++) {
        nsdae_moreau_options o;
        nsdae_moreau_defaults(&o);
        o.stop = T;
        o.nsteps = N[i];
        double q, v;
        nsdae_error err = {0};
        cr_assert_eq(nsdae_moreau_run(s, &o, NULL, NULL, &q, &v, NULL, &err), NSDAE_OK, "%s", err.message);
        h[i] = T / (double)N[i];
        e[i] = fabs(phi(q) - x_ex) + fabs(dphi(q) * v - xd_ex);
        printf("%10.2e %14.6e %10.4f\n", h[i], e[i], e[i] / h[i]);
        cr_expect(e[i] <= 50.0 * h[i], "h = %g: error %g", h[i], e[i]);
    }
    int used;
    double order = nsdae_order_fit(h, e, n, &used);
    printf("fitted order: %.3f\n", order);
    cr_expect(order > 0.85 && order < 1.15, "fitted order %g", order);
    nsdae_lagrangian_destroy(s);
}

Test(moreau_general, theta_one_is_order_one_too)
{
    nsdae_lagrangian *s = curved_ball();
    const long N[] = {100, 200, 500, 1000, 2000, 5000, 10000};
    double h[7], e[7], x_ex, xd_ex;
    ball_after_first_impact(1.0, &x_ex, &xd_ex);
    for (int i = 0; i < 7; i++) {
        nsdae_moreau_options o;
        nsdae_moreau_defaults(&o);
        o.theta = 1.0;
        o.stop = 1.0;
        o.nsteps = N[i];
        double q, v;
        nsdae_error err = {0};
        cr_assert_eq(nsdae_moreau_run(s, &o, NULL, NULL, &q, &v, NULL, &err), NSDAE_OK, "%s", err.message);
        h[i] = 1.0 / (double)o.nsteps;
        e[i] = fabs(phi(q) - x_ex) + fabs(dphi(q) * v - xd_ex);
        printf("theta = 1: h = %8.2e error %12.6e error/h %8.4f\n", h[i], e[i], e[i] / h[i]);
        cr_expect(e[i] <= 50.0 * h[i], "h = %g: error %g", h[i], e[i]);
    }
    double order = nsdae_order_fit(h, e, 7, NULL);
    printf("theta = 1: fitted order %.3f\n", order);
    cr_expect(order > 0.8 && order < 1.2, "fitted order %g", order);
    nsdae_lagrangian_destroy(s);
}

Test(moreau_general, rejects_bad_input)
{
    nsdae_lagrangian *s = curved_ball();
    nsdae_moreau_options o;
    nsdae_error err = {0};
    nsdae_moreau_defaults(&o);
    o.theta = 0.3;
    cr_expect_eq(nsdae_moreau_run(s, &o, NULL, NULL, NULL, NULL, NULL, &err), NSDAE_INVALID_INPUT);
    cr_expect(strstr(err.message, "theta") != NULL, "%s", err.message);
    nsdae_moreau_defaults(&o);
    o.stop = -1.0;
    cr_expect_eq(nsdae_moreau_run(s, &o, NULL, NULL, NULL, NULL, NULL, &err), NSDAE_INVALID_INPUT);
    nsdae_moreau_defaults(&o);
    s->restitution[0] = 1.5;
    cr_expect_eq(nsdae_moreau_run(s, &o, NULL, NULL, NULL, NULL, NULL, &err), NSDAE_INVALID_INPUT);
    cr_expect(strstr(err.message, "restitution") != NULL, "%s", err.message);
    s->restitution[0] = 0.9;
    s->gap_jacobian = NULL;
    cr_expect_eq(nsdae_moreau_run(s, &o, NULL, NULL, NULL, NULL, NULL, &err), NSDAE_INVALID_INPUT);
    nsdae_lagrangian_destroy(s);
    nsdae_lagrangian *bad = NULL;
    cr_expect_eq(nsdae_lagrangian_create(0, 1, &bad, &err), NSDAE_INVALID_INPUT);
    cr_expect_null(bad);
}

/* A mass matrix that stops being positive definite below s = 0.5: a numerical failure with the
 * time and state in the message; the steps before it were delivered. */
static int failing_mass(const double *q, double *M, void *ctx)
{
    (void)ctx;
    M[0] = q[0] > 0.5 ? 1.0 : -1.0;
    return 0;
}

static int count(const nsdae_contact_record *r, void *ctx)
{
    (void)r;
    ++*(long *)ctx;
    return 0;
}

Test(moreau_general, failure_reports_time_and_state)
{
    nsdae_lagrangian *s = curved_ball();
    s->mass = failing_mass;
    nsdae_moreau_options o;
    nsdae_moreau_defaults(&o);
    o.stop = 1.0;
    o.nsteps = 1000;
    long delivered = 0;
    nsdae_moreau_summary sum;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_moreau_run(s, &o, count, &delivered, NULL, NULL, &sum, &err), NSDAE_NUMERICAL);
    cr_expect(strstr(err.message, "t = ") != NULL && strstr(err.message, "positive definite") != NULL, "%s",
              err.message);
    cr_expect(sum.steps > 10 && delivered == sum.steps + 1, "steps %ld, delivered %ld", sum.steps, delivered);
    nsdae_lagrangian_destroy(s);
}

/* A body squeezed between a floor (gap q) and a ceiling (gap c - q) that overlap (c < 0), both
 * active, floor inelastic and ceiling elastic, moving up: the step's LCP asks
 * w_floor + w_ceiling = (e_floor - e_ceiling) v_k = -v_k < 0 with both w >= 0: no solution. */
static int plain_mass(const double *q, double *M, void *ctx)
{
    (void)q; (void)ctx;
    M[0] = 1.0;
    return 0;
}

static int gravity(double t, const double *q, const double *v, double *F, void *ctx)
{
    (void)t; (void)q; (void)v; (void)ctx;
    F[0] = -9.81;
    return 0;
}

static int squeeze_gaps(const double *q, double *g, void *ctx)
{
    (void)ctx;
    g[0] = q[0];
    g[1] = -0.02 - q[0];
    return 0;
}

static int squeeze_jacobian(const double *q, double *G, void *ctx)
{
    (void)q; (void)ctx;
    G[0] = 1.0;
    G[1] = -1.0;
    return 0;
}

Test(moreau_general, lcp_without_solution_is_reported)
{
    nsdae_lagrangian *s = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_lagrangian_create(1, 2, &s, &err), NSDAE_OK);
    s->mass = plain_mass;
    s->mass_constant = 1;
    s->forces = gravity;
    s->gaps = squeeze_gaps;
    s->gap_jacobian = squeeze_jacobian;
    s->q0[0] = -0.01;
    s->v0[0] = 0.1;
    s->restitution[0] = 0.0;
    s->restitution[1] = 1.0;
    cr_assert_eq(nsdae_lagrangian_set_name(s, 'q', 0, "height", &err), NSDAE_OK);
    nsdae_moreau_options o;
    nsdae_moreau_defaults(&o);
    o.nsteps = 100;
    long delivered = 0;
    cr_assert_eq(nsdae_moreau_run(s, &o, count, &delivered, NULL, NULL, NULL, &err), NSDAE_NO_SOLUTION, "%s",
                 err.message);
    cr_expect(strstr(err.message, "t = 0") != NULL && strstr(err.message, "height=-0.01") != NULL, "%s",
              err.message);
    cr_expect_eq(delivered, 1); /* the initial state */
    nsdae_lagrangian_destroy(s);
}

/* Several contacts solved together (the LCP path with m > 1): two balls stacked at rest on the
 * ground stay at rest, and the percussions carry their weights: P_ground = 2 m g h, P_12 = m g h. */
static int two_forces(double t, const double *q, const double *v, double *F, void *ctx)
{
    (void)t; (void)q; (void)v; (void)ctx;
    F[0] = F[1] = -9.81;
    return 0;
}

static int two_mass(const double *q, double *M, void *ctx)
{
    (void)q; (void)ctx;
    M[0] = M[3] = 1.0;
    M[1] = M[2] = 0.0;
    return 0;
}

static int two_gaps(const double *q, double *g, void *ctx)
{
    (void)ctx;
    g[0] = q[0];
    g[1] = q[1] - q[0];
    return 0;
}

static int two_jacobian(const double *q, double *G, void *ctx)
{
    (void)q; (void)ctx;
    G[0] = 1.0; G[1] = -1.0; /* column 0: d/dq0 */
    G[2] = 0.0; G[3] = 1.0;  /* column 1: d/dq1 */
    return 0;
}

static int stack_check(const nsdae_contact_record *r, void *ctx)
{
    (void)ctx;
    if (r->k == 0) return 0;
    const double h = 0.01, mg = 9.81;
    cr_expect_eq(r->nactive, 2);
    cr_expect(fabs(r->P[0] - 2.0 * mg * h) < 1e-13 && fabs(r->P[1] - mg * h) < 1e-13, "P = (%g, %g)", r->P[0],
              r->P[1]);
    cr_expect(fabs(r->v[0]) < 1e-14 && fabs(r->v[1]) < 1e-14);
    cr_expect(r->residual < 1e-12);
    return 0;
}

Test(moreau_general, stacked_balls_two_contacts)
{
    nsdae_lagrangian *s = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_lagrangian_create(2, 2, &s, &err), NSDAE_OK);
    s->mass = two_mass;
    s->forces = two_forces;
    s->gaps = two_gaps;
    s->gap_jacobian = two_jacobian;
    s->restitution[0] = 0.5;
    s->restitution[1] = 0.7;
    nsdae_moreau_options o;
    nsdae_moreau_defaults(&o);
    o.stop = 1.0;
    o.nsteps = 100;
    double q[2];
    cr_assert_eq(nsdae_moreau_run(s, &o, stack_check, NULL, q, NULL, NULL, &err), NSDAE_OK, "%s", err.message);
    cr_expect(fabs(q[0]) < 1e-14 && fabs(q[1]) < 1e-14);
    nsdae_lagrangian_destroy(s);
}
