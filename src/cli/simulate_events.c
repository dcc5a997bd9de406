/* nsdae simulate --engine events: the event-driven engine (eventdriven.h) on the model's MLCS, or
 * its contact form with --scheme moreau, through simulate's one output (simulate_output.h): grid
 * rows and, at each event, a left-limit and a restart row at the same t; the event log to
 * --events FILE; the facts to the sidecar; a summary line. */
#include "cli/simulate_output.h"

#include <nsdae/eventdriven.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct event_log {
    FILE *f;
    const char *path;
    int failed;
} event_log;

/* The engine's one context for its row and event callbacks: the output first, so that the row
 * callbacks of simulate_run.c (which take the output) read it. */
typedef struct events_out {
    output o;
    event_log log;
} events_out;

/* A CSV field; names are the model's identifiers (with [] and ()), quoted only if they hold a
 * comma or a quote. */
static void field(FILE *f, const char *s)
{
    if (strchr(s, ',') || strchr(s, '"')) {
        fputc('"', f);
        for (; *s; s++) {
            if (*s == '"') fputc('"', f);
            fputc(*s, f);
        }
        fputc('"', f);
    } else fputs(s, f);
}

static int on_event(const nsdae_event_record *ev, void *p)
{
    event_log *l = &((events_out *)p)->log;
    if (!l->f) return 0;
    fprintf(l->f, "%.17g,%s,", ev->t, nsdae_event_kind_name(ev->kind));
    field(l->f, ev->from);
    fputc(',', l->f);
    field(l->f, ev->to);
    for (int k = 0; k < ev->nstates; k++) fprintf(l->f, ",%.17g", ev->pre[k]);
    for (int k = 0; k < ev->nstates; k++) fprintf(l->f, ",%.17g", ev->post[k]);
    for (int k = 0; k < ev->nimpulses; k++) fprintf(l->f, ",%.17g", ev->impulses[k]);
    if (fputc('\n', l->f) == EOF) l->failed = 1;
    return 0;
}

/* The log's header: t,kind,from,to, pre(NAME) and NAME for every state, then the impulses. */
static void log_header(event_log *l, const char *const *states, int nstates, const char *const *impulses, int nimp)
{
    fputs("t,kind,from,to", l->f);
    for (int k = 0; k < nstates; k++) {
        char pre[200];
        snprintf(pre, sizeof pre, "pre(%s)", states[k]);
        fputc(',', l->f);
        field(l->f, pre);
    }
    for (int k = 0; k < nstates; k++) {
        fputc(',', l->f);
        field(l->f, states[k]);
    }
    for (int k = 0; k < nimp; k++) {
        fputc(',', l->f);
        field(l->f, impulses[k]);
    }
    fputc('\n', l->f);
}

static int log_open(event_log *l, const char *path)
{
    l->path = path;
    if (!path) return 0;
    if (!(l->f = fopen(path, "w"))) {
        fprintf(stderr, "nsdae simulate: --events '%s': %s\n", path, strerror(errno));
        return CLI_USAGE;
    }
    return 0;
}

static int log_close(event_log *l)
{
    if (!l->f) return 0;
    int bad = l->failed | (fclose(l->f) != 0);
    l->f = NULL;
    if (bad) fprintf(stderr, "nsdae simulate: writing the event log %s failed\n", l->path);
    return bad;
}

/* The MLCS states of the event log: the differential unknowns, named as in the rows. */
static void mlcs_log_header(event_log *l, const nsdae_mlcs *s)
{
    if (!l->f) return;
    int *diff = calloc((size_t)s->ny + 1, sizeof *diff);
    const char **names = calloc((size_t)s->ny + 1, sizeof *names);
    char (*fallback)[32] = calloc((size_t)s->ny + 1, sizeof *fallback);
    int n = 0;
    if (diff && names && fallback) {
        nsdae_mlcs_differential(s, diff);
        for (int j = 0; j < s->ny; j++) {
            if (!diff[j]) continue;
            snprintf(fallback[j], sizeof fallback[j], "y%d", j + 1);
            names[n++] = s->y_names && s->y_names[j] ? s->y_names[j] : fallback[j];
        }
        log_header(l, names, n, NULL, 0);
    } else l->failed = 1;
    free(diff);
    free(names);
    free(fallback);
}

/* The contact states of the event log: q then der(q), then the percussions P_c, as in the rows. */
static void contact_log_header(event_log *l, const nsdae_lagrangian *s)
{
    if (!l->f) return;
    int n = s->ndof, m = s->ncontacts;
    char (*buf)[160] = calloc((size_t)(2 * n + m) + 1, sizeof *buf);
    const char **names = calloc((size_t)(2 * n + m) + 1, sizeof *names);
    if (buf && names) {
        for (int j = 0; j < n; j++) {
            char q[128];
            if (s->q_names && s->q_names[j]) snprintf(q, sizeof q, "%s", s->q_names[j]);
            else snprintf(q, sizeof q, "q%d", j + 1);
            snprintf(buf[j], sizeof buf[j], "%s", q);
            snprintf(buf[n + j], sizeof buf[n + j], "der(%s)", q);
        }
        for (int c = 0; c < m; c++) {
            if (s->c_names && s->c_names[c]) snprintf(buf[2 * n + c], sizeof buf[0], "P_%s", s->c_names[c]);
            else snprintf(buf[2 * n + c], sizeof buf[0], "P_contact%d", c + 1);
        }
        for (int k = 0; k < 2 * n + m; k++) names[k] = buf[k];
        log_header(l, names, 2 * n, names + 2 * n, m);
    } else l->failed = 1;
    free(buf);
    free(names);
}

