/* The event-driven contact engine at size, on KLU: N = 300 independent balls (ndof 300, 300
 * contacts, 1200 IDA unknowns) dropped from different heights h_i with different restitutions
 * e_i and masses m_i, against the closed form of each ball: free fall to t_1 = sqrt(2 h_i / g)
 * with v_1 = g t_1, then after impact k (pre-velocity -u_k) the post-velocity e_i u_k, the next
 * impact 2 e_i u_k / g later and u_{k+1} = e_i u_k; between impacts the parabola. The system
 * gives its structure (diagonal M, one gap entry per contact, forces that read no state) and its
 * dense callbacks fail, so the run also shows that nothing of size ndof^2 is evaluated.
 * And a translated system whose forces read the state (the Newton matrix's -dF/dq from the
 * translator's force pattern): 80 independent oscillators x_i'' = -i x_i whose contacts never
 * close, against x_i(t) = cos(sqrt(i) t). */
#include <criterion/criterion.h>

#include <nsdae/eventdriven.h>
#include <nsdae/model.h>
#include <nsdae/translate_lagrangian.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define N 300
#define G 9.81
#define T 0.6   /* before any ball's accumulation point t_1 (1 + e)/(1 - e) >= 0.74 s */
#define MAXIMP 8

static double frac(double x)
{
    return x - floor(x);
}

static double height(int i) { return 0.3 + 0.7 * frac(0.6180339887 * (i + 1)); }
static double restitution(int i) { return 0.5 + 0.4 * frac(0.4142135624 * (i + 1)); }
static double mass(int i) { return 1.0 + 0.5 * (i % 7); }

static int dense_refused(const double *q, double *out, void *ctx)
{
    (void)q, (void)out, (void)ctx;
    return 1;   /* the sparse path reads the patterns only */
}

static int mass_values(const double *q, double *val, void *ctx)
{
    (void)q, (void)ctx;
    for (int i = 0; i < N; i++) val[i] = mass(i);
    return 0;
}

static int forces(double t, const double *q, const double *v, double *F, void *ctx)
{
    (void)t, (void)q, (void)v, (void)ctx;
    for (int i = 0; i < N; i++) F[i] = -mass(i) * G;
    return 0;
}

static int no_force_jacobian(double t, const double *q, const double *v, double *val, void *ctx)
{
    (void)t, (void)q, (void)v, (void)val, (void)ctx;
    return 0;
}

static int gaps(const double *q, double *g, void *ctx)
{
    (void)ctx;
    memcpy(g, q, N * sizeof *g);
    return 0;
}

static int gap_values(const double *q, double *val, void *ctx)
{
    (void)q, (void)ctx;
    for (int i = 0; i < N; i++) val[i] = 1.0;
    return 0;
}

static nsdae_lagrangian *field(void)
{
    nsdae_lagrangian *s = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_lagrangian_create(N, N, &s, &err), NSDAE_OK, "%s", err.message);
    s->mass = dense_refused;
    s->gap_jacobian = dense_refused;
    s->forces = forces;
    s->gaps = gaps;
    s->mass_constant = 1;
    s->gaps_linear = 1;
    s->mass_colptr = malloc((N + 1) * sizeof(int));
    s->mass_rows = malloc(N * sizeof(int));
    s->gap_rowptr = malloc((N + 1) * sizeof(int));
    s->gap_cols = malloc(N * sizeof(int));
    s->force_colptr = calloc(2 * N + 1, sizeof(int));
    cr_assert(s->mass_colptr && s->mass_rows && s->gap_rowptr && s->gap_cols && s->force_colptr);
    for (int i = 0; i <= N; i++) s->mass_colptr[i] = s->gap_rowptr[i] = i;
    for (int i = 0; i < N; i++) {
        s->mass_rows[i] = s->gap_cols[i] = i;
        s->q0[i] = height(i);
        s->restitution[i] = restitution(i);
    }
    s->mass_values = mass_values;
    s->gap_jacobian_values = gap_values;
    s->force_jacobian_values = no_force_jacobian;
    return s;
}

typedef struct field_log {
    double t[N][MAXIMP], pre[N][MAXIMP], post[N][MAXIMP];
    int nimp[N];
    int other_events, multi;
    double q_end[N], v_end[N], t_end;
} field_log;

static int on_row(const nsdae_contact_record *rec, void *p)
{
    field_log *l = p;
    l->t_end = rec->t;
    memcpy(l->q_end, rec->q, N * sizeof(double));
    memcpy(l->v_end, rec->v, N * sizeof(double));
    return 0;
}

static int on_event(const nsdae_event_record *ev, void *p)
{
    field_log *l = p;
    if (ev->kind != NSDAE_EVENT_IMPACT) {
        l->other_events++;
        return 0;
    }
    int hit = 0;
    for (int c = 0; c < N; c++) {
        if (!(ev->impulses[c] > 0)) continue;
        hit++;
        if (l->nimp[c] < MAXIMP) {
            l->t[c][l->nimp[c]] = ev->t;
            l->pre[c][l->nimp[c]] = ev->pre[N + c];
            l->post[c][l->nimp[c]] = ev->post[N + c];
        }
        l->nimp[c]++;
    }
    l->multi += hit > 1;
    return 0;
}

