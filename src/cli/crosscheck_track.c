/* The runs of a cross-check in memory (crosscheck_track.h). */
#include "cli/crosscheck_track.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int out_of_memory(void)
{
    fputs("nsdae: out of memory\n", stderr);
    return 1;
}

static int names_init(xc_system *sys, int nx)
{
    sys->nx = nx;
    sys->names = calloc((size_t)nx + 1, sizeof *sys->names);
    return sys->names != NULL;
}

static char *name_of(const char *prefix, const char *name, const char *fallback, int index)
{
    char buf[256];
    if (name) snprintf(buf, sizeof buf, prefix[0] ? "%s(%s)" : "%s%s", prefix, name);
    else snprintf(buf, sizeof buf, prefix[0] ? "%s(%s%d)" : "%s%s%d", prefix, fallback, index + 1);
    return strdup(buf);
}

/* What both forms share: the interval and the engine's tolerances (<= 0: its defaults). */
static void system_begin(xc_system *sys, double t0, double stop, double rtol, double atol)
{
    memset(sys, 0, sizeof *sys);
    sys->t0 = t0;
    sys->stop = stop;
    sys->rtol = rtol > 0 ? rtol : NSDAE_EVENTS_RTOL;
    sys->atol = atol > 0 ? atol : NSDAE_EVENTS_ATOL;
}

int xc_system_mlcs(xc_system *sys, const nsdae_mlcs *s, const nsdae_stepper_options *so, double rtol, double atol)
{
    system_begin(sys, so->t0, so->stop, rtol, atol);
    sys->ms = s;
    sys->so = *so;
    sys->nlabel = s->nl + 32; /* one side per row, ":phase" */
    sys->diff = calloc((size_t)s->ny + 1, sizeof *sys->diff);
    if (!sys->diff || !names_init(sys, nsdae_mlcs_differential(s, sys->diff))) return out_of_memory();
    for (int j = 0, k = 0; j < s->ny; j++)
        if (sys->diff[j] && !(sys->names[k++] = name_of("", s->y_names ? s->y_names[j] : NULL, "y", j)))
            return out_of_memory();
    return 0;
}

int xc_system_contact(xc_system *sys, const nsdae_lagrangian *s, const nsdae_moreau_options *mo, double rtol,
                      double atol)
{
    system_begin(sys, mo->t0, mo->stop, rtol, atol);
    sys->cs = s;
    sys->mo = *mo;
    sys->nlabel = s->ncontacts + 1;
    if (!names_init(sys, 2 * s->ndof)) return out_of_memory();
    for (int j = 0; j < s->ndof; j++) {
        const char *q = s->q_names ? s->q_names[j] : NULL;
        sys->names[j] = name_of("", q, "q", j);
        sys->names[s->ndof + j] = name_of("der", q, "q", j);
        if (!sys->names[j] || !sys->names[s->ndof + j]) return out_of_memory();
    }
    return 0;
}

void xc_system_free(xc_system *sys)
{
    for (int k = 0; sys->names && k < sys->nx; k++) free(sys->names[k]);
    free(sys->names);
    free(sys->diff);
    memset(sys, 0, sizeof *sys);
}

void xc_track_free(xc_track *tr)
{
    table_free(&tr->rows);
    for (long e = 0; e < tr->nevents; e++) free(tr->events[e].pre), free(tr->events[e].post);
    free(tr->events);
    free(tr->first_mode);
    free(tr->prev_mode);
    free(tr->mode);
    memset(tr, 0, sizeof *tr);
}

static int track_init(const xc_system *sys, xc_track *tr)
{
    memset(tr, 0, sizeof *tr);
    tr->switch_row = -1;
    const char **names = calloc((size_t)sys->nx + 1, sizeof *names);
    int ok = names != NULL;
    if (ok) {
        names[0] = "t";
        for (int k = 0; k < sys->nx; k++) names[k + 1] = sys->names[k];
        ok = table_init(&tr->rows, sys->nx + 1, names);
    }
    free(names);
    tr->first_mode = calloc((size_t)sys->nlabel, 1);
    tr->prev_mode = calloc((size_t)sys->nlabel, 1);
    tr->mode = calloc((size_t)sys->nlabel, 1);
    return ok && tr->first_mode && tr->prev_mode && tr->mode ? 0 : out_of_memory();
}

/* A run's context for its callbacks. */
typedef struct xc_run {
    const xc_system *sys;
    xc_track *tr;
    double *row;                    /* 1 + nx */
    double *b, *c;                  /* MLCS scratch: the phase's b(t), c(t) */
    double *w, *terms;              /* MLCS scratch: each row's w and the sum of its terms' sizes */
    int failed;                     /* out of memory in a callback */
} xc_run;

/* The time stepper's mode at this row: row 1 fixes the first mode; the first later row whose mode
 * differs is the stepper's switch (row 0 carries no multipliers to read a mode off). */
