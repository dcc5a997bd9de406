/* The event-driven engine on the cup-and-ball (examples/cup_and_ball.nsm: L = 1, m = 1, g = 9.81,
 * start (0.5, -0.7) at velocity (1, -1), T = 2) against closed forms computed here:
 *   - free flight is the parabola p(t) = p0 + v0 t - (0, g t^2 / 2); the rope becomes taut where
 *     |p(t)| = L, solved below by bracketing and bisection on that parabola;
 *   - the impact (Benveniste et al. 2026 (49), (238); digest 2.9): v+ = v- - (1 + e)(p.v- / L^2) p;
 *   - with the rope taut (e = 0) the ball is the planar pendulum theta'' = -(g / L) sin(theta),
 *     integrated here by RK4 with a step of 1e-5 (error ~1e-15), started from the closed-form impact;
 *     rope length and energy are invariants of that mode;
 *   - with e = 1 the rope never stays taut: a chain of parabolas joined by the impact law.
 * Event times to 1e-8 relative, states on the grid to 1e-7. */
#include <criterion/criterion.h>

#include "../lagrangian/lag_helpers.h"
#include <nsdae/eventdriven.h>

#include <math.h>
#include <string.h>

#define G 9.81
#define L 1.0
#define MAXIMP 16

/* ---- closed forms ------------------------------------------------------------------------ */

typedef struct flight { double t0, p[2], v[2]; } flight;   /* a parabola from (t0, p, v) */

static void flight_at(const flight *f, double t, double *p, double *v)
{
    double s = t - f->t0;
    p[0] = f->p[0] + f->v[0] * s;
    p[1] = f->p[1] + f->v[1] * s - 0.5 * G * s * s;
    v[0] = f->v[0];
    v[1] = f->v[1] - G * s;
}

static double flight_gap(const flight *f, double t)
{
    double p[2], v[2];
    flight_at(f, t, p, v);
    return L * L - (p[0] * p[0] + p[1] * p[1]);
}

/* The first time after f->t0 where the parabola reaches |p| = L: scanned on a fine grid for the sign
 * change of the gap (the flight may start on the circle), then bisection to the last bit. */