/* Ball i's closed form up to T: impact times, pre- and post-velocities, the state at T. */
static int closed_form(int i, double *t, double *pre, double *post, double *qT, double *vT)
{
    const double e = restitution(i);
    double tk = sqrt(2 * height(i) / G), u = G * tk, t_last = 0, v_last = 0, q_last = height(i);
    int k = 0;
    while (tk <= T && k < MAXIMP) {
        t[k] = tk, pre[k] = -u, post[k] = e * u;
        t_last = tk, v_last = e * u, q_last = 0;
        tk += 2 * e * u / G;
        u *= e;
        k++;
    }
    const double dt = T - t_last;
    *qT = q_last + v_last * dt - 0.5 * G * dt * dt;
    *vT = v_last - G * dt;
    return k;
}

Test(eventdriven_field, three_hundred_balls_on_klu_match_their_closed_forms)
{
    nsdae_lagrangian *s = field();
    nsdae_events_options o;
    nsdae_events_defaults(&o);
    o.linsol = NSDAE_EVENTS_LINSOL_SPARSE;
    o.stop = T;
    o.nsteps = 10;
    field_log *l = calloc(1, sizeof *l);
    cr_assert(l);
    nsdae_events_summary sum;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_events_run_contact(s, &o, on_row, on_event, l, &sum, &err), NSDAE_OK, "%s", err.message);
    cr_expect(fabs(l->t_end - T) < 1e-15, "the run reaches T: %.17g", l->t_end);
    cr_expect_eq(l->other_events, 0, "only impacts (no accumulation, no contact closing)");
    int total = 0;
    double terr = 0, verr = 0, serr = 0;
    for (int i = 0; i < N; i++) {
        double t[MAXIMP], pre[MAXIMP], post[MAXIMP], qT, vT;
        const int k = closed_form(i, t, pre, post, &qT, &vT);
        total += k;
        cr_expect_eq(l->nimp[i], k, "ball %d: %d impacts, closed form %d", i, l->nimp[i], k);
        for (int j = 0; j < k && j < l->nimp[i]; j++) {
            terr = fmax(terr, fabs(l->t[i][j] - t[j]));
            verr = fmax(verr, fmax(fabs(l->pre[i][j] - pre[j]), fabs(l->post[i][j] - post[j])) / (1 + fabs(pre[j])));
        }
        serr = fmax(serr, fmax(fabs(l->q_end[i] - qT), fabs(l->v_end[i] - vT)));
    }
    cr_expect(total > N, "%d impacts in all", total);
    cr_expect(terr < 1e-9, "impact times against the closed forms: %.3g", terr);
    cr_expect(verr < 1e-8, "velocities at the impacts (relative): %.3g", verr);
    cr_expect(serr < 1e-8, "states at T: %.3g", serr);
    free(l);
    nsdae_lagrangian_destroy(s);
}

static const char *oscillators =
    "model oscillators\n"
    "  parameter K = 80;\n"
    "  var x[K](start = {1 for i in 1:K});\n"
    "  var p[K];\n"
    "equation\n"
    "  for i in 1:K loop\n"
    "    der(der(x[i])) = -i*x[i] + p[i];\n"
    "    0 <= x[i] + 10 _|_ p[i] >= 0;\n"
    "  end for;\n"
    "end oscillators;\n";

typedef struct osc_log {
    double t, x[80], v[80];
} osc_log;

static int osc_row(const nsdae_contact_record *rec, void *p)
{
    osc_log *l = p;
    l->t = rec->t;
    memcpy(l->x, rec->q, sizeof l->x);
    memcpy(l->v, rec->v, sizeof l->v);
    return 0;
}

Test(eventdriven_field, translated_springs_on_klu_match_cosines)
{
    nsdae_model *m = NULL;
    nsdae_lagrangian *s = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_model_parse_string(oscillators, strlen(oscillators), "osc.nsm", &m, &err), NSDAE_OK, "%s",
                 err.message);
    cr_assert_eq(nsdae_translate_lagrangian(m, &s, &err), NSDAE_OK, "%s", err.message);
    nsdae_model_destroy(m);
    cr_assert_eq(s->ndof, 80);
    cr_assert(s->force_colptr && s->force_colptr[160] == 80, "one force entry per oscillator, dF_i/dx_i");
    nsdae_events_options o;
    nsdae_events_defaults(&o);
    o.linsol = NSDAE_EVENTS_LINSOL_SPARSE;
    o.stop = 2.0;
    o.nsteps = 4;
    osc_log l;
    memset(&l, 0, sizeof l);
    cr_assert_eq(nsdae_events_run_contact(s, &o, osc_row, NULL, &l, NULL, &err), NSDAE_OK, "%s", err.message);
    cr_expect(fabs(l.t - 2.0) < 1e-15);
    double e = 0;
    for (int i = 0; i < 80; i++) {
        const double w = sqrt(i + 1.0);
        e = fmax(e, fmax(fabs(l.x[i] - cos(2.0 * w)), fabs(l.v[i] + w * sin(2.0 * w)) / w));
    }
    cr_expect(e < 1e-7, "states at T against the cosines: %.3g", e);
    nsdae_lagrangian_destroy(s);
}