static void note_mode(xc_run *r, long k)
{
    xc_track *tr = r->tr;
    if (k == 1) strcpy(tr->first_mode, tr->mode);
    else if (k > 1) {
        if (tr->switch_row < 0 && strcmp(tr->mode, tr->first_mode) != 0) tr->switch_row = tr->rows.nrows - 1;
        tr->mode_changes += strcmp(tr->mode, tr->prev_mode) != 0;
    }
    strcpy(tr->prev_mode, tr->mode);
}

/* An MLCS row's mode, each row's side as the engine reads it off a solution (eventdriven.h):
 * closed when the multiplier is positive and w vanishes against the size of its terms; at a box
 * bound when the multiplier is there; sliding otherwise. */
/* Adds M x to w and |M_ij x_j| to terms over the entries of M (rows x cols; dense when the system
 * has its dense form, else compressed: mlcs.h). */
static void add_terms(const double *dense, const nsdae_mlcs_csc *m, int rows, int cols, const double *x, double *w,
                      double *terms)
{
    for (int j = 0; j < cols; j++) {
        if (dense)
            for (int i = 0; i < rows; i++) {
                double t = dense[i + (size_t)j * rows] * x[j];
                w[i] += t, terms[i] += fabs(t);
            }
        else
            for (int k = m->colp ? m->colp[j] : 0; m->colp && k < m->colp[j + 1]; k++)
                w[m->rowi[k]] += m->val[k] * x[j], terms[m->rowi[k]] += fabs(m->val[k] * x[j]);
    }
}

static void mlcs_mode(xc_run *r, const nsdae_step_record *rec)
{
    const nsdae_mlcs *s = r->sys->ms;
    const int ny = s->ny, nl = s->nl;
    int phase = nsdae_mlcs_phase_index(s, rec->t);
    const nsdae_mlcs_phase *ph = &s->phases[phase];
    nsdae_mlcs_rhs_at(s, rec->t, r->b, r->c);
    for (int i = 0; i < nl; i++) r->w[i] = r->c[i], r->terms[i] = fabs(r->c[i]);
    const int dense = nsdae_mlcs_has_dense(s);
    add_terms(dense ? ph->C : NULL, &ph->sC, nl, ny, rec->y, r->w, r->terms);
    add_terms(dense ? ph->D : NULL, &ph->sD, nl, nl, rec->lambda, r->w, r->terms);
    char *m = r->tr->mode;
    for (int i = 0; i < nl; i++) {
        double l = rec->lambda[i], w = r->w[i], scale = r->terms[i];
        if (s->kind[i] == NSDAE_ROW_EQUALITY) m[i] = 'e';
        else if (s->kind[i] == NSDAE_ROW_COMPLEMENTARITY) m[i] = l > 0 && fabs(w) <= 1e-8 * scale ? 'c' : 'o';
        else {
            double lo = s->lo[i], hi = s->hi[i];
            double tol = 1e-9 * (isfinite(lo) && isfinite(hi) ? hi - lo : 1 + fabs(isfinite(lo) ? lo : hi));
            m[i] = isfinite(lo) && l <= lo + tol ? 'l' : isfinite(hi) && l >= hi - tol ? 'h' : 's';
        }
    }
    m[nl] = 0;
    if (nl == 0) strcpy(m, "-");
    if (s->nphases > 1) snprintf(m + strlen(m), 24, ":%d", phase);
}

static int append(xc_run *r)
{
    if (!table_append(&r->tr->rows, r->row)) r->failed = 1;
    return r->failed;
}

static int on_mlcs_row(const nsdae_step_record *rec, void *ctx)
{
    xc_run *r = ctx;
    r->row[0] = rec->t;
    for (int j = 0, k = 1; j < r->sys->ms->ny; j++)
        if (r->sys->diff[j]) r->row[k++] = rec->y[j];
    return append(r);
}

static int on_mlcs_step(const nsdae_step_record *rec, void *ctx)
{
    xc_run *r = ctx;
    if (on_mlcs_row(rec, ctx)) return 1;
    mlcs_mode(r, rec);
    note_mode(r, rec->k);
    return 0;
}

static int on_contact_row(const nsdae_contact_record *rec, void *ctx)
{
    xc_run *r = ctx;
    int n = r->sys->cs->ndof;
    r->row[0] = rec->t;
    memcpy(r->row + 1, rec->q, (size_t)n * sizeof *r->row);
    memcpy(r->row + 1 + n, rec->v, (size_t)n * sizeof *r->row);
    return append(r);
}

/* A Moreau-Jean row's mode: a contact is closed at the steps it receives a percussion. */
static int on_contact_step(const nsdae_contact_record *rec, void *ctx)
{
    xc_run *r = ctx;
    if (on_contact_row(rec, ctx)) return 1;
    int m = r->sys->cs->ncontacts;
    for (int c = 0; c < m; c++) r->tr->mode[c] = rec->P && rec->P[c] > 0 ? 'c' : 'o';
    r->tr->mode[m] = 0;
    note_mode(r, rec->k);
    return 0;
}

