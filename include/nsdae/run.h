/* nsdae: run a model as the command does, in one call (README, Architecture: `src/run/`).
 *
 *   nsdae_run_settings set = {0};               // everything from the model's experiment
 *   set.nsteps = 1000;                           // overrides, each optional
 *   nsdae_run_file("examples/diode_bridge.nsm", &set, on_row, ctx, &summary, &err);
 *
 * What a zero field means, and what decides it otherwise, in the command's order:
 *   form    the library's rule (translate_form.h): an impact law or `experiment scheme = moreau`
 *           gives the Lagrangian contact form and Moreau-Jean, else the MLCS; set.scheme "moreau"
 *           asks for the contact form, any other set.scheme for the MLCS.
 *   scheme  set.scheme, else the experiment's (carried by the system, mlcs.h), else minnorm.
 *   theta, gamma   set.theta / set.gamma, else the experiment's (not for euler: 1), else the
 *           scheme's default (stepper.h, moreau.h).
 *   grid    stop: set.stop, else the experiment's, else 1. Steps: set.nsteps or set.step (not both),
 *           else the experiment's step, else 100 steps (time_grid.h builds it).
 * Rows are the run records of run_record.h (columns: nsdae_run_plan_of(run)->columns), delivered
 * to a callback, a CSV stream (csv_sink.h) or a row-major matrix. A run is prepared once (parse,
 * overrides, translation, options: every input error surfaces here, before any step) and executed
 * once. Not thread-safe per run; separate runs share nothing.
 */
#ifndef NSDAE_RUN_H
#define NSDAE_RUN_H

#include <nsdae/lagrangian.h>
#include <nsdae/mlcs.h>
#include <nsdae/model.h>
#include <nsdae/run_record.h>
#include <nsdae/status.h>
#include <nsdae/stepper.h>
#include <nsdae/time_grid.h>
#include <nsdae/translate_form.h>

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nsdae_run_param {
    const char *name;
    double value;
} nsdae_run_param;

/* Overrides of the model's choices; a zeroed struct overrides nothing. */
typedef struct nsdae_run_settings {
    const char *scheme;             /* "minnorm", "euler", "theta", "moreau"; NULL: the model's */
    double stop;                    /* > 0 */
    long nsteps;                    /* > 0: h = stop / nsteps */
    double step;                    /* > 0: fixed h, the last step shortened to land on stop */
    double theta, gamma;            /* in [1/2, 1]; 0: unset. gamma: MLCS schemes only */
    int select_algebraic;           /* minimal norm also over the algebraic unknowns */
    int skip_count;                 /* do not count each step's solutions (nsol column 0) */
    const nsdae_run_param *params;  /* nparams parameter overrides, in order (a later one wins) */
    int nparams;
} nsdae_run_settings;

/* What the run will do, settled by the prepare call. */
typedef struct nsdae_run_plan {
    nsdae_form form;
    const char *form_reason;        /* static text */
    nsdae_scheme scheme;            /* NSDAE_SCHEME_MOREAU for the contact form */
    double theta, gamma;            /* as the engine uses them (defaults resolved) */
    nsdae_time_grid grid;           /* t0 = 0 */
    nsdae_run_columns columns;      /* the rows' columns after t */
    int ny, nl;                     /* MLCS sizes (0 for the contact form) */
    int ndof, ncontacts;            /* contact-form sizes (0 for an MLCS) */
} nsdae_run_plan;

typedef struct nsdae_run_summary {
    long steps;                     /* steps completed */
    double t_end, h;                /* time reached, nominal step */
    long several, continuum;        /* MLCS: steps with several solutions, with a continuum */
    long contact_steps;             /* contact form: steps with an active contact */
} nsdae_run_summary;

typedef struct nsdae_run nsdae_run;

/* Return non-zero to stop the run early (then NSDAE_OK). */
typedef int (*nsdae_run_callback)(const nsdae_run_record *rec, void *ctx);

/* Prepares a run of the model file at path, of a parsed model (m gets the parameter overrides;
 * the run does not use m afterwards), or of a system built in C (taken over: the run destroys
 * it, also on failure). set may be NULL.
 * Errors carry the cause: the parser's file:line:col, the translator's, or the setting's name. */
nsdae_status nsdae_run_prepare_file(const char *path, const nsdae_run_settings *set, nsdae_run **out,
                                    nsdae_error *err);
nsdae_status nsdae_run_prepare_model(nsdae_model *m, const nsdae_run_settings *set, nsdae_run **out,
                                     nsdae_error *err);
nsdae_status nsdae_run_prepare_mlcs(nsdae_mlcs *s, const nsdae_run_settings *set, nsdae_run **out,
                                    nsdae_error *err);
nsdae_status nsdae_run_prepare_contact(nsdae_lagrangian *s, const nsdae_run_settings *set, nsdae_run **out,
                                       nsdae_error *err);

const nsdae_run_plan *nsdae_run_plan_of(const nsdae_run *run);

/* Integrates and hands every record (the initial state, then each step) to cb. A step without
 * a solution stops the run with the engine's status and message; earlier rows were delivered.
 * summary may be NULL. */
nsdae_status nsdae_run_execute(nsdae_run *run, nsdae_run_callback cb, void *ctx, nsdae_run_summary *summary,
                               nsdae_error *err);

/* The same into a CSV stream (csv_sink.h; name for messages), every K-th step and the last. */
nsdae_status nsdae_run_execute_csv(nsdae_run *run, FILE *out, const char *name, long every,
                                   nsdae_run_summary *summary, nsdae_error *err);

/* The same into rows: a row-major (grid.n + 1) x (1 + columns.n) matrix (t first), *nrows rows
 * filled (fewer when a step failed). */
nsdae_status nsdae_run_execute_rows(nsdae_run *run, double *rows, long *nrows, nsdae_run_summary *summary,
                                    nsdae_error *err);

void nsdae_run_destroy(nsdae_run *run);

/* prepare_file + execute + destroy. */
nsdae_status nsdae_run_file(const char *path, const nsdae_run_settings *set, nsdae_run_callback cb, void *ctx,
                            nsdae_run_summary *summary, nsdae_error *err);

#ifdef __cplusplus
}
#endif

#endif