static double flight_impact(const flight *f)
{
    double a = f->t0 + 1e-9, da = 1e-3;
    while (flight_gap(f, a + da) > 0) a += da;
    double lo = a, hi = a + da;
    for (int it = 0; it < 200 && hi - lo > 0; it++) {
        double mid = 0.5 * (lo + hi);
        if (mid == lo || mid == hi) break;
        if (flight_gap(f, mid) > 0) lo = mid;
        else hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* Newton's impact law on the rope (digest 2.9). */
static void impact_velocity(const double *p, const double *vm, double e, double *vp)
{
    double pv = (p[0] * vm[0] + p[1] * vm[1]) / (L * L);
    vp[0] = vm[0] - (1 + e) * pv * p[0];
    vp[1] = vm[1] - (1 + e) * pv * p[1];
}

/* theta'' = -(g/L) sin theta by RK4, from (th, om) over dt in steps of at most 1e-5. */
static void pendulum_advance(double *th, double *om, double dt)
{
    int n = (int)ceil(fabs(dt) / 1e-5);
    if (n == 0) return;
    double h = dt / n, x = *th, w = *om;
    for (int i = 0; i < n; i++) {
        double k1x = w, k1w = -(G / L) * sin(x);
        double k2x = w + 0.5 * h * k1w, k2w = -(G / L) * sin(x + 0.5 * h * k1x);
        double k3x = w + 0.5 * h * k2w, k3w = -(G / L) * sin(x + 0.5 * h * k2x);
        double k4x = w + h * k3w, k4w = -(G / L) * sin(x + h * k3x);
        x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x);
        w += h / 6 * (k1w + 2 * k2w + 2 * k3w + k4w);
    }
    *th = x;
    *om = w;
}

/* ---- the run --------------------------------------------------------------------------- */

typedef struct cup_log {
    double ev_t[MAXIMP], ev_pre[MAXIMP][4], ev_post[MAXIMP][4];
    nsdae_event_kind ev_kind[MAXIMP];
    char ev_to[MAXIMP][8];
    int nev;
    /* e = 0: the pendulum reference, advanced row by row */
    int pendulum;
    double t_ref, th, om, energy;
    /* e = 1: the closed-form flights */
    flight fl[MAXIMP + 1];
    int nfl;
    double t_imp[MAXIMP];
    /* errors over the rows */
    double max_state, max_angle, max_length, max_energy;
    long rows;
    double last_t;
} cup_log;

static void flight_error(cup_log *l, const flight *f, const nsdae_contact_record *rec)
{
    double p[2], v[2];
    flight_at(f, rec->t, p, v);
    for (int j = 0; j < 2; j++) {
        l->max_state = fmax(l->max_state, fabs(rec->q[j] - p[j]) / (1 + fabs(p[j])));
        l->max_state = fmax(l->max_state, fabs(rec->v[j] - v[j]) / (1 + fabs(v[j])));
    }
}

static int on_row(const nsdae_contact_record *rec, void *ctx)
{
    cup_log *l = ctx;
    l->rows++;
    l->last_t = rec->t;
    /* the flight that holds t; the left-limit and restart rows at an impact are checked with the
     * event (the engine's instant differs from the closed form's by ~1e-10) */
    int k = 0;
    while (k < l->nfl - 1 && rec->t > l->t_imp[k]) k++;
    for (int i = 0; i < l->nfl - 1; i++)
        if (fabs(rec->t - l->t_imp[i]) < 1e-8) return 0;
    if (!l->pendulum || rec->t <= l->t_imp[0]) {
        flight_error(l, &l->fl[k], rec);
        return 0;
    }
    pendulum_advance(&l->th, &l->om, rec->t - l->t_ref);
    l->t_ref = rec->t;
    double x = rec->q[0], y = rec->q[1], vx = rec->v[0], vy = rec->v[1];
    l->max_angle = fmax(l->max_angle, fabs(atan2(x, -y) - l->th));
    l->max_state = fmax(l->max_state, fabs(x - L * sin(l->th)) + fabs(y + L * cos(l->th)));
    l->max_length = fmax(l->max_length, fabs(hypot(x, y) - L));
    double E = 0.5 * (vx * vx + vy * vy) + G * y;
    l->max_energy = fmax(l->max_energy, fabs(E - l->energy) / fabs(l->energy));
    return 0;
}

static int on_event(const nsdae_event_record *ev, void *ctx)
{
    cup_log *l = ctx;
    cr_assert_eq(ev->nstates, 4);
    if (l->nev < MAXIMP) {
        l->ev_t[l->nev] = ev->t;
        l->ev_kind[l->nev] = ev->kind;
        snprintf(l->ev_to[l->nev], sizeof l->ev_to[0], "%s", ev->to);
        memcpy(l->ev_pre[l->nev], ev->pre, 4 * sizeof(double));
        memcpy(l->ev_post[l->nev], ev->post, 4 * sizeof(double));
    }
    l->nev++;
    return 0;
}

/* The closed-form flights and impacts from the model's start, nimp impacts with restitution e. */
static void closed_form(cup_log *l, double e, int nimp)
{
    l->fl[0] = (flight){0.0, {0.5, -0.7}, {1.0, -1.0}};
    l->nfl = 1;
    for (int k = 0; k < nimp; k++) {
        double t = flight_impact(&l->fl[k]), p[2], v[2], vp[2];
        flight_at(&l->fl[k], t, p, v);
        impact_velocity(p, v, e, vp);
        l->t_imp[k] = t;
        l->fl[k + 1] = (flight){t, {p[0], p[1]}, {vp[0], vp[1]}};
        l->nfl++;
    }
}

static nsdae_events_linsol cup_linsol = NSDAE_EVENTS_LINSOL_AUTO;   /* each test runs with DENSE and SPARSE */

static void run_cup(double e, cup_log *l, nsdae_events_summary *sum)
{
    nsdae_param_value pe = {"e", e};
    nsdae_lagrangian *s = lag_example("cup_and_ball", &pe, 1);
    cr_assert_eq(s->ndof, 2);
    cr_assert_eq(s->ncontacts, 1);
    cr_assert(fabs(s->restitution[0] - e) < 1e-15);
    nsdae_events_options o;
    nsdae_events_defaults(&o);
    o.linsol = cup_linsol;
    o.stop = 2;
    o.nsteps = 2000;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_events_run_contact(s, &o, on_row, on_event, l, sum, &err), NSDAE_OK, "e = %g: %s", e, err.message);
    cr_expect(fabs(sum->t_end - 2.0) < 1e-15, "the run reaches T: %.17g", sum->t_end);
    cr_expect(fabs(l->last_t - 2.0) < 1e-15);
    nsdae_lagrangian_destroy(s);
}

