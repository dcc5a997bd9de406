/* nsdae event-driven reference engine (README, Architecture: `src/eventdriven/`): per mode a DAE
 * integrated by SUNDIALS IDA (dense or sparse linear solver, tight tolerances), mode changes located as roots,
 * the new mode chosen from the state at the event, the state restarted, IDA re-initialised.
 *
 * It runs on the two systems the time steppers run on (system.h), so that a cross-check compares
 * the two methods on the same equations:
 *   - the MLCS (mlcs.h): a mode fixes each w-row's side (complementarity: open, lambda = 0, or
 *     closed, w = 0; box: lambda at lo, at hi, or sliding, w = 0). In a mode the system is a linear
 *     DAE in z = (y, lambda), of any index up to 2 (a sliding relay, an engaged clutch);
 *   - the Lagrangian contact form (lagrangian.h): a mode is the set of closed contacts; a closed
 *     contact keeps g_c = 0 and G_c v = 0 (stabilised index 2, Gear-Gupta-Leimkuhler).
 * Roots that end a mode (IDA's root finding, left limits at the root): an open row's w_i (or an open
 * contact's gap) reaching 0 from above, a closed row's (contact's) multiplier reaching 0 from above, a
 * box row's w leaving its sign at a bound, a sliding row's multiplier reaching a bound. Exogenous
 * switches (MLCS phases, mlcs.h) are located to the last bit by bisection on phase_at in the step
 * that passes them; the left limits there are the old phase's interpolant (its DAE is smooth across
 * the switch), and the new phase starts from them. IDA chooses its own steps: the grid rows come
 * from its interpolant, only T is a stop time.
 *
 * The new mode is chosen from the state, not guessed:
 *   - MLCS: the mode-selection MLCP at the event, i.e. the implicit Euler step of the whole MLCS over
 *     a probe step delta from the left limits, solved for its minimal-norm solution (lcp.h); each
 *     row's side is read off that solution. For a relay this is the Filippov condition: the row slides
 *     exactly when no bound keeps w of one sign over the probe step;
 *   - contact: Newton's impact law as an LCP over the contacts at gap 0, then the contact-force LCP
 *     (acceleration level) over the contacts whose normal velocity is 0: which stay closed.
 * Restart: contact velocities from the impact law (positions continuous); for the MLCS the limit
 * delta -> 0 of the implicit Euler step in the new mode (extrapolated from three probe steps), which
 * for a linear DAE is the impulsive restart (an engaged clutch conserves momentum) and is continuous
 * where the change is not impulsive; the same extrapolation gives the consistent derivatives IDA
 * needs, also for index-2 modes where IDACalcIC cannot be used.
 *
 * Accumulation of events (Zeno: a ball coming to rest): when the intervals between impacts of the
 * same contacts shrink geometrically with a steady ratio r < 1 and the remaining sum of the series
 * falls below NSDAE_EVENTS_ZENO_WINDOW, the accumulation point is estimated as the sum of the
 * geometric series and the contacts are closed there (the limit mode), or the run stops with
 * NSDAE_LIMIT when the options say so. A run never loops: events are capped by max_events, and
 * NSDAE_EVENTS_MAX_SAME_TIME events at one instant end it with a message naming the modes.
 *
 * Rows: on the output grid (time_grid.h) plus, at every event, a row at the left limit and a row at
 * the restart (the same t), in the time steppers' record types (stepper.h, moreau.h) so that one
 * CSV sink serves every engine: an MLCS row has nsol = 1 and res = the max-norm of the mode's DAE
 * residual at the row; a contact row has P_c = the impulse of the event on restart rows, 0 elsewhere.
 * IDA failures end the run with the time, the mode and IDA's flag in words; every row before them
 * was already delivered. Cost: one LU of the n x n IDA matrix per Newton setup (n = ny + nl, or
 * 2 ndof + 2 ncontacts), dense or sparse (nsdae_events_linsol); not thread-safe for one system only
 * when its callbacks are not.
 */
#ifndef NSDAE_EVENTDRIVEN_H
#define NSDAE_EVENTDRIVEN_H

#include <nsdae/lagrangian.h>
#include <nsdae/mlcs.h>
#include <nsdae/moreau.h>
#include <nsdae/status.h>
#include <nsdae/stepper.h>

#define NSDAE_EVENTS_RTOL 1e-10             /* IDA's relative tolerance by default */
#define NSDAE_EVENTS_ATOL 1e-12             /* IDA's absolute tolerance by default */
#define NSDAE_EVENTS_MAX_EVENTS 100000      /* a run stops (NSDAE_LIMIT) after this many events */
#define NSDAE_EVENTS_MAX_SAME_TIME 20       /* events at one instant before the run stops (a mode cycle) */
#define NSDAE_EVENTS_ZENO_WINDOW 1e-5       /* accumulation: remaining series below this x (stop - t0); the
                                               flights are then still far above atol (ball: 1e-10 m at
                                               T = 10), so their times are accurate enough to sum */
#define NSDAE_EVENTS_ZENO_RATIO_TOL 1e-3    /* accumulation: successive interval ratios agree to this */
#define NSDAE_EVENTS_PROBE 1e-7             /* mode-selection probe step, relative to (stop - t0) */
#define NSDAE_EVENTS_SPARSE_MIN 200         /* unknowns from which IDA solves with KLU by default */

