/* The runs, table and plot of `nsdae converge`, for any scheme: a runner gives the final
 * differential state of a run with N steps. */
#ifndef NSDAE_CLI_CONVERGENCE_H
#define NSDAE_CLI_CONVERGENCE_H

#include "cli/run_options.h"

/* The reference state at T: a closed form, the run with the largest N, or the event-driven engine. */
typedef enum { CONVERGENCE_EXACT, CONVERGENCE_FINEST, CONVERGENCE_EVENTS } convergence_reference;

typedef struct convergence_runner {
    int nd;                        /* size of the compared state */
    double t0, stop;
    const char *scheme;            /* for the table's heading */
    /* Final compared state of a run with n steps into x (nd); prints its error, returns 0 on failure. */
    int (*final_state)(void *ctx, long n, double *x);
    /* Exact compared state at stop into x, or 0 when no closed form is known (may be NULL). */
    int (*exact_state)(void *ctx, double *x);
    /* The event-driven engine's compared state at stop into x; 0 after printing why not. */
    int (*events_state)(void *ctx, double *x);
    void *ctx;
} convergence_runner;

/* "N1,N2,..." into a new array (free it) of *count distinct whole numbers >= 1, at least two.
 * Returns 1, or 0 for a text that is not such a list. */
int convergence_parse_steps(const char *text, long **out, int *count);

/* Returns the process exit status (0 ok, 1 a run failed, 2 bad request). */
int convergence_study(const convergence_runner *run, const run_options *ro, convergence_reference ref,
                      const long *steps, int nruns, const char *plot_path, const char *csv_path);

/* Runners for the MLCS steppers (compared state: the differential unknowns) and for Moreau-Jean
 * (positions then velocities). _init returns 0 after printing an error. */
typedef struct mlcs_runner {
    const nsdae_mlcs *s;
    nsdae_stepper_options base;
    const run_options *ro;
    int *diff;
    double *y;
} mlcs_runner;
int mlcs_runner_init(mlcs_runner *r, convergence_runner *run, const nsdae_mlcs *s, const nsdae_stepper_options *base,
                     const run_options *ro);
void mlcs_runner_free(mlcs_runner *r);

typedef struct moreau_runner {
    const nsdae_lagrangian *s;
    nsdae_moreau_options base;
    const run_options *ro;
} moreau_runner;
void moreau_runner_init(moreau_runner *r, convergence_runner *run, const nsdae_lagrangian *s,
                        const nsdae_moreau_options *base, const run_options *ro);

#endif
