/* The MLCS as an event-driven problem (mlcs_problem.c: a mode's DAE, roots, rows; mlcs_event.c:
 * the mode-selection MLCP and the restart). */
#ifndef NSDAE_ED_MLCS_INTERNAL_H
#define NSDAE_ED_MLCS_INTERNAL_H

#include "eventdriven/ed_internal.h"
#include "stepping/csc.h"
#include "stepping/sparse_step.h"

/* Unknowns z = (y [ny], lambda [nl]). In a mode (one side per w-row, see eventdriven.h):
 *   E y' = A y + B lambda + b(t)            (the phase's data, forcing added)
 *   w_i = (C y + D lambda + c(t))_i = 0      rows 'e', 'c', 's'
 *   lambda_i = 0 / lo_i / hi_i               rows 'o', 'l', 'h'
 * a linear DAE whose Jacobian is constant in the mode. */
/* An MLCS's phases in compressed columns, and the pattern of IDA's Newton matrix over every phase
 * and mode (mlcs_columns.c): used when IDA solves with KLU (eventdriven.h, nsdae_events_linsol). */
typedef struct mlcs_phase_columns {
    csc E, A, B, C, D;
    int *slotE, *slotA, *slotB, *slotC, *slotD;   /* each entry's slot in the Newton matrix */
} mlcs_phase_columns;

typedef struct mlcs_columns {
    int ny, nl, n, nphases;
    mlcs_phase_columns *ph;
    long nnz;
    int *colp, *rowi;       /* the Newton matrix's pattern (n + 1, nnz) */
    int *diag;              /* nl: slot of multiplier i's diagonal entry (a bound row's 1) */
    double *val;            /* nnz: the index test's matrix */
    int *row_diff;          /* ny per phase: row i of E has an entry (a differential equation) */
    void *klu_symbolic;     /* KLU's analysis of the pattern, for the index test (mode_setup) */
    void *klu_common;
} mlcs_columns;

int mlcs_columns_create(mlcs_columns *mc, const nsdae_mlcs *s);
void mlcs_columns_free(mlcs_columns *mc);
/* The Newton matrix dF/dz + cj dF/dz' of phase `phase` with rows typed by side (mlcs_internal.h's
 * mode), on the pattern: val[nnz]. */
void mlcs_columns_jacobian(const mlcs_columns *mc, int phase, const char *side, double cj, double *val);
/* Solves the restart system at step d (mlcs_event.c): [E - d A, -d B; the mode's rows] x = x, by
 * KLU on the pattern. 0, or -1 when the matrix is singular. */
int mlcs_columns_restart_solve(mlcs_columns *mc, int phase, const char *side, double d, double *x);
/* r[0..ny) = E zp - A y - B lambda - b and w[0..nl) = C y + D lambda + c (either NULL: skipped). */
void mlcs_columns_residual(const mlcs_columns *mc, int phase, const double *z, const double *zp, const double *b,
                           const double *c, double *r, double *w);
/* alg[j] = 1 when unknown j has no column in E (j >= ny: always). */
void mlcs_columns_algebraic(const mlcs_columns *mc, int phase, int *alg);
/* Index 1 or less (mlcs_problem.c's mode_index_one, on the pattern, by KLU). */
int mlcs_columns_index_one(mlcs_columns *mc, int phase, const char *side, const int *alg);
/* Index 2: the algebraic unknowns' tolerances (mlcs_problem.c's index_two_tolerances). */
void mlcs_columns_index_two_tolerances(const mlcs_columns *mc, int phase, const int *alg, double h_ref,
                                       double *atol);

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
    mlcs_columns *cols;          /* IDA with KLU: the compressed columns; NULL: dense */
    sparse_step *step;           /* with cols, when every row is complementarity: the stepper's sparse
                                    step, for the mode-selection probe (mlcs_event.c); else NULL */
    double *row_r;               /* n: a row's residual (scratch of mlcs_row) */
    double *scale;               /* nl: the rows' terms at the probe's point (sides_from_probe) */
    /* A system stored compressed gets its dense E, A, B, C, D only when a dense computation needs
     * them (mlcs_dense_ready): with KLU, a probe without the sparse step's certificate. */
    nsdae_mlcs dense_view;
    nsdae_mlcs_phase *dense_phases;
} mlcs_problem;

/* Makes mp->s a system with dense matrices (a view with them materialised, once), for the dense
 * computations. NSDAE_NOMEM names the size. */
nsdae_status mlcs_dense_ready(mlcs_problem *mp, nsdae_error *err);

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