/* IDA's Newton matrix for an MLCS: dense LU (LAPACK), or KLU (SuiteSparse) on the union of its
 * modes' nonzeros, whose residual, Jacobian and index test then cost O(nonzeros), not O(n^2) and
 * O(n^3): a 1000-node diode ladder has 3000 unknowns and about 10 000 nonzeros. With KLU the
 * restart solves use it too, and the mode-selection probe is the time stepper's sparse step when
 * every row is complementarity and that step has its single-solution certificate (stepper.h);
 * otherwise the probe is the dense minimal-norm MLCP, O(n^3) per event, and only then are the
 * dense matrices made.
 * For a contact system: dense LU with IDA's difference-quotient Jacobian, or KLU on one pattern
 * for every mode (analysed once) with the analytic Jacobian from the system's patterns of M, G and
 * [dF/dq | dF/dv] (lagrangian.h; without the curvature terms of curved gaps and a q-dependent M,
 * which only slow Newton's convergence), the residual in O(nonzeros), and no ndof x ndof array
 * when the system gives the three patterns (a translated one does); a system without them is read
 * through full ones (dense blocks). Impacts and restarts use M's sparse factor (diagonal, banded
 * or CHOLMOD) and form W = G M^-1 G^T over the groups of contacts it couples, on both paths.
 * AUTO: KLU from NSDAE_EVENTS_SPARSE_MIN unknowns (for a contact system: when it gives the three
 * patterns), below that dense (the sizes at which the event-driven oracles were validated). */
typedef enum nsdae_events_linsol {
    NSDAE_EVENTS_LINSOL_AUTO = 0,
    NSDAE_EVENTS_LINSOL_DENSE,
    NSDAE_EVENTS_LINSOL_SPARSE
} nsdae_events_linsol;

typedef struct nsdae_events_options {
    double t0, stop;         /* integrate on [t0, stop] */
    long nsteps;             /* output grid as in time_grid.h: > 0: h = (stop - t0) / nsteps */
    double step;             /* used when nsteps <= 0 */
    double rtol, atol;       /* IDA tolerances; <= 0: the defaults above */
    long max_events;         /* <= 0: NSDAE_EVENTS_MAX_EVENTS */
    int stop_at_accumulation;/* 1: an accumulation point ends the run (NSDAE_LIMIT, message says where);
                                0 (default): the run goes on in the limit mode (contacts closed) */
    double probe;            /* mode-selection probe step; <= 0: NSDAE_EVENTS_PROBE * (stop - t0) */
    nsdae_events_linsol linsol; /* IDA's linear solver (above) */
} nsdae_events_options;

void nsdae_events_defaults(nsdae_events_options *o);

typedef enum nsdae_event_kind {
    NSDAE_EVENT_SWITCH = 0,      /* a sign condition of the MLCS: rows change side, state restarts */
    NSDAE_EVENT_TIME,            /* an exogenous phase change of the MLCS */
    NSDAE_EVENT_IMPACT,          /* contacts closing with Newton's impact law */
    NSDAE_EVENT_RELEASE,         /* a closed contact's force reaching 0: it opens */
    NSDAE_EVENT_ACCUMULATION     /* an accumulation point of impacts: the limit mode from here */
} nsdae_event_kind;

/* "switch", "time", "impact", "release", "accumulation". */
const char *nsdae_event_kind_name(nsdae_event_kind kind);

/* One event; arrays valid during the callback only. Mode labels have one character per MLCS w-row
 * ('o' open, 'c' closed, 'e' equality, 'l' / 'h' box at lo / hi, 's' sliding) or per contact ('o',
 * 'c'); an MLCS label with several phases ends in ":<phase>". */
typedef struct nsdae_event_record {
    double t;
    nsdae_event_kind kind;
    const char *from, *to;
    int nstates;                 /* MLCS: the differential unknowns; contact: q then der(q) */
    const char *const *state_names;
    const double *pre, *post;    /* nstates: left limits and restart values */
    int nimpulses;               /* contact: ncontacts percussions; MLCS: 0 */
    const char *const *impulse_names;
    const double *impulses;
} nsdae_event_record;

/* Return non-zero to stop the run early (status NSDAE_OK). May be NULL. */
typedef int (*nsdae_event_callback)(const nsdae_event_record *ev, void *ctx);

typedef struct nsdae_events_summary {
    long events;                 /* events handled (accumulation points included) */
    long modes_visited;          /* distinct modes integrated */
    long accumulations;          /* accumulation points passed (or 1 when the run stopped at one) */
    double first_accumulation;   /* its time, NAN when none */
    long ida_steps;              /* IDA's internal steps over the run */
    long rows;                   /* rows delivered */
    double t_end;                /* time reached */
} nsdae_events_summary;

/* The MLCS from s->y0 at o->t0 (the initial mode chosen from y0 as at an event). on_row receives
 * grid, left-limit and restart rows; on_event every event. */
nsdae_status nsdae_events_run_mlcs(const nsdae_mlcs *s, const nsdae_events_options *o, nsdae_step_callback on_row,
                                   nsdae_event_callback on_event, void *ctx, nsdae_events_summary *summary,
                                   nsdae_error *err);

/* The contact form from (q0, v0) at o->t0 (contacts at gap 0 at t0 are treated as an event). */
nsdae_status nsdae_events_run_contact(const nsdae_lagrangian *s, const nsdae_events_options *o,
                                      nsdae_contact_callback on_row, nsdae_event_callback on_event, void *ctx,
                                      nsdae_events_summary *summary, nsdae_error *err);

#endif
