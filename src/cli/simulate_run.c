/* nsdae simulate: one output path for every engine. Each engine's callback turns its record into
 * a run record (run_record.h) and hands it to emit(), which writes it (CSV or HDF5), keeps the
 * plotted columns, draws the progress line and stops the engine after a write error or a
 * SIGINT/SIGTERM (stop_signal.h). After the run: the facts (run_meta.h) to the sidecar and the
 * HDF5 attributes, then the plot. */
#include "cli/simulate_run.h"
#include "cli/simulate_output.h"
#include "cli/hdf5_sink.h"
#include "cli/mode_watch.h"
#include "cli/plot.h"
#include "cli/progress.h"
#include "cli/run_meta.h"
#include "cli/sidecar.h"
#include "cli/stop_signal.h"

#include <nsdae/csv_sink.h>
#include <nsdae/lcp.h>
#include <nsdae/time_grid.h>
#include <nsdae/tolerances.h>

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>


static void write_failure(output *o, const char *why)
{
    o->write_failed = 1;
    snprintf(o->write_why, sizeof o->write_why, "%s", why);
}

/* Keeps t and the plotted columns of a row that is due. */
static int keep_for_plot(output *o, const nsdae_run_record *rec)
{
    if (!o->nplot || (rec->k % o->thin.every != 0 && rec->k != o->thin.last_step)) return 1;
    double row[PLOT_MAX_VARS + 1];
    row[0] = rec->t;
    for (int c = 0; c < o->nplot; c++) row[c + 1] = rec->values[o->plot_cols[c] - 1];
    return table_append(&o->plotted, row);
}

/* Returns non-zero to stop the engine. */
static int emit(output *o, const nsdae_run_record *rec)
{
    nsdae_error err = {0};
    char why[1200];
    if (o->sink && nsdae_csv_sink_write(o->sink, rec, &err) != NSDAE_OK) write_failure(o, err.message);
    else if (o->h5 && hdf5_sink_write(o->h5, rec, why, sizeof why) != 0) write_failure(o, why);
    else if (!keep_for_plot(o, rec)) write_failure(o, "out of memory keeping the plotted columns");
    if (o->write_failed) return 1;
    progress_tick(&o->prog, rec->k, rec->t);
    return stop_signal_caught() != 0;
}

int output_mlcs_row(const nsdae_step_record *rec, void *p)
{
    output *o = p;
    nsdae_run_record r = nsdae_run_record_mlcs(o->mlcs, rec, o->values);
    if (o->watch) mode_watch_step(o->watch, rec);
    return emit(o, &r);
}

int output_contact_row(const nsdae_contact_record *rec, void *p)
{
    output *o = p;
    nsdae_run_record r = nsdae_run_record_contact(o->contact, rec, o->values);
    return emit(o, &r);
}

/* The plotted columns, chosen among the run's (plot_select.h). Returns 0 or the exit status. */
static int plot_setup(output *o)
{
    if (!o->opt->plot.png) return 0;
    table all;
    const char *names[1 + 4096];
    int n = o->cols.n < 4096 ? o->cols.n : 4096;
    names[0] = "t";
    for (int c = 0; c < n; c++) names[c + 1] = o->cols.names[c];
    if (!table_init(&all, n + 1, names)) {
        table_free(&all);
        fputs("nsdae simulate: out of memory\n", stderr);
        return 1;
    }
    o->nplot = plot_select("simulate", &o->opt->plot, &all, o->plot_cols);
    const char *chosen[PLOT_MAX_VARS + 1] = {"t"};
    for (int c = 0; c < o->nplot; c++) chosen[c + 1] = all.names[o->plot_cols[c]];
    int ok = o->nplot > 0 && table_init(&o->plotted, o->nplot + 1, chosen);
    table_free(&all);
    if (o->nplot == 0) return CLI_USAGE;
    if (!ok) {
        fputs("nsdae simulate: out of memory\n", stderr);
        return 1;
    }
    return plot_check("simulate", o->opt->plot.png) ? 0 : 1;
}

/* Opens the stream and the sink (header written), the plot table and the progress line. Returns 0
 * or the exit status. */