static int on_event(const nsdae_event_record *ev, void *ctx)
{
    xc_run *r = ctx;
    xc_track *tr = r->tr;
    int nx = r->sys->nx;
    if (tr->nevents == tr->cap_events) {
        long cap = tr->cap_events ? 2 * tr->cap_events : 16;
        xc_event *grown = realloc(tr->events, (size_t)cap * sizeof *grown);
        if (!grown) return r->failed = 1;
        tr->events = grown;
        tr->cap_events = cap;
    }
    xc_event *e = &tr->events[tr->nevents];
    memset(e, 0, sizeof *e);
    e->t = ev->t;
    snprintf(e->kind, sizeof e->kind, "%s", nsdae_event_kind_name(ev->kind));
    snprintf(e->from, sizeof e->from, "%s", ev->from);
    snprintf(e->to, sizeof e->to, "%s", ev->to);
    e->pre = calloc((size_t)nx + 1, sizeof *e->pre);
    e->post = calloc((size_t)nx + 1, sizeof *e->post);
    if (!e->pre || !e->post) {
        free(e->pre), free(e->post);
        return r->failed = 1;
    }
    tr->nevents++;
    /* both record the compared state in the same order (eventdriven.h) */
    for (int k = 0; k < nx && k < ev->nstates; k++) e->pre[k] = ev->pre[k], e->post[k] = ev->post[k];
    return 0;
}

static int run_begin(const xc_system *sys, xc_track *tr, xc_run *r)
{
    memset(r, 0, sizeof *r);
    r->sys = sys;
    r->tr = tr;
    if (track_init(sys, tr)) return 1;
    r->row = calloc((size_t)sys->nx + 1, sizeof *r->row);
    if (sys->ms) {
        r->b = calloc((size_t)sys->ms->ny + 1, sizeof *r->b);
        r->c = calloc((size_t)sys->ms->nl + 1, sizeof *r->c);
        r->w = calloc((size_t)sys->ms->nl + 1, sizeof *r->w);
        r->terms = calloc((size_t)sys->ms->nl + 1, sizeof *r->terms);
    }
    if (!r->row || (sys->ms && (!r->b || !r->c || !r->w || !r->terms))) return out_of_memory();
    return 0;
}

/* Ends a run: its status into the exit status, with the message. */
static int run_end(xc_run *r, const char *cmd, const char *what, long n, nsdae_status st, const nsdae_error *err)
{
    free(r->row), free(r->b), free(r->c), free(r->w), free(r->terms);
    if (r->failed) return out_of_memory();
    if (st == NSDAE_OK) return 0;
    if (n > 0) fprintf(stderr, "nsdae %s: %s with N = %ld: %s\n", cmd, what, n, err->message);
    else fprintf(stderr, "nsdae %s: %s: %s\n", cmd, what, err->message);
    return 1;
}

int xc_run_engine(const xc_system *sys, const char *cmd, long n, xc_track *tr)
{
    xc_run r;
    if (run_begin(sys, tr, &r)) return run_end(&r, cmd, "event-driven run", n, NSDAE_OK, NULL) | 1;
    nsdae_events_options eo;
    nsdae_events_defaults(&eo);
    eo.t0 = sys->t0;
    eo.stop = sys->stop;
    eo.nsteps = n > 0 ? n : 1;
    eo.rtol = sys->rtol;
    eo.atol = sys->atol;
    nsdae_error err = {0};
    nsdae_status st = sys->ms ? nsdae_events_run_mlcs(sys->ms, &eo, on_mlcs_row, on_event, &r, &tr->sum, &err)
                              : nsdae_events_run_contact(sys->cs, &eo, on_contact_row, on_event, &r, &tr->sum, &err);
    return run_end(&r, cmd, "event-driven run", n, st, &err);
}

int xc_run_stepper(const xc_system *sys, const char *cmd, long n, xc_track *tr)
{
    xc_run r;
    if (run_begin(sys, tr, &r)) return run_end(&r, cmd, "time stepper", n, NSDAE_OK, NULL) | 1;
    nsdae_error err = {0};
    nsdae_status st;
    if (sys->ms) {
        nsdae_stepper_options o = sys->so;
        o.nsteps = n;
        o.count_solutions = 0; /* states and modes only */
        st = nsdae_stepper_run(sys->ms, &o, on_mlcs_step, &r, NULL, NULL, &err);
    } else {
        nsdae_moreau_options o = sys->mo;
        o.nsteps = n;
        st = nsdae_moreau_run(sys->cs, &o, on_contact_step, &r, NULL, NULL, NULL, &err);
    }
    return run_end(&r, cmd, "time stepper", n, st, &err);
}

int xc_engine_final(const xc_system *sys, const char *cmd, double *x)
{
    xc_track tr;
    int rc = xc_run_engine(sys, cmd, 0, &tr);
    if (!rc && tr.rows.nrows > 0 && fabs(TABLE_AT(&tr.rows, tr.rows.nrows - 1, 0) - sys->stop) <= 1e-12 * fabs(sys->stop))
        for (int k = 0; k < sys->nx; k++) x[k] = TABLE_AT(&tr.rows, tr.rows.nrows - 1, k + 1);
    else if (!rc) {
        fprintf(stderr, "nsdae %s: the event-driven run ended before t = %g\n", cmd, sys->stop);
        rc = 1;
    }
    xc_track_free(&tr);
    return rc;
}
