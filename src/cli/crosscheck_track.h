/* One run of `nsdae crosscheck` (and of `converge --reference events`) kept in memory: the compared
 * state on every row, for the time stepper at N steps or for the event-driven engine on the same
 * grid. The compared state is what both engines share: the MLCS's differential unknowns (the
 * states of the engine's event records, eventdriven.h), or q then der(q) for the contact form. */
#ifndef NSDAE_CLI_CROSSCHECK_TRACK_H
#define NSDAE_CLI_CROSSCHECK_TRACK_H

#include "cli/table.h"

#include <nsdae/eventdriven.h>

/* The system and the options of both engines; the time stepper's grid is replaced per run. */
typedef struct xc_system {
    const nsdae_mlcs *ms;           /* one of ms, cs */
    const nsdae_lagrangian *cs;
    nsdae_stepper_options so;       /* ms: the time stepper's options */
    nsdae_moreau_options mo;        /* cs: Moreau-Jean's */
    double rtol, atol;              /* the engine's (> 0) */
    double t0, stop;
    int nx;                         /* compared states */
    char **names;                   /* nx, owned: the unknowns' names, der(q) for velocities */
    int *diff;                      /* ms: ny flags of the differential unknowns */
    int nlabel;                     /* length of a mode label, terminating 0 included */
} xc_system;

/* Fills sys for an MLCS or a contact system (borrowed, must outlive sys). rtol, atol <= 0: the
 * engine's defaults. Returns 0, or 1 after printing (out of memory). */
int xc_system_mlcs(xc_system *sys, const nsdae_mlcs *s, const nsdae_stepper_options *so, double rtol, double atol);
int xc_system_contact(xc_system *sys, const nsdae_lagrangian *s, const nsdae_moreau_options *mo, double rtol,
                      double atol);
void xc_system_free(xc_system *sys);

typedef struct xc_event {
    double t;
    double *pre, *post;             /* nx each, owned */
    char kind[16], from[48], to[48];
} xc_event;

/* A run: rows (t then the nx states); for the engine its events and summary, for the time stepper
 * its mode changes (a mode read off each row as the engine labels its modes, eventdriven.h). */
typedef struct xc_track {
    table rows;
    long nevents, cap_events;       /* engine */
    xc_event *events;
    nsdae_events_summary sum;
    long switch_row;                /* time stepper: first row whose mode differs from row 1's; -1 none */
    long mode_changes;              /* rows whose mode differs from the previous row's (from row 2) */
    char *first_mode, *prev_mode, *mode;
} xc_track;

/* The engine on the grid of n steps (n <= 0: the grid of two rows t0 and stop, for the state at
 * stop; the message names no N). Returns 0, or 1 after printing "nsdae CMD: ..." with the engine's message. */
int xc_run_engine(const xc_system *sys, const char *cmd, long n, xc_track *tr);

/* The time stepper with n steps. Returns 0, or 1 after printing. */
int xc_run_stepper(const xc_system *sys, const char *cmd, long n, xc_track *tr);

void xc_track_free(xc_track *tr);

/* The engine's state at stop into x (nx). Returns 0, or 1 after printing. */
int xc_engine_final(const xc_system *sys, const char *cmd, double *x);

#endif
