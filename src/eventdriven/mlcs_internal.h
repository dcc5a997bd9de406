/* The MLCS as an event-driven problem (mlcs_problem.c: a mode's DAE, roots, rows; mlcs_event.c:
 * the mode-selection MLCP and the restart). */
#ifndef NSDAE_ED_MLCS_INTERNAL_H
#define NSDAE_ED_MLCS_INTERNAL_H

#include "eventdriven/ed_internal.h"

/* Unknowns z = (y [ny], lambda [nl]). In a mode (one side per w-row, see eventdriven.h):
 *   E y' = A y + B lambda + b(t)            (the phase's data, forcing added)
 *   w_i = (C y + D lambda + c(t))_i = 0      rows 'e', 'c', 's'
 *   lambda_i = 0 / lo_i / hi_i               rows 'o', 'l', 'h'
 * a linear DAE whose Jacobian is constant in the mode. */
typedef struct mlcs_problem {
    const nsdae_mlcs *s;
    nsdae_events_options o;
    int ny, nl, n;
    int phase;
    char *side;                  /* nl */
    char *label;                 /* nl + 24 */
    double *b, *c;               /* the phase's b(t), c(t) (scratch) */
    double *r;                   /* residual scratch (n) */
    int *diff;                   /* ny: differential in some phase (nsdae_mlcs_differential) */
    int *alg;                    /* n: algebraic in the current mode (scratch of mode_setup) */
    int *states;                 /* indices of the differential unknowns */
    int nstates;
    char **state_names;
    double *pre, *post;          /* nstates: the last event's left limits and restart */
    nsdae_step_callback on_row;
    nsdae_event_callback on_event;
    void *ctx;
    nsdae_events_summary *sum;
    ed_mode_set modes;
} mlcs_problem;

/* b, c of the current phase at t (phase data plus the forcing). */
void mlcs_rhs(mlcs_problem *mp, int phase, double t, double *b, double *c);

/* The mode label ("oc..." and ":phase" when the system has several phases). */
const char *mlcs_label_of(mlcs_problem *mp);

/* The event handler (ed_problem.event). */
/* Whether the probe at t keeps the current mode (mlcs_event.c; the problem is left as it was). */
int mlcs_keeps_mode(double t, const double *z, void *self);
nsdae_status mlcs_event(double *t, const int *roots, int exogenous, double *z, double *zp, int *stop, void *self,
                        nsdae_error *err);

#endif
