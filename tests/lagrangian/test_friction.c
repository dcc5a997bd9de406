/* Coulomb friction in the contact form (issue 15 item 3) against closed forms: a block on an
 * incline (examples/incline.nsm: stick/slip threshold tan(alpha) <= mu, the sliding acceleration
 * g (sin - mu cos), the distance at T, O(h) across the stop), a solid ball landing with a horizontal
 * velocity (examples/rolling_ball.nsm: sliding then rolling at 5/7 v0 from t = v0 / (mu g 7/2)),
 * and the energy, which never increases when e = 0. */
#include "lag_helpers.h"

#include <nsdae/moreau.h>
#include <nsdae/order_fit.h>

#include <math.h>
#include <stdlib.h>

#define G 9.81

typedef struct probe {
    const nsdae_lagrangian *s;
    double (*energy)(const double *q, const double *v, const nsdae_lagrangian *s);
    double last_energy, worst_rise;
    double t_roll;            /* ball: first time the contact point stops sliding (NAN before) */
    double worst_invariant;   /* ball: |m x' - (I/r) phi' - m v0| */
    double worst_residual;
    long steps;
} probe;

static double incline_energy(const double *q, const double *v, const nsdae_lagrangian *s)
{
    (void)s;
    const double alpha = 0.5; /* height above the start: x sin(alpha) + y cos(alpha); m = 1 */
    return 0.5 * (v[0] * v[0] + v[1] * v[1]) + G * (sin(alpha) * q[0] + cos(alpha) * q[1]);
}

/* m = 1, r = 0.1, I = 2/5 m r^2 (the example's values) */
#define BALL_R 0.1
#define BALL_I (0.4 * BALL_R * BALL_R)
static double ball_energy(const double *q, const double *v, const nsdae_lagrangian *s)
{
    (void)s;
    return 0.5 * (v[0] * v[0] + v[1] * v[1]) + 0.5 * BALL_I * v[2] * v[2] + G * q[1];
}

static int on_step(const nsdae_contact_record *r, void *ctx)
{
    probe *p = ctx;
    double e = p->energy(r->q, r->v, p->s);
    if (r->k > 0) p->worst_rise = fmax(p->worst_rise, e - p->last_energy);
    p->last_energy = e;
    p->worst_residual = fmax(p->worst_residual, r->residual);
    if (p->s->ndof == 3) {
        if (isnan(p->t_roll) && r->active[0] && fabs(r->v[0] + BALL_R * r->v[2]) < 1e-9) p->t_roll = r->t;
        p->worst_invariant = fmax(p->worst_invariant, fabs(r->v[0] - BALL_I / BALL_R * r->v[2] - 3.0));
    }
    p->steps = r->k;
    return 0;
}