int output_open(output *o, const nsdae_time_grid *grid)
{
    nsdae_error err = {0};
    const char *path = o->opt->path;
    o->name = path ? path : "standard output";
    o->thin = (nsdae_csv_thinning){o->opt->every, grid->n};
    o->values = calloc((size_t)o->cols.n + 1, sizeof *o->values);
    if (!o->values) {
        fputs("nsdae simulate: out of memory\n", stderr);
        return 1;
    }
    int rc = plot_setup(o);
    if (rc) return rc;
    if (o->opt->hdf5) {
        char why[1200];
        if (hdf5_sink_open(path, &o->cols, o->thin, &o->h5, why, sizeof why) != 0) {
            fprintf(stderr, "nsdae simulate: --out '%s': %s\n", path, why);
            return CLI_USAGE;
        }
    } else {
        o->out = stdout;
        if (path && !(o->out = fopen(path, "w"))) {
            fprintf(stderr, "nsdae simulate: --out '%s': %s\n", path, strerror(errno));
            o->out = NULL;
            return CLI_USAGE;
        }
        if (nsdae_csv_sink_open(o->out, o->name, &o->cols, o->thin, &o->sink, &err)) {
            fprintf(stderr, "nsdae simulate: %s\n", err.message);
            return 1;
        }
    }
    stop_signal_install();
    progress_start(&o->prog, grid->n, o->out == stdout);
    return 0;
}

/* Flushes and closes the output (HDF5: with the facts as attributes); says why the run stopped
 * early, if it did. Returns 0 when the output is complete and nothing stopped it, else the exit
 * status. */
int output_close(output *o)
{
    int rc = 0;
    nsdae_error err = {0};
    char why[1200];
    if (o->sink && !o->write_failed && nsdae_csv_sink_finish(o->sink, &err) != NSDAE_OK) write_failure(o, err.message);
    if (o->h5 && !o->write_failed && hdf5_sink_finish(o->h5, o->meta, why, sizeof why) != 0) write_failure(o, why);
    if (o->out && o->out != stdout && fclose(o->out) != 0 && !o->write_failed) {
        snprintf(why, sizeof why, "writing %s failed (close): %s", o->name, strerror(errno));
        write_failure(o, why);
    }
    if (o->write_failed) {
        fprintf(stderr, "nsdae simulate: %s\n", o->write_why);
        if (o->out == stdout) clearerr(stdout); /* reported here, not again by main */
        rc = 1;
    }
    int sig = stop_signal_caught();
    if (sig && (o->sink || o->h5)) {
        fprintf(stderr, "nsdae simulate: stopped by %s; the output ends with the row of step %ld (t = %.17g)\n",
                sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal",
                o->sink ? nsdae_csv_sink_last_k(o->sink) : hdf5_sink_last_k(o->h5),
                o->sink ? nsdae_csv_sink_last_t(o->sink) : hdf5_sink_last_t(o->h5));
        rc = 128 + sig;
    }
    nsdae_csv_sink_destroy(o->sink);
    hdf5_sink_destroy(o->h5);
    o->sink = NULL;
    o->h5 = NULL;
    return rc;
}

/* The sidecar (unless none is wanted) and the plot of a run whose output is complete. Returns 0 or 1. */
int output_after_run(output *o, const char *label)
{
    int rc = 0;
    char path[4200], why[1200];
    const char *sidecar = o->opt->sidecar;
    struct stat st;
    /* FILE.json next to a file, not /dev/null.json next to a device or a pipe */
    if (!sidecar && o->opt->path && !o->opt->no_sidecar && stat(o->opt->path, &st) == 0 && S_ISREG(st.st_mode)) {
        snprintf(path, sizeof path, "%s.json", o->opt->path);
        sidecar = path;
    }
    if (sidecar && sidecar_write(sidecar, o->meta, why, sizeof why) != 0) {
        fprintf(stderr, "nsdae simulate: sidecar: %s\n", why);
        rc = 1;
    }
    if (o->nplot) {
        int cols[PLOT_MAX_VARS]; /* the plotted table holds t, then the chosen columns in order */
        for (int c = 0; c < o->nplot; c++) cols[c] = c + 1;
        if (!plot_table("simulate", o->opt->plot.png, label, &o->plotted, cols, o->nplot, o->opt->plot.phase != NULL))
            rc = 1;
        else fprintf(stderr, "nsdae simulate: plot written to %s\n", o->opt->plot.png);
    }
    return rc;
}

static void output_free(output *o)
{
    nsdae_run_columns_free(&o->cols);
    table_free(&o->plotted);
    free(o->values);
    free(o->meta);
}

int grid_of(const char *cmd, double t0, double stop, long nsteps, double step, nsdae_time_grid *g)
{
    nsdae_error err = {0};
    if (nsdae_time_grid_make(t0, stop, nsteps, step, g, &err) == NSDAE_OK) return 0;
    fprintf(stderr, "nsdae %s: %s\n", cmd, err.message);
    return CLI_USAGE;
}