static void expect_impact(const cup_log *l, int k, double e)
{
    const flight *f = &l->fl[k + 1];   /* starts at the closed-form impact k with v+ */
    double t = l->t_imp[k];
    cr_expect_eq(l->ev_kind[k], NSDAE_EVENT_IMPACT, "event %d is an impact", k);
    cr_expect(fabs(l->ev_t[k] - t) <= 1e-8 * t, "impact %d at %.15g, closed form %.15g", k, l->ev_t[k], t);
    double pm[2], vm[2];
    flight_at(&l->fl[k], t, pm, vm);
    for (int j = 0; j < 2; j++)
        cr_expect(fabs(l->ev_pre[k][2 + j] - vm[j]) < 1e-7, "impact %d: v-_%d = %.15g, closed form %.15g", k, j,
                  l->ev_pre[k][2 + j], vm[j]);
    /* v+ from the digest's formula applied to the engine's own left limits at its contact instant */
    double vp[2];
    impact_velocity(l->ev_pre[k], l->ev_pre[k] + 2, e, vp);
    for (int j = 0; j < 2; j++) {
        cr_expect(fabs(l->ev_post[k][2 + j] - vp[j]) < 1e-9, "impact %d: v+_%d = %.15g, law %.15g", k, j,
                  l->ev_post[k][2 + j], vp[j]);
        cr_expect(fabs(l->ev_post[k][2 + j] - f->v[j]) < 1e-7, "impact %d: v+_%d = %.15g, closed form %.15g", k, j,
                  l->ev_post[k][2 + j], f->v[j]);
        cr_expect(fabs(l->ev_post[k][j] - f->p[j]) < 1e-8, "impact %d: q_%d = %.15g, closed form %.15g", k, j,
                  l->ev_post[k][j], f->p[j]);
    }
}

static void inelastic_impact_then_the_exact_pendulum(void)
{
    cup_log l;
    memset(&l, 0, sizeof l);
    closed_form(&l, 0.0, 1);
    /* the pendulum from the closed-form impact: theta from the downward vertical, omega = (p x v) / L^2 */
    const flight *f = &l.fl[1];
    l.pendulum = 1;
    l.t_ref = f->t0;
    l.th = atan2(f->p[0], -f->p[1]);
    l.om = (f->p[0] * f->v[1] - f->p[1] * f->v[0]) / (L * L);
    l.energy = 0.5 * (f->v[0] * f->v[0] + f->v[1] * f->v[1]) + G * f->p[1];
    nsdae_events_summary sum;
    run_cup(0.0, &l, &sum);
    /* E = -7.96 against the top of the swing: |theta| stays below 36 degrees, the rope stays taut */
    cr_assert_eq(l.nev, 1, "one impact, then the rope stays taut: %d events", l.nev);
    expect_impact(&l, 0, 0.0);
    cr_expect_str_eq(l.ev_to[0], "c");
    cr_expect(l.max_angle < 1e-7, "angle against the pendulum ODE: %.3g", l.max_angle);
    cr_expect(l.max_state < 1e-7, "states against the closed forms: %.3g", l.max_state);
    cr_expect(l.max_length < 1e-8, "rope length: %.3g", l.max_length);
    cr_expect(l.max_energy < 1e-8, "energy (relative): %.3g", l.max_energy);
    cr_expect_eq(sum.modes_visited, 2);
    cr_expect(l.rows >= 2003, "grid rows plus the left-limit and restart rows: %ld", l.rows);
}