static probe run(const nsdae_lagrangian *s, double theta, double stop, long nsteps, double *q, double *v)
{
    probe p = {s, s->ndof == 3 ? ball_energy : incline_energy, 0, 0, NAN, 0, 0, 0};
    nsdae_moreau_options o;
    nsdae_moreau_defaults(&o);
    o.theta = theta;
    o.stop = stop;
    o.nsteps = nsteps;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_moreau_run(s, &o, on_step, &p, q, v, NULL, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(p.steps, nsteps);
    return p;
}

/* distance along the slope of the incline model (it is written in the plane's frame) */
static double along(const double *q, double alpha)
{
    (void)alpha;
    return q[0];
}

static nsdae_lagrangian *incline(double mu, double v0)
{
    const nsdae_param_value p[] = {{"mu", mu}, {"v0", v0}};
    return lag_example("incline", p, 2);
}

Test(friction, incline_from_rest_sticks_iff_tan_alpha_le_mu)
{
    const double alpha = 0.5, T = 2.0;
    const double mus[] = {tan(alpha) + 0.1, tan(alpha), tan(alpha) - 0.1, 0.0};
    for (int k = 0; k < 4; k++) {
        nsdae_lagrangian *s = incline(mus[k], 0.0);
        double q[2], v[2];
        probe p = run(s, 0.5, T, 200, q, v);
        /* sliding: constant acceleration, which the scheme integrates exactly (no event on the way) */
        double a = G * (sin(alpha) - mus[k] * cos(alpha));
        double expect = a <= 0.0 ? 0.0 : -0.5 * a * T * T;
        cr_expect(fabs(along(q, alpha) - expect) < 1e-10, "mu = %.17g: s(T) = %.17g, closed form %.17g", mus[k],
                  along(q, alpha), expect);
        cr_expect(fabs(q[1]) < 1e-12, "the block left the plane: y = %g", q[1]);
        cr_expect(p.worst_residual < 1e-12, "Coulomb law violated by %g", p.worst_residual);
        nsdae_lagrangian_destroy(s);
    }
}

/* Launched up the slope at v0: it stops at t1 = v0 / a_up, then slides back (mu < tan alpha) or
 * sticks. The scheme is exact on either side of t1, so the error comes from the step holding t1:
 * O(h), with a constant that depends on where t1 falls in its step. Grids with t1 = (N + 1/2) h
 * keep that phase fixed, so the error is C h^p exactly: p = 1 when it slides back (the velocity
 * after the step is off by O(h) and the rest of the motion carries it); when it sticks only the
 * position reached in the stop step is off, by a_up h^2 / 8 at this phase (p = 2). */
static void launched_up(double mu, double *order, double *err_fine)
{
    const double alpha = 0.5, v0 = 2.0;
    const double a_up = G * (sin(alpha) + mu * cos(alpha)), a_down = G * (sin(alpha) - mu * cos(alpha));
    const double t1 = v0 / a_up, s1 = v0 * v0 / (2.0 * a_up), T = 6.0 * t1;
    const double exact = a_down > 0.0 ? s1 - 0.5 * a_down * (T - t1) * (T - t1) : s1;
    double hs[6], errs[6];
    nsdae_lagrangian *s = incline(mu, v0);
    for (int k = 0; k < 6; k++) {
        long N = 10L << k;
        long nsteps = 6 * N + 3; /* h = t1 / (N + 1/2) */
        double q[2], v[2];
        probe p = run(s, 0.5, T, nsteps, q, v);
        hs[k] = T / (double)nsteps;
        errs[k] = fabs(along(q, alpha) - exact);
        cr_expect(p.worst_residual < 1e-12);
    }
    int used = 0;
    *order = nsdae_order_fit(hs, errs, 6, &used);
    *err_fine = errs[5];
    cr_expect_eq(used, 6);
    nsdae_lagrangian_destroy(s);
}

Test(friction, incline_launched_up_slides_back_at_order_one)
{
    double order, fine;
    launched_up(0.3, &order, &fine);
    cr_expect(fabs(order - 1.0) < 0.05, "fitted order %g", order);
    cr_expect(fine < 1e-2, "error %g at the finest step", fine);
}

Test(friction, incline_launched_up_sticks_at_order_two_at_this_phase)
{
    double order, fine;
    launched_up(0.6, &order, &fine); /* tan(0.5) = 0.546 < 0.6 */
    cr_expect(fabs(order - 2.0) < 0.05, "fitted order %g", order);
    cr_expect(fine < 1e-2, "error %g at the finest step", fine);
}

/* The ball: rolling at 5/7 v0 (m x' - (I/r) phi' is conserved exactly by the scheme, and rolling
 * means x' + r phi' = 0), from t_roll = v0 / (mu g 7/2) within a step or two. */
Test(friction, ball_slides_then_rolls_at_five_sevenths)
{
    nsdae_lagrangian *s = lag_example("rolling_ball", NULL, 0);
    const double v0 = 3.0, mu = 0.2, t_roll = v0 / (mu * G * 3.5);
    const long steps[] = {1000, 10000};
    for (int k = 0; k < 2; k++) {
        double q[3], v[3], h = 1.0 / (double)steps[k];
        probe p = run(s, 0.5, 1.0, steps[k], q, v);
        cr_expect(fabs(v[0] - 5.0 / 7.0 * v0) < 1e-12, "rolling velocity %.17g, 5/7 v0 = %.17g", v[0], 5.0 / 7.0 * v0);
        cr_expect(fabs(v[0] + BALL_R * v[2]) < 1e-12, "still sliding at T: %g", v[0] + BALL_R * v[2]);
        cr_expect(p.worst_invariant < 1e-12, "m x' - (I/r) phi' drifted by %g", p.worst_invariant);
        cr_expect(fabs(p.t_roll - t_roll) <= 2.0 * h, "h = %g: rolling from %.6f, closed form %.6f", h, p.t_roll,
                  t_roll);
        /* Moreau-Jean keeps the penetration of the landing step (velocity-level law): under g ti h */
        cr_expect(q[1] <= BALL_R && BALL_R - q[1] < G * sqrt(2.0 * 0.2 / G) * h, "h = %g: y = %.17g", h, q[1]);
    }
    nsdae_lagrangian_destroy(s);
}

/* e = 0, theta = 1, constant forces: the step changes the energy by P.(H v_{k+1}) - |dv|^2_M / 2,
 * and P_n u_n = 0 (e = 0), P_t u_t = -mu P_n |u_t| <= 0 (Coulomb): it can only decrease. With
 * theta = 1/2 the change is P.(H (v_k + v_{k+1})) / 2, <= 0 as long as the slip keeps its sign
 * within a step, which the ball does (sliding forward until it rolls). */
Test(friction, energy_never_increases_with_e_zero)
{
    nsdae_lagrangian *ball = lag_example("rolling_ball", NULL, 0), *block = incline(0.3, 2.0);
    double q[3], v[3];
    const double thetas[] = {1.0, 0.5};
    for (int k = 0; k < 2; k++) {
        probe p = run(ball, thetas[k], 1.0, 1000, q, v);
        cr_expect(p.worst_rise <= 1e-12, "ball, theta %g: the energy rose by %g", thetas[k], p.worst_rise);
    }
    probe p = run(block, 1.0, 2.0, 1000, q, v);
    cr_expect(p.worst_rise <= 1e-12, "incline, theta 1: the energy rose by %g", p.worst_rise);
    /* the energy did go down: friction works */
    cr_expect(p.last_energy < 0.5 * 4.0 - 1.0, "incline: energy %g at T", p.last_energy);
    nsdae_lagrangian_destroy(ball);
    nsdae_lagrangian_destroy(block);
}

/* Two frictional contacts active together: a bar lying on its two ends, tied to a wall by a spring
 * (tests/contact/models/bar_on_two_feet.nsm), every step a facet LCP of two contacts. By symmetry
 * it stays flat on the ground (y = th = 0: a contact opened for a step by round-off would drop it
 * by g h^2 / 2 = 5e-6), the ends share the weight, and the friction totals mu m g while it slides:
 * the oscillator of examples/coulomb_friction.nsm (m = 1, k = 10, Fc = mu m g = 2.943), whose
 * closed form gives x = 2 Fc / k - x0 = -0.4114 at t = pi / sqrt(k / m), then the stick at
 * x0 - 4 Fc / k = -0.1772 from t = 2 pi / sqrt(k / m) on. Sticking, the split of the friction
 * between the ends is not unique: only the laws and the totals are checked. */
typedef struct bar_probe {
    double xmin, tmin, worst_flat, worst_weight, worst_cone;
    long both_active;
} bar_probe;

static int on_bar_step(const nsdae_contact_record *r, void *ctx)
{
    bar_probe *b = ctx;
    if (r->k == 0) return 0;
    const double h = 1e-3, mu = 0.3, pn = r->P[0] + r->P[1], pt = r->Pt[0] + r->Pt[1];
    if (r->q[0] < b->xmin) {
        b->xmin = r->q[0];
        b->tmin = r->t;
    }
    b->worst_flat = fmax(b->worst_flat, fmax(fabs(r->q[1]), fabs(r->q[2])));
    b->worst_weight = fmax(b->worst_weight, fabs(pn - G * h));
    for (int c = 0; c < 2; c++) b->worst_cone = fmax(b->worst_cone, fabs(r->Pt[c]) - mu * r->P[c]);
    /* sliding (the bar moves): the friction is the cone's edge, against the velocity */
    if (fabs(r->v[0]) > 1e-6) b->worst_cone = fmax(b->worst_cone, fabs(pt + copysign(mu * pn, r->v[0])));
    b->both_active += r->active[0] && r->active[1];
    return 0;
}

Test(friction, bar_on_two_feet_is_the_coulomb_oscillator)
{
    nsdae_lagrangian *s = lag_file(NSDAE_SOURCE_DIR "/tests/contact/models/bar_on_two_feet.nsm", NULL, 0);
    nsdae_moreau_options o;
    nsdae_moreau_defaults(&o);
    o.theta = 0.5;
    o.stop = 3.0;
    o.nsteps = 3000;
    bar_probe b = {INFINITY, 0, 0, 0, 0, 0};
    double q[3], v[3];
    nsdae_error err = {0};
    nsdae_moreau_summary sum;
    cr_assert_eq(nsdae_moreau_run(s, &o, on_bar_step, &b, q, v, &sum, &err), NSDAE_OK, "%s", err.message);
    const double Fc = 0.3 * G, k = 10.0, w = sqrt(k);
    cr_expect_eq(b.both_active, 3000, "both ends in contact at every step: %ld", b.both_active);
    cr_expect(b.worst_flat < 1e-9, "the bar left the ground or tilted: %g", b.worst_flat);
    cr_expect(b.worst_weight < 1e-12, "the ends carry m g h + %g", b.worst_weight);
    cr_expect(b.worst_cone < 1e-12, "Coulomb's law violated by %g", b.worst_cone);
    cr_expect(fabs(b.xmin - (2.0 * Fc / k - 1.0)) < 1e-3, "x_min = %.17g, closed form %.17g", b.xmin,
              2.0 * Fc / k - 1.0);
    cr_expect(fabs(b.tmin - acos(-1.0) / w) <= 2e-3, "x_min at t = %.6f, closed form %.6f", b.tmin, acos(-1.0) / w);
    cr_expect(fabs(q[0] - (1.0 - 4.0 * Fc / k)) < 1e-3 && fabs(v[0]) < 1e-9, "x(T) = %.17g, v = %g, stick at %.17g",
              q[0], v[0], 1.0 - 4.0 * Fc / k);
    /* every step's facet LCP by the layer's Lemke, none by a fallback */
    cr_expect_eq(sum.friction_solves, 3000);
    cr_expect_eq(sum.friction_fallbacks, 0);
    nsdae_lagrangian_destroy(s);
}
