/* nsdae event-capturing steppers on an MLCS (README, Architecture: `src/stepping/`).
 *
 * theta-method, on a differential row (a row of E1 that is not zero), with y = (x, u) split into
 * differential unknowns x and algebraic unknowns u (zero columns of E1):
 *     E1 (y1 - y0) = h [theta A1 x1 + (1 - theta) A0 x0 + gamma (A1 u1 + B1 lambda1)
 *                       + (1 - gamma) (A0 u0 + B0 lambda0) + theta b(t1) + (1 - theta) b(t0)],
 *   (algebraic unknowns are weighted like the multipliers that Siconos' form makes them);
 *   on an algebraic row (a zero row of E1) the same with theta = gamma = 1 (the row holds at t1),
 *   and w1 = C1 y1 + D1 lambda1 + c(t1), rows typed as in the MLCS (complementarity at t1);
 * one MLCP per step in the unknowns (y1, lambda1), solved as one mixed problem: no W^-1 is ever
 * formed, so a singular E (index-2 DAEs) is fine. Index 1 on matrices means the phase at t1,
 * index 0 the phase at t0.
 *
 * Schemes:
 *   MINNORM  the minimal-norm implicit Euler of Rocca-Acary-Brogliato (15): the step's solution
 *            minimising 1/2 ||P (y1 - y0)||^2_Q, P the differential unknowns by default;
 *            theta = 1 unless set (then it is the theta-method with minimal-norm selection).
 *   EULER    plain implicit Euler (theta = 1) keeping the first solution Siconos ENUM finds. A step
 *            with the sparse path's single-solution certificate is solved there instead: its one
 *            solution is ENUM's, without ENUM's 2^m patterns.
 *   THETA    the theta-method (theta in [1/2, 1], default 1/2) with minimal-norm selection.
 *   MOREAU   not an MLCS scheme: Moreau-Jean on the Lagrangian contact form (moreau.h). Named here
 *            so that one name list serves every engine; nsdae_stepper_run refuses it.
 */
#ifndef NSDAE_STEPPER_H
#define NSDAE_STEPPER_H

#include <nsdae/mlcs.h>
#include <nsdae/status.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum nsdae_scheme {
    NSDAE_SCHEME_MINNORM = 0,
    NSDAE_SCHEME_EULER,
    NSDAE_SCHEME_THETA,
    NSDAE_SCHEME_MOREAU
} nsdae_scheme;

/* "minnorm", "euler", "theta", "moreau" (the names of the model language and the command). */
const char *nsdae_scheme_name(nsdae_scheme scheme);
/* The scheme of a name; INVALID_INPUT naming it and the known names when it is none of them. */
nsdae_status nsdae_scheme_from_name(const char *name, nsdae_scheme *out, nsdae_error *err);

/* How a step's MLCP is solved (minnorm and theta schemes; euler is always dense).
 *   AUTO    the sparse path wherever it applies, else dense (the default: 0).
 *   DENSE   the whole step MLCP, dense, through nsdae_lcp_minnorm (branch and bound when needed).
 *   SPARSE  the sparse path on every step, UNSUPPORTED where it does not apply.
 * The sparse path (KLU, SuiteSparse) applies when every MLCS row is a complementarity row, the
 * step matrix restricted to the y rows is regular and the LCP it leaves on the MLCS rows has a
 * positive definite symmetric part: then the step has one solution (nsol 1) and that is the
 * minimal-norm one, found by warm-started principal pivoting; tested once per phase and h. */
typedef enum nsdae_step_solver {
    NSDAE_STEP_SOLVER_AUTO = 0,
    NSDAE_STEP_SOLVER_DENSE,
    NSDAE_STEP_SOLVER_SPARSE
} nsdae_step_solver;

