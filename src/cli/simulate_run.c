/* nsdae simulate: one output path for every engine. Each engine's callback turns its record into
 * a run record (run_record.h) and hands it to emit(), which writes it, draws the progress line and
 * stops the engine after a write error or a SIGINT/SIGTERM (stop_signal.h). */
#include "cli/simulate_run.h"
#include "cli/progress.h"
#include "cli/stop_signal.h"

#include <nsdae/csv_sink.h>
#include <nsdae/time_grid.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct output {
    FILE *out;
    const char *name;
    nsdae_run_columns cols;
    double *values;           /* one record's columns */
    nsdae_csv_sink *sink;
    progress prog;
    int write_failed;
    nsdae_error write_err;
    const nsdae_mlcs *mlcs;   /* the system whose records are turned into run records */
    const nsdae_lagrangian *contact;
} output;

/* Returns non-zero to stop the engine. */
static int emit(output *o, const nsdae_run_record *rec)
{
    if (nsdae_csv_sink_write(o->sink, rec, &o->write_err) != NSDAE_OK) {
        o->write_failed = 1;
        return 1;
    }
    progress_tick(&o->prog, rec->k, rec->t);
    return stop_signal_caught() != 0;
}

static int on_mlcs_step(const nsdae_step_record *rec, void *p)
{
    output *o = p;
    nsdae_run_record r = nsdae_run_record_mlcs(o->mlcs, rec, o->values);
    return emit(o, &r);
}

static int on_contact_step(const nsdae_contact_record *rec, void *p)
{
    output *o = p;
    nsdae_run_record r = nsdae_run_record_contact(o->contact, rec, o->values);
    return emit(o, &r);
}

/* Opens the stream, the sink (header written) and the progress line. Returns 0 or the exit status. */
static int output_open(output *o, const char *out_path, const nsdae_time_grid *grid, long every)
{
    nsdae_error err = {0};
    o->name = out_path ? out_path : "standard output";
    o->out = stdout;
    o->values = calloc((size_t)o->cols.n + 1, sizeof *o->values);
    if (!o->values) {
        fputs("nsdae simulate: out of memory\n", stderr);
        return 1;
    }
    if (out_path && !(o->out = fopen(out_path, "w"))) {
        fprintf(stderr, "nsdae simulate: --out '%s': %s\n", out_path, strerror(errno));
        o->out = NULL;
        return CLI_USAGE;
    }
    if (nsdae_csv_sink_open(o->out, o->name, &o->cols, (nsdae_csv_thinning){every, grid->n}, &o->sink, &err)) {
        fprintf(stderr, "nsdae simulate: %s\n", err.message);
        return 1;
    }
    stop_signal_install();
    progress_start(&o->prog, grid->n, o->out == stdout);
    return 0;
}

/* Flushes and closes the output; says why the run stopped early, if it did. Returns 0 when the
 * output is complete and nothing stopped it, else the exit status. */
static int output_close(output *o)
{
    int rc = 0;
    if (o->sink && !o->write_failed && nsdae_csv_sink_finish(o->sink, &o->write_err) != NSDAE_OK) o->write_failed = 1;
    if (o->out && o->out != stdout && fclose(o->out) != 0 && !o->write_failed) {
        nsdae_error_set(&o->write_err, NSDAE_IO, "writing %s failed (close): %s", o->name, strerror(errno));
        o->write_failed = 1;
    }
    if (o->write_failed) {
        fprintf(stderr, "nsdae simulate: %s\n", o->write_err.message);
        if (o->out == stdout) clearerr(stdout); /* reported here, not again by main */
        rc = 1;
    }
    int sig = stop_signal_caught();
    if (sig && o->sink) {
        fprintf(stderr, "nsdae simulate: stopped by %s; the output ends with the row of step %ld (t = %.17g)\n",
                sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal", nsdae_csv_sink_last_k(o->sink),
                nsdae_csv_sink_last_t(o->sink));
        rc = 128 + sig;
    }
    nsdae_csv_sink_destroy(o->sink);
    nsdae_run_columns_free(&o->cols);
    free(o->values);
    return rc;
}