static void summary_line(const nsdae_events_summary *sum, const nsdae_events_options *eo, double wall)
{
    char acc[96] = "";
    if (sum->accumulations)
        snprintf(acc, sizeof acc, " (first at t = %.10g, then the limit mode)", sum->first_accumulation);
    fprintf(stderr,
            "nsdae simulate: event-driven (IDA, rtol %g, atol %g): %ld events, %ld modes visited, %ld accumulation "
            "points%s; %ld IDA steps, %ld rows to t = %.10g; %.3f s\n",
            eo->rtol, eo->atol, sum->events, sum->modes_visited, sum->accumulations, acc, sum->ida_steps, sum->rows,
            sum->t_end, wall);
}

static void events_options(const run_options *ro, double stop, double step, long nsteps, nsdae_events_options *eo)
{
    nsdae_events_defaults(eo);
    eo->t0 = 0.0;
    eo->stop = stop;
    eo->step = step;
    eo->nsteps = nsteps;
    eo->rtol = ro->rtol > 0 ? ro->rtol : NSDAE_EVENTS_RTOL;
    eo->atol = ro->atol > 0 ? ro->atol : NSDAE_EVENTS_ATOL;
}

static void meta_events(run_meta *m, const nsdae_events_options *eo, const nsdae_events_summary *sum,
                        nsdae_status st, const char *why, double wall)
{
    meta_number(m, "run.rtol", eo->rtol);
    meta_number(m, "run.atol", eo->atol);
    meta_text(m, "summary.status", st == NSDAE_OK ? "complete" : why);
    meta_number(m, "summary.events", (double)sum->events);
    meta_number(m, "summary.modes_visited", (double)sum->modes_visited);
    meta_number(m, "summary.accumulations", (double)sum->accumulations);
    meta_number(m, "summary.ida_steps", (double)sum->ida_steps);
    meta_number(m, "summary.rows", (double)sum->rows);
    meta_number(m, "summary.t_end", sum->t_end);
    meta_number(m, "summary.wall_seconds", wall);
}

/* One run on either form, its system, grid and options set up by the caller. */
static int run(events_out *eout, const char *label, const nsdae_time_grid *grid, const nsdae_events_options *eo,
               const nsdae_mlcs *ms, const nsdae_lagrangian *cs)
{
    output *o = &eout->o;
    nsdae_error err = {0};
    int rc = output_open(o, grid);
    if (rc) {
        output_close(o);
        log_close(&eout->log);
        return rc;
    }
    meta_run(o->meta, "events", NAN, NAN, grid, o->opt);
    nsdae_events_summary sum = {0};
    nsdae_status st = ms ? nsdae_events_run_mlcs(ms, eo, output_mlcs_row, on_event, eout, &sum, &err)
                         : nsdae_events_run_contact(cs, eo, output_contact_row, on_event, eout, &sum, &err);
    double wall = progress_end(&o->prog);
    meta_events(o->meta, eo, &sum, st, err.message, wall);
    rc = output_close(o);
    rc |= log_close(&eout->log);
    if (st != NSDAE_OK)
        fprintf(stderr, "nsdae simulate: %s\nnsdae simulate: %ld rows and %ld events written before the stop\n",
                err.message, sum.rows, sum.events);
    else if (!rc) summary_line(&sum, eo, wall);
    if (!rc) rc = output_after_run(o, label);
    return st != NSDAE_OK && !rc ? 1 : rc;
}

int simulate_events(run_options *ro, output *shared)
{
    nsdae_mlcs *ms = NULL;
    nsdae_lagrangian *cs = NULL;
    nsdae_events_options eo;
    nsdae_time_grid grid;
    events_out eout;
    memset(&eout, 0, sizeof eout);
    eout.o = *shared; /* opt and meta; given back below so that the caller frees what it owns */
    output *o = &eout.o;
    nsdae_error err = {0};
    int rc;
    if (ro->moreau) {
        nsdae_moreau_options mo;
        rc = model_source_contact(&ro->src, "simulate", &cs);
        if (!rc) rc = run_moreau_options(ro, "simulate", cs, &mo);
        if (!rc) events_options(ro, mo.stop, mo.step, mo.nsteps, &eo);
        if (!rc && nsdae_run_columns_contact(cs, &o->cols, &err) != NSDAE_OK) rc = 1;
        o->contact = cs;
    } else {
        nsdae_stepper_options so;
        rc = model_source_mlcs(&ro->src, "simulate", &ms, NULL);
        if (!rc) rc = run_stepper_options(ro, "simulate", ms, &so);
        if (!rc) events_options(ro, so.stop, so.step, so.nsteps, &eo);
        if (!rc && nsdae_run_columns_mlcs(ms, &o->cols, &err) != NSDAE_OK) rc = 1;
        o->mlcs = ms;
    }
    if (rc == 1 && err.message[0]) fprintf(stderr, "nsdae simulate: %s\n", err.message);
    if (!rc) rc = grid_of("simulate", eo.t0, eo.stop, eo.nsteps, eo.step, &grid);
    if (!rc) rc = log_open(&eout.log, ro->events_path);
    if (!rc && ms) mlcs_log_header(&eout.log, ms);
    if (!rc && cs) contact_log_header(&eout.log, cs);
    if (!rc) rc = run(&eout, ro->src.label, &grid, &eo, ms, cs);
    else log_close(&eout.log);
    *shared = eout.o;
    nsdae_mlcs_destroy(ms);
    nsdae_lagrangian_destroy(cs);
    return rc;
}