typedef struct nsdae_stepper_options {
    nsdae_scheme scheme;
    double theta;            /* in [1/2, 1]; <= 0 means the scheme's default */
    double gamma;            /* weight at t1 of lambda and the algebraic unknowns in the differential
                              * rows, in [1/2, 1]; <= 0 means 1 */
    double t0, stop;         /* integrate on [t0, stop] */
    long nsteps;             /* > 0: h = (stop - t0) / nsteps (wins over step) */
    double step;             /* used when nsteps <= 0: fixed h, the last step shortened to land on stop */
    int select_algebraic;    /* minimal norm also over the algebraic unknowns y (not the multipliers) */
    const double *weight;    /* optional SPD weight over the selected unknowns (k x k, column-major) */
    int count_solutions;     /* count every solution of each step's MLCP (nsol); default on via _defaults */
    int gamma_relation;      /* theta scheme: gamma weights the differential unknowns where the algebraic
                              * rows and the complementarity relations read them (gamma y1 + (1 - gamma) y0)
                              * and no longer the multipliers, which enter at t1: Siconos' EulerMoreauOSI
                              * with setUseGammaForRelation(true); default 0 */
    nsdae_step_solver solver; /* default AUTO */
} nsdae_stepper_options;

/* minnorm, theta and gamma unset, [0, 1] with step = 0.01 (nsteps 0: setting step alone takes
 * effect), count_solutions on. */
void nsdae_stepper_defaults(nsdae_stepper_options *o);

/* The defaults, then what the system carries from its model's experiment (mlcs.h): stop, step,
 * scheme, theta and gamma (theta and gamma not for the euler scheme, whose are 1). INVALID_INPUT
 * when the carried scheme is unknown, UNSUPPORTED when it is moreau (the contact form's engine);
 * the message names the scheme. The caller overrides fields afterwards. */
nsdae_status nsdae_stepper_options_for(const nsdae_mlcs *s, nsdae_stepper_options *o, nsdae_error *err);

/* What a step produced; the arrays are valid only during the callback. */
typedef struct nsdae_step_record {
    long k;                  /* step number, 0 for the initial state */
    double t;
    const double *y;         /* ny */
    const double *lambda;    /* nl */
    long nsol;               /* solutions of the step's MLCP: >= 1, -1 a continuum, 0 unknown (initial row) */
    double residual;         /* max-norm residual of the step's MLCP at the chosen solution */
} nsdae_step_record;

/* Return non-zero from the callback to stop the run early (status NSDAE_OK). */
typedef int (*nsdae_step_callback)(const nsdae_step_record *rec, void *ctx);

typedef struct nsdae_stepper_summary {
    long steps;              /* steps completed */
    long several;            /* steps whose MLCP had more than one solution (a continuum counts) */
    long continuum;          /* steps whose MLCP had a continuum of solutions */
    long uncounted;          /* steps whose solutions were not counted (nsol 0: counting is bounded
                                by NSDAE_LCP_COUNT_MAX_M complementarity rows, or off) */
    double t_end;            /* time reached */
    double h;                /* nominal step */
    long sparse;             /* steps solved on the sparse path (nsdae_step_solver) */
} nsdae_stepper_summary;

/* The number of steps the options give, and the nominal step h (the last step may be shorter):
 * the n and h of nsdae_time_grid_make (time_grid.h), the grid every engine uses; 0 when the
 * options give no grid. */
long nsdae_stepper_steps(const nsdae_stepper_options *o, double *h);

/* Runs the scheme from s->y0 at o->t0; calls cb for the initial state and after every step.
 * y_end (ny, may be NULL) receives the last state. When a step's MLCP has no solution the run
 * stops with NSDAE_NO_SOLUTION, a message giving t and the state, and everything before it was
 * already delivered to cb. s may be stored compressed (a translated system, mlcs.h): the sparse
 * path reads its entries, and the dense path makes the dense matrices for itself on its first
 * step (O((ny + nl)^2) memory from then on), leaving s as it is. */
nsdae_status nsdae_stepper_run(const nsdae_mlcs *s, const nsdae_stepper_options *o, nsdae_step_callback cb,
                               void *ctx, double *y_end, nsdae_stepper_summary *summary, nsdae_error *err);

#ifdef __cplusplus
}
#endif

#endif
