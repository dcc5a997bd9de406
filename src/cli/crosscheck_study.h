/* The measures of `nsdae crosscheck`: the time stepper at each step count against the event-driven
 * engine on the same grid, and the orders fitted over the step counts. */
#ifndef NSDAE_CLI_CROSSCHECK_STUDY_H
#define NSDAE_CLI_CROSSCHECK_STUDY_H

#include "cli/crosscheck_track.h"

/* The measures, in this order in every table, CSV, JSON and plot. */
enum { XC_ERR_T, XC_ERR_GRID, XC_ERR_EVENT_TIME, XC_ERR_POST, XC_NMEASURES };

/* Their names: "error_T", "error_grid", "event_time_error", "post_event_error", and a line of
 * text each for the table and the plot's key. */
extern const char *const xc_measure_key[XC_NMEASURES];
extern const char *const xc_measure_text[XC_NMEASURES];

/* One step count. NAN where a measure does not apply (no event, no switch of the stepper). */
typedef struct xc_result {
    long n;
    double h;
    double err[XC_NMEASURES];       /* 2-norms over the compared state; |time error| */
    double event_time_signed;       /* the stepper's switch time minus the engine's first event */
    long excluded;                  /* grid rows within a step of an event, not in XC_ERR_GRID */
    long stepper_changes;           /* the stepper's mode changes */
} xc_result;

/* Everything a report prints. */
typedef struct xc_study {
    int nruns;
    xc_result *runs;                /* nruns, coarse to fine */
    double order[XC_NMEASURES];     /* least-squares slopes; NAN when fewer than two runs fit */
    int used[XC_NMEASURES];         /* runs in each fit */
    double floor[XC_NMEASURES];     /* errors at or below this are the engine's own accuracy: no fit */
    nsdae_events_summary engine;    /* of the finest run */
    long engine_events;             /* events after t0 */
    xc_event first;                 /* the engine's first event after t0 (pre, post not kept); t NAN when none */
    xc_track coarse_ts, fine_ts, fine_engine; /* kept for the overlay plot */
} xc_study;

/* Runs both engines for every step count (steps: distinct counts >= 1, any order). Returns 0, or
 * the exit status after printing. */
int xc_study_run(const xc_system *sys, const char *cmd, const long *steps, int nruns, xc_study *st);
void xc_study_free(xc_study *st);

#endif