static int grid_of(const char *cmd, double t0, double stop, long nsteps, double step, nsdae_time_grid *g)
{
    nsdae_error err = {0};
    if (nsdae_time_grid_make(t0, stop, nsteps, step, g, &err) == NSDAE_OK) return 0;
    fprintf(stderr, "nsdae %s: %s\n", cmd, err.message);
    return CLI_USAGE;
}

static int simulate_mlcs(run_options *ro, const char *out_path, long every)
{
    nsdae_mlcs *s = NULL;
    nsdae_stepper_options so;
    nsdae_time_grid grid;
    output o = {0};
    nsdae_error err = {0};
    int rc = model_source_mlcs(&ro->src, "simulate", &s, NULL);
    if (!rc) rc = run_stepper_options(ro, "simulate", s, &so);
    if (!rc) rc = grid_of("simulate", so.t0, so.stop, so.nsteps, so.step, &grid);
    if (!rc && nsdae_run_columns_mlcs(s, &o.cols, &err) != NSDAE_OK) rc = 1;
    o.mlcs = s;
    if (!rc) rc = output_open(&o, out_path, &grid, every);
    if (rc) {
        output_close(&o);
        nsdae_mlcs_destroy(s);
        return rc;
    }
    nsdae_stepper_summary sum;
    nsdae_status st = nsdae_stepper_run(s, &so, on_mlcs_step, &o, NULL, &sum, &err);
    double wall = progress_end(&o.prog);
    rc = output_close(&o);
    if (st != NSDAE_OK)
        fprintf(stderr, "nsdae simulate: %s\nnsdae simulate: %ld steps written before the failure\n", err.message,
                sum.steps);
    else if (!rc)
        fprintf(stderr, "nsdae simulate: %ld steps of h = %.6g to t = %.10g; %ld with several solutions%s; %.3f s\n",
                sum.steps, sum.h, sum.t_end, sum.several, sum.continuum ? " (some a continuum)" : "", wall);
    nsdae_mlcs_destroy(s);
    return st != NSDAE_OK && !rc ? 1 : rc;
}

static int simulate_contact(run_options *ro, const char *out_path, long every)
{
    nsdae_lagrangian *s = NULL;
    nsdae_moreau_options mo;
    nsdae_time_grid grid;
    output o = {0};
    nsdae_error err = {0};
    int rc = model_source_contact(&ro->src, "simulate", &s);
    if (!rc) rc = run_moreau_options(ro, "simulate", s, &mo);
    if (!rc) rc = grid_of("simulate", mo.t0, mo.stop, mo.nsteps, mo.step, &grid);
    if (!rc && nsdae_run_columns_contact(s, &o.cols, &err) != NSDAE_OK) rc = 1;
    o.contact = s;
    if (!rc) rc = output_open(&o, out_path, &grid, every);
    if (rc) {
        output_close(&o);
        nsdae_lagrangian_destroy(s);
        return rc;
    }
    nsdae_moreau_summary sum = {0};
    nsdae_status st = nsdae_moreau_run(s, &mo, on_contact_step, &o, NULL, NULL, &sum, &err);
    double wall = progress_end(&o.prog);
    rc = output_close(&o);
    if (st != NSDAE_OK)
        fprintf(stderr, "nsdae simulate: %s\nnsdae simulate: %ld steps written before the failure\n", err.message,
                sum.steps);
    else if (!rc)
        fprintf(stderr, "nsdae simulate: %ld Moreau-Jean steps of h = %.6g to t = %.10g; %ld with active contacts; "
                        "%.3f s\n", sum.steps, sum.h, sum.t_end, sum.lcp_steps, wall);
    nsdae_lagrangian_destroy(s);
    return st != NSDAE_OK && !rc ? 1 : rc;
}

int simulate_run(run_options *ro, const char *out_path, long every)
{
    return ro->moreau ? simulate_contact(ro, out_path, every) : simulate_mlcs(ro, out_path, every);
}