static void elastic_impacts_are_a_chain_of_parabolas(void)
{
    cup_log l;
    memset(&l, 0, sizeof l);
    /* the closed-form chain up to T: 5 impacts in (0, 2] */
    closed_form(&l, 1.0, 6);
    int n = 0;
    while (n < 6 && l.t_imp[n] <= 2.0) n++;
    l.nfl = n + 1;
    nsdae_events_summary sum;
    run_cup(1.0, &l, &sum);
    cr_assert_eq(l.nev, n, "%d impacts, closed form %d", l.nev, n);
    for (int k = 0; k < n; k++) {
        expect_impact(&l, k, 1.0);
        cr_expect_str_eq(l.ev_to[k], "o", "an elastic rope goes slack again");
    }
    cr_expect(l.max_state < 1e-7, "states against the parabolas: %.3g", l.max_state);
}

/* The digest's oracle (2.9): without gravity, the ball at (0.6, -0.8) on the circle with velocity
 * (1, -1): v+ = (0.16, 0.12) for e = 0 and (-0.68, 1.24) for e = 1. */
static void digest_case(double e, const double *want, const char *mode)
{
    nsdae_param_value p[] = {{"e", e}, {"g", 0.0}, {"x0", 0.6}, {"y0", -0.8}};
    nsdae_lagrangian *s = lag_example("cup_and_ball", p, 4);
    cup_log l;
    memset(&l, 0, sizeof l);
    l.fl[0] = (flight){0.0, {0.6, -0.8}, {1.0, -1.0}};   /* only the rows' bookkeeping; not checked */
    l.nfl = 1;
    l.t_imp[0] = INFINITY;
    nsdae_events_options o;
    nsdae_events_defaults(&o);
    o.linsol = cup_linsol;
    o.stop = 0.1;
    o.nsteps = 10;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_events_run_contact(s, &o, on_row, on_event, &l, NULL, &err), NSDAE_OK, "%s", err.message);
    cr_assert(l.nev >= 1);
    cr_expect_eq(l.ev_t[0], 0.0);
    cr_expect_str_eq(l.ev_to[0], mode);
    for (int j = 0; j < 2; j++)
        cr_expect(fabs(l.ev_post[0][2 + j] - want[j]) < 1e-12, "e = %g: v+_%d = %.15g, digest %g", e, j,
                  l.ev_post[0][2 + j], want[j]);
    nsdae_lagrangian_destroy(s);
}

static void digest_restart_values(void)
{
    const double inelastic[] = {0.16, 0.12}, elastic[] = {-0.68, 1.24};
    digest_case(0.0, inelastic, "c");
    digest_case(1.0, elastic, "o");
}

/* Each case on the dense Newton systems and on KLU with the compressed columns: the same criteria. */
#define BOTH(name)                                                                                                     \
    Test(eventdriven_cup, name)                                                                                        \
    {                                                                                                                  \
        cup_linsol = NSDAE_EVENTS_LINSOL_DENSE;                                                                        \
        name();                                                                                                        \
    }                                                                                                                  \
    Test(eventdriven_cup, name##_sparse)                                                                               \
    {                                                                                                                  \
        cup_linsol = NSDAE_EVENTS_LINSOL_SPARSE;                                                                       \
        name();                                                                                                        \
    }
BOTH(inelastic_impact_then_the_exact_pendulum)
BOTH(elastic_impacts_are_a_chain_of_parabolas)
BOTH(digest_restart_values)
