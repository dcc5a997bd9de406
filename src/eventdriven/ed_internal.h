/* The event-driven engine's internal interface: one IDA driver (driver.c) for every system, and a
 * problem per system (mlcs_problem.c, contact_problem.c) that says what a mode's DAE, its roots and
 * its events are. The driver owns IDA, the output grid and the guards against endless event
 * loops; a problem owns its mode and the choice of the next one. */
#ifndef NSDAE_ED_INTERNAL_H
#define NSDAE_ED_INTERNAL_H

#include <nsdae/eventdriven.h>
#include <nsdae/time_grid.h>
#include <sundials/sundials_types.h>

typedef struct ed_problem {
    int n;                   /* IDA unknowns, the same in every mode (inactive multipliers are rows z_i = 0) */
    int nroots;              /* root functions, the same in every mode (unused ones are constant 1) */
    void *self;

    /* F(t, z, z') = 0 of the current mode. Returns 0, or non-zero when a callback of the system failed. */
    int (*residual)(double t, const double *z, const double *zp, double *r, void *self);
    /* dF/dz + cj dF/dz', column-major n x n; NULL: IDA's difference quotients. */
    void (*jacobian)(double t, double cj, double *J, void *self);
    int (*roots)(double t, const double *z, double *g, void *self);
    /* Per mode: id[i] = 0 for an unknown left out of IDA's error test (the algebraic unknowns of an
     * index-2 mode: their error does not shrink with the step), 1 otherwise; atol[i], IDA's absolute
     * tolerance on unknown i (the options' atol on entry; a problem raises it where its Newton test
     * would ask more than the arithmetic gives); root directions. */
    void (*mode_setup)(double *id, double *atol, int *dirs, void *self);
    /* An exogenous switch in (ta, tb]: returns 1 and its time *ts (the first time of the new phase,
     * found to the last bit), else 0. NULL: none. */
    int (*exogenous)(double ta, double tb, double *ts, void *self);
    /* The event at *t: z, zp hold the left limits on entry, the restart on return; at the start
     * (roots NULL and exogenous 0) they hold zeros and the problem writes its initial state. roots: IDA's rootsfound, or NULL for an
     * exogenous switch or the start. The problem may move *t forward (an accumulation point: the
     * state is frozen in between). Sets *stop when the event callback asked to stop. */
    nsdae_status (*event)(double *t, const int *roots, int exogenous, double *z, double *zp, int *stop, void *self,
                          nsdae_error *err);
    /* Delivers a row (kind: 0 grid, 1 left limit, 2 restart); non-zero: the caller asked to stop. */
    int (*row)(long k, double t, const double *z, const double *zp, int kind, void *self);
    /* The current mode's label (for messages). */
    const char *(*mode_label)(void *self);
    /* Whether a root at t with state z leaves the mode as it is (the problem unchanged on return):
     * then the driver writes no rows for it, and event() projects the state without logging an
     * event. NULL: every root is an event. */
    int (*keeps_mode)(double t, const double *z, void *self);
    /* The sparse alternative (used instead when nnz > 0): dF/dz + cj dF/dz' in compressed columns
     * of one pattern of nnz entries for the whole run (the union over modes; an entry a mode does
     * not use is 0), at (t, z, zp), pattern and values written on every call (IDA zeroes the matrix
     * before). IDA then solves with KLU. Returns 0, or non-zero when a callback of the system failed. */
    long nnz;
    int (*jacobian_csc)(double t, double cj, const double *z, const double *zp, sunindextype *colp, sunindextype *rowi,
                        double *val, void *self);
} ed_problem;

/* Runs the problem on the options' grid. summary: events and accumulations are counted by the
 * problem (it writes them into summary through ed_run's pointer), the rest here. */
nsdae_status ed_run(const ed_problem *p, const nsdae_events_options *o, nsdae_events_summary *summary,
                    nsdae_error *err);

/* Options with the defaults filled in (rtol, atol, max_events, probe). */
nsdae_events_options ed_options_resolved(const nsdae_events_options *o);

/* IDA's return flag in words ("too much work (mxstep steps before tout)", ...). */
const char *ed_ida_flag_words(int flag);

/* Dense solve A x = b (A n x n column-major, overwritten; b overwritten by x). 0 or non-zero when singular. */
int ed_dense_solve(int n, double *A, double *b, int nrhs);

/* Modes seen so far, by label: returns 1 when label is new (and remembers it). */
typedef struct ed_mode_set {
    char **labels;
    long n, cap;
} ed_mode_set;
int ed_mode_set_add(ed_mode_set *set, const char *label);
void ed_mode_set_free(ed_mode_set *set);

#endif