/* The facts of the grid and the scheme, known before the run. */
void meta_run(run_meta *m, const char *scheme, double theta, double gamma, const nsdae_time_grid *g,
                     const simulate_output *so)
{
    meta_text(m, "run.scheme", scheme);
    meta_number(m, "run.theta", theta);
    meta_number(m, "run.gamma", gamma);
    meta_number(m, "run.t0", g->t0);
    meta_number(m, "run.T", g->stop);
    meta_number(m, "run.h", g->h);
    meta_number(m, "run.N", (double)g->n);
    meta_number(m, "run.every", (double)so->every);
    meta_text(m, "run.output", so->path ? so->path : "standard output");
    meta_text(m, "run.format", so->hdf5 ? "hdf5" : "csv");
}

/* The library's named tolerances (tolerances.h) the run was made with. */
void meta_tolerances(run_meta *m)
{
    meta_number(m, "tolerances.residual", NSDAE_TOL_RESIDUAL);
    meta_number(m, "tolerances.sign", NSDAE_TOL_SIGN);
    meta_number(m, "tolerances.rank", NSDAE_TOL_RANK);
    meta_number(m, "tolerances.same_solution", NSDAE_TOL_SAME_SOLUTION);
    meta_number(m, "tolerances.objective", NSDAE_TOL_OBJECTIVE);
    meta_number(m, "tolerances.complementarity", NSDAE_TOL_COMPLEMENTARITY);
    meta_number(m, "tolerances.stop_time", NSDAE_TOL_STOP_TIME);
}

static const char *scheme_name(const run_options *ro)
{
    if (ro->moreau) return "moreau";
    return ro->scheme == NSDAE_SCHEME_EULER ? "euler" : ro->scheme == NSDAE_SCHEME_THETA ? "theta" : "minnorm";
}

/* A structurally singular system still steps (every step's MLCP has a continuum of solutions and
 * the minimal norm picks one): the run is honest only if it says so. */
static void warn_structural_gap(const nsdae_mlcs *s, const char *label)
{
    for (int p = 0; p < s->nphases; p++) {
        char which;
        int i;
        if (!nsdae_mlcs_structural_gap(s, p, &which, &i)) continue;
        if (which == 'y')
            fprintf(stderr, "nsdae simulate: warning: the unknown '%s' appears in no equation", s->y_names[i]);
        else
            fprintf(stderr, "nsdae simulate: warning: equation row %d involves no unknown", i + 1);
        if (s->nphases > 1) fprintf(stderr, " (phase %d)", p);
        fprintf(stderr, ": the model is structurally singular and its solution is not unique; see 'nsdae analyze "
                        "%s'\n", label);
        return;
    }
}

static int simulate_mlcs(run_options *ro, output *o)
{
    nsdae_mlcs *s = NULL;
    nsdae_stepper_options so;
    nsdae_time_grid grid;
    nsdae_error err = {0};
    nsdae_translate_info *info = NULL;
    mode_watch watch = {0};
    int rc = model_source_mlcs(&ro->src, "simulate", &s, &info);
    if (!rc) warn_structural_gap(s, ro->src.label);
    if (!rc) rc = run_stepper_options(ro, "simulate", s, &so);
    if (!rc && so.scheme == NSDAE_SCHEME_MINNORM) {
        mode_watch_open(&watch, ro->src.model, s, info, ro->src.label);
        o->watch = &watch;
    }
    nsdae_translate_info_free(info);
    if (!rc) rc = grid_of("simulate", so.t0, so.stop, so.nsteps, so.step, &grid);
    if (!rc && nsdae_run_columns_mlcs(s, &o->cols, &err) != NSDAE_OK) rc = 1;
    o->mlcs = s;
    if (!rc) rc = output_open(o, &grid);
    if (rc) {
        output_close(o);
        mode_watch_close(&watch);
        nsdae_mlcs_destroy(s);
        return rc;
    }
    double theta = so.theta > 0 ? so.theta : so.scheme == NSDAE_SCHEME_THETA ? 0.5 : 1.0;
    meta_run(o->meta, scheme_name(ro), theta, so.gamma > 0 ? so.gamma : 1.0, &grid, o->opt);
    meta_number(o->meta, "run.select_algebraic", so.select_algebraic);
    meta_number(o->meta, "run.count_solutions", so.count_solutions);
    meta_tolerances(o->meta);
    nsdae_stepper_summary sum = {0};
    nsdae_status st = nsdae_stepper_run(s, &so, output_mlcs_row, o, NULL, &sum, &err);
    double wall = progress_end(&o->prog);
    meta_text(o->meta, "summary.status", st == NSDAE_OK ? "complete" : err.message);
    meta_number(o->meta, "summary.steps", (double)sum.steps);
    meta_number(o->meta, "summary.t_end", sum.t_end);
    meta_number(o->meta, "summary.several_solutions", (double)sum.several);
    meta_number(o->meta, "summary.continuum", (double)sum.continuum);
    meta_number(o->meta, "summary.uncounted", (double)sum.uncounted);
    meta_number(o->meta, "summary.wall_seconds", wall);
    rc = output_close(o);
    if (st != NSDAE_OK)
        fprintf(stderr, "nsdae simulate: %s\nnsdae simulate: %ld steps written before the failure\n", err.message,
                sum.steps);
    else if (!rc)
    {
        char note[128] = "";
        if (sum.uncounted && so.count_solutions)   /* counting is exponential: bounded, and said */
            snprintf(note, sizeof note, " (%ld steps not counted: more than %d complementarity rows)", sum.uncounted,
                     NSDAE_LCP_COUNT_MAX_M);
        fprintf(stderr, "nsdae simulate: %ld steps of h = %.6g to t = %.10g; %ld with several solutions%s%s; %.3f s\n",
                sum.steps, sum.h, sum.t_end, sum.several, sum.continuum ? " (some a continuum)" : "", note, wall);
    }
    if (!rc) rc = output_after_run(o, ro->src.label);
    mode_watch_close(&watch);
    o->watch = NULL;
    nsdae_mlcs_destroy(s);
    return st != NSDAE_OK && !rc ? 1 : rc;
}

