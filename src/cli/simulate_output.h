/* The output of `nsdae simulate` shared by its engines (simulate_run.c: the time steppers,
 * simulate_events.c: the event-driven engine): the CSV or HDF5 sink, the plotted columns, the
 * progress line, the run's facts, and why a run stopped early. Internal to the CLI. */
#ifndef NSDAE_CLI_SIMULATE_OUTPUT_H
#define NSDAE_CLI_SIMULATE_OUTPUT_H

#include "cli/hdf5_sink.h"
#include "cli/plot.h"
#include "cli/progress.h"
#include "cli/run_meta.h"
#include "cli/simulate_run.h"

#include <nsdae/csv_sink.h>
#include <nsdae/time_grid.h>

typedef struct output {
    const simulate_output *opt;
    FILE *out;
    const char *name;
    nsdae_run_columns cols;
    double *values;           /* one record's columns */
    nsdae_csv_sink *sink;
    hdf5_sink *h5;
    table plotted;            /* t and the plotted columns, when --plot */
    int plot_cols[PLOT_MAX_VARS], nplot;
    nsdae_csv_thinning thin;
    progress prog;
    int write_failed;
    char write_why[1200];
    run_meta *meta;
    const nsdae_mlcs *mlcs;   /* the system whose records are turned into run records */
    const nsdae_lagrangian *contact;
    struct mode_watch *watch; /* minnorm on a model file: its mode changes against the restart analysis */
} output;

/* Row callbacks of the engines (ctx: the output): the record as a run record, written (CSV or
 * HDF5), kept for the plot, the progress line drawn. Non-zero stops the engine (a write error or a
 * signal). */
int output_mlcs_row(const nsdae_step_record *rec, void *p);
int output_contact_row(const nsdae_contact_record *rec, void *p);

/* Opens the stream and the sink (header written), the plot table and the progress line; o->cols,
 * o->opt and o->meta set by the caller. Returns 0 or the exit status. */
int output_open(output *o, const nsdae_time_grid *grid);

/* Flushes and closes the output; says why the run stopped early, if it did. Returns 0 when the
 * output is complete and nothing stopped it, else the exit status. */
int output_close(output *o);

/* The sidecar and the plot of a run whose output is complete. Returns 0 or 1. */
int output_after_run(output *o, const char *label);

/* The grid of the run, or CLI_USAGE after printing why not. */
int grid_of(const char *cmd, double t0, double stop, long nsteps, double step, nsdae_time_grid *g);

/* The facts of the grid and the scheme, and the library's named tolerances (run_meta.h). */
void meta_run(run_meta *m, const char *scheme, double theta, double gamma, const nsdae_time_grid *g,
              const simulate_output *so);
void meta_tolerances(run_meta *m);

/* nsdae simulate --engine events (simulate_events.c): the model's MLCS, or its contact form with
 * --scheme moreau, through the event-driven engine. Returns the process exit status. */
int simulate_events(run_options *ro, output *o);

#endif
