/* The event-driven engine on the bouncing ball (q0 = 1, v0 = 0, g = 9.81, e = 0.9) against the closed
 * form: free fall to t1 = sqrt(2 q0 / g), impact k at t_k = t1 + sum_{i<k} 2 e^i v1 / g with
 * v1 = g t1, accumulation at t1 (1 + 2e/(1-e)) = 8.578949 s (DESIGN.md section 8), rest after it. */
#include <criterion/criterion.h>

#include "examples/builtin_contact.h"
#include <nsdae/eventdriven.h>

#include <math.h>
#include <string.h>

#define G 9.81
#define E 0.9

typedef struct ball_log {
    double impact_t[400];
    double pre_v[400], post_v[400];
    int nimpacts;
    int naccumulations;
    double acc_t;
    double last_t, last_q, last_v, max_q_after;
} ball_log;

static int on_row(const nsdae_contact_record *rec, void *p)
{
    ball_log *l = p;
    l->last_t = rec->t;
    l->last_q = rec->q[0];
    l->last_v = rec->v[0];
    if (l->naccumulations && rec->t > l->acc_t) l->max_q_after = fmax(l->max_q_after, fabs(rec->q[0]) + fabs(rec->v[0]));
    return 0;
}

static int on_event(const nsdae_event_record *ev, void *p)
{
    ball_log *l = p;
    if (ev->kind == NSDAE_EVENT_IMPACT && l->nimpacts < 400) {
        l->pre_v[l->nimpacts] = ev->pre[1];
        l->post_v[l->nimpacts] = ev->post[1];
        l->impact_t[l->nimpacts++] = ev->t;
    }
    if (ev->kind == NSDAE_EVENT_ACCUMULATION) {
        l->naccumulations++;
        l->acc_t = ev->t;
    }
    return 0;
}

static nsdae_lagrangian *ball(void)
{
    nsdae_lagrangian *s = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_builtin_contact_create("bouncing-ball", NULL, 0, &s, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(s->ndof, 1);
    cr_assert(fabs(s->q0[0] - 1.0) < 1e-15 && s->v0[0] == 0.0 && fabs(s->restitution[0] - E) < 1e-15);
    return s;
}

/* linsol: the dense Newton systems, or KLU on the compressed columns (the same pass criteria) */
static void impact_times_accumulation_and_rest(nsdae_events_linsol linsol)
{
    nsdae_lagrangian *s = ball();
    nsdae_events_options o;
    nsdae_events_defaults(&o);
    o.linsol = linsol;
    o.stop = 10;
    o.nsteps = 1000;
    ball_log l;
    memset(&l, 0, sizeof l);
    nsdae_events_summary sum;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_events_run_contact(s, &o, on_row, on_event, &l, &sum, &err), NSDAE_OK, "%s", err.message);

    const double t1 = sqrt(2.0 / G), v1 = G * t1, t_acc = t1 * (1 + 2 * E / (1 - E));
    cr_assert(l.nimpacts > 20, "%d impacts", l.nimpacts);
    double tk = t1, u = v1;
    for (int k = 0; k < l.nimpacts && k < 60; k++) {
        cr_expect(fabs(l.impact_t[k] - tk) < 1e-9, "impact %d at %.12f, closed form %.12f", k, l.impact_t[k], tk);
        cr_expect(fabs(l.pre_v[k] + u) < 1e-8 * (1 + u), "impact %d: v- = %.12g, closed form %.12g", k, l.pre_v[k], -u);
        cr_expect(fabs(l.post_v[k] - E * u) < 1e-8 * (1 + u), "impact %d: v+ = %.12g", k, l.post_v[k]);
        tk += 2 * E * u / G;
        u *= E;
    }
    cr_assert_eq(l.naccumulations, 1);
    cr_expect(fabs(l.acc_t - t_acc) < 1e-6, "accumulation at %.9f, closed form %.9f", l.acc_t, t_acc);
    cr_expect(fabs(t_acc - 8.578949) < 5e-7);
    cr_expect(fabs(sum.first_accumulation - t_acc) < 1e-6);
    cr_expect(fabs(l.last_t - 10.0) < 1e-12, "the run reaches T: %.17g", l.last_t);
    cr_expect(l.max_q_after < 1e-9, "at rest after the accumulation: |q| + |v| up to %g", l.max_q_after);
    nsdae_lagrangian_destroy(s);
}

Test(eventdriven_ball, impact_times_accumulation_and_rest)
{
    impact_times_accumulation_and_rest(NSDAE_EVENTS_LINSOL_DENSE);
}

Test(eventdriven_ball, impact_times_accumulation_and_rest_sparse)
{
    impact_times_accumulation_and_rest(NSDAE_EVENTS_LINSOL_SPARSE);
}

Test(eventdriven_ball, stop_at_accumulation_says_so)
{
    nsdae_lagrangian *s = ball();
    nsdae_events_options o;
    nsdae_events_defaults(&o);
    o.stop = 10;
    o.nsteps = 100;
    o.stop_at_accumulation = 1;
    ball_log l;
    memset(&l, 0, sizeof l);
    nsdae_error err = {0};
    cr_assert_eq(nsdae_events_run_contact(s, &o, on_row, on_event, &l, NULL, &err), NSDAE_LIMIT);
    cr_expect(strstr(err.message, "accumulate") != NULL, "%s", err.message);
    cr_expect(l.last_t < 8.58, "rows stop before the accumulation point: %g", l.last_t);
    nsdae_lagrangian_destroy(s);
}