static int simulate_contact(run_options *ro, output *o)
{
    nsdae_lagrangian *s = NULL;
    nsdae_moreau_options mo;
    nsdae_time_grid grid;
    nsdae_error err = {0};
    int rc = model_source_contact(&ro->src, "simulate", &s);
    if (!rc) rc = run_moreau_options(ro, "simulate", s, &mo);
    if (!rc) rc = grid_of("simulate", mo.t0, mo.stop, mo.nsteps, mo.step, &grid);
    if (!rc && nsdae_run_columns_contact(s, &o->cols, &err) != NSDAE_OK) rc = 1;
    o->contact = s;
    if (!rc) rc = output_open(o, &grid);
    if (rc) {
        output_close(o);
        nsdae_lagrangian_destroy(s);
        return rc;
    }
    meta_run(o->meta, "moreau", mo.theta > 0 ? mo.theta : 0.5, NAN, &grid, o->opt);
    meta_tolerances(o->meta);
    nsdae_moreau_summary sum = {0};
    nsdae_status st = nsdae_moreau_run(s, &mo, output_contact_row, o, NULL, NULL, &sum, &err);
    double wall = progress_end(&o->prog);
    meta_text(o->meta, "summary.status", st == NSDAE_OK ? "complete" : err.message);
    meta_number(o->meta, "summary.steps", (double)sum.steps);
    meta_number(o->meta, "summary.t_end", sum.t_end);
    meta_number(o->meta, "summary.steps_with_active_contacts", (double)sum.lcp_steps);
    meta_number(o->meta, "summary.wall_seconds", wall);
    rc = output_close(o);
    if (st != NSDAE_OK)
        fprintf(stderr, "nsdae simulate: %s\nnsdae simulate: %ld steps written before the failure\n", err.message,
                sum.steps);
    else if (!rc)
        fprintf(stderr, "nsdae simulate: %ld Moreau-Jean steps of h = %.6g to t = %.10g; %ld with active contacts; "
                        "%.3f s\n", sum.steps, sum.h, sum.t_end, sum.lcp_steps, wall);
    if (!rc) rc = output_after_run(o, ro->src.label);
    nsdae_lagrangian_destroy(s);
    return st != NSDAE_OK && !rc ? 1 : rc;
}

int simulate_run(run_options *ro, const simulate_output *so)
{
    output o = {0};
    o.opt = so;
    o.meta = malloc(sizeof *o.meta);
    if (!o.meta) {
        fputs("nsdae simulate: out of memory\n", stderr);
        return 1;
    }
    run_meta_begin(o.meta, "simulate", ro, so->hdf5);
    int rc = ro->engine_events ? simulate_events(ro, &o) : ro->moreau ? simulate_contact(ro, &o) : simulate_mlcs(ro, &o);
    output_free(&o);
    return rc;
}
