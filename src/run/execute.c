/* Executing a prepared run (run.h): each engine's record becomes a run record (run_record.h) and
 * goes to the caller's callback, a CSV sink or a matrix of rows. */
#include "run/run_internal.h"

#include <nsdae/csv_sink.h>

#include <stdlib.h>
#include <string.h>

typedef struct relay {
    nsdae_run *run;
    double *values;             /* one record's columns */
    nsdae_run_callback cb;
    void *ctx;
} relay;

static int on_mlcs(const nsdae_step_record *rec, void *p)
{
    relay *x = p;
    nsdae_run_record r = nsdae_run_record_mlcs(x->run->mlcs, rec, x->values);
    return x->cb ? x->cb(&r, x->ctx) : 0;
}

static int on_contact(const nsdae_contact_record *rec, void *p)
{
    relay *x = p;
    nsdae_run_record r = nsdae_run_record_contact(x->run->contact, rec, x->values);
    return x->cb ? x->cb(&r, x->ctx) : 0;
}

nsdae_status nsdae_run_execute(nsdae_run *run, nsdae_run_callback cb, void *ctx, nsdae_run_summary *summary,
                               nsdae_error *err)
{
    nsdae_run_summary sum = {0};
    if (summary) *summary = sum;
    /* the run owns its system, and a system's callbacks may keep state: one execution each */
    if (run->executed) return nsdae_error_set(err, NSDAE_INVALID_INPUT, "run: already executed (prepare it again)");
    run->executed = 1;
    relay x = {run, calloc((size_t)run->plan.columns.n + 1, sizeof(double)), cb, ctx};
    if (!x.values) return nsdae_error_set(err, NSDAE_NOMEM, "run: out of memory");
    nsdae_status st;
    if (run->mlcs) {
        nsdae_stepper_summary s = {0};
        st = nsdae_stepper_run(run->mlcs, &run->so, on_mlcs, &x, NULL, &s, err);
        sum = (nsdae_run_summary){s.steps, s.t_end, s.h, s.several, s.continuum, 0};
    } else {
        nsdae_moreau_summary s = {0};
        st = nsdae_moreau_run(run->contact, &run->mo, on_contact, &x, NULL, NULL, &s, err);
        sum = (nsdae_run_summary){s.steps, s.t_end, s.h, 0, 0, s.lcp_steps};
    }
    free(x.values);
    if (summary) *summary = sum;
    return st;
}

typedef struct csv_out {
    nsdae_csv_sink *sink;
    nsdae_error err;
    int failed;
} csv_out;

static int to_csv(const nsdae_run_record *rec, void *p)
{
    csv_out *o = p;
    o->failed = nsdae_csv_sink_write(o->sink, rec, &o->err) != NSDAE_OK;
    return o->failed;
}

nsdae_status nsdae_run_execute_csv(nsdae_run *run, FILE *out, const char *name, long every,
                                   nsdae_run_summary *summary, nsdae_error *err)
{
    csv_out o = {0};
    nsdae_csv_thinning thin = {every, run->plan.grid.n};
    nsdae_status st = nsdae_csv_sink_open(out, name, &run->plan.columns, thin, &o.sink, err);
    if (st != NSDAE_OK) return st;
    st = nsdae_run_execute(run, to_csv, &o, summary, err);
    /* a write failure stops the engine with OK: the sink's error is the run's */
    if (st == NSDAE_OK && !o.failed) o.failed = nsdae_csv_sink_finish(o.sink, &o.err) != NSDAE_OK;
    if (st == NSDAE_OK && o.failed) st = nsdae_error_set(err, o.err.status, "%s", o.err.message);
    nsdae_csv_sink_destroy(o.sink);
    return st;
}

typedef struct rows_out {
    double *rows;
    long n, max, width;
} rows_out;

static int to_rows(const nsdae_run_record *rec, void *p)
{
    rows_out *o = p;
    if (o->n >= o->max) return 1; /* cannot happen: the grid has max - 1 steps */
    double *row = o->rows + o->n * o->width;
    row[0] = rec->t;
    memcpy(row + 1, rec->values, (size_t)(o->width - 1) * sizeof *row);
    o->n++;
    return 0;
}

nsdae_status nsdae_run_execute_rows(nsdae_run *run, double *rows, long *nrows, nsdae_run_summary *summary,
                                    nsdae_error *err)
{
    rows_out o = {rows, 0, run->plan.grid.n + 1, 1 + run->plan.columns.n};
    nsdae_status st = nsdae_run_execute(run, to_rows, &o, summary, err);
    *nrows = o.n;
    return st;
}

nsdae_status nsdae_run_file(const char *path, const nsdae_run_settings *set, nsdae_run_callback cb, void *ctx,
                            nsdae_run_summary *summary, nsdae_error *err)
{
    nsdae_run *run = NULL;
    nsdae_status st = nsdae_run_prepare_file(path, set, &run, err);
    if (st == NSDAE_OK) st = nsdae_run_execute(run, cb, ctx, summary, err);
    nsdae_run_destroy(run);
    return st;
}
