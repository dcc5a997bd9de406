/* The IDA driver shared by every system: integrate the current mode in IDA's one-step mode with
 * the next output time as stop time, write the grid rows it passed (IDA's interpolant), and at a
 * root or an exogenous switch hand the left limits to the problem, write the left-limit and
 * restart rows, and re-initialise IDA. Guards: events per run, events at one instant. */
#include "eventdriven/ed_internal.h"

#include <float.h>
#include <ida/ida.h>
#include <math.h>
#include <nvector/nvector_serial.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

typedef struct driver {
    const ed_problem *p;
    SUNContext ctx;
    void *ida;
    N_Vector z, zp, id, atol;
    SUNMatrix A;
    SUNLinearSolver ls;
    int *dirs, *found;
    double rtol, atol_default;   /* the options' tolerances (mode_setup may raise atol per unknown) */
    long ida_steps;          /* IDA steps before the last re-initialisation (IDAReInit resets IDA's count) */
    char ida_message[256];   /* IDA's last error text (it never prints: the handler keeps it) */
} driver;

static int res_fn(realtype t, N_Vector z, N_Vector zp, N_Vector r, void *user)
{
    const ed_problem *p = user;
    return p->residual(t, N_VGetArrayPointer(z), N_VGetArrayPointer(zp), N_VGetArrayPointer(r), p->self) ? 1 : 0;
}

static int jac_fn(realtype t, realtype cj, N_Vector z, N_Vector zp, N_Vector r, SUNMatrix J, void *user,
                  N_Vector t1, N_Vector t2, N_Vector t3)
{
    (void)r, (void)t1, (void)t2, (void)t3;
    const ed_problem *p = user;
    if (p->nnz > 0)
        return p->jacobian_csc(t, cj, N_VGetArrayPointer(z), N_VGetArrayPointer(zp), SUNSparseMatrix_IndexPointers(J),
                               SUNSparseMatrix_IndexValues(J), SUNSparseMatrix_Data(J), p->self) ? 1 : 0;
    else
        p->jacobian(t, cj, SUNDenseMatrix_Data(J), p->self);  /* dense data is column-major n x n */
    return 0;
}

static int root_fn(realtype t, N_Vector z, N_Vector zp, realtype *g, void *user)
{
    (void)zp;
    const ed_problem *p = user;
    return p->roots(t, N_VGetArrayPointer(z), g, p->self) ? 1 : 0;
}

static void err_fn(int code, const char *module, const char *function, char *msg, void *user)
{
    (void)code, (void)module;
    driver *d = user;
    snprintf(d->ida_message, sizeof d->ida_message, "%s: %s", function, msg);
}

static void driver_free(driver *d)
{
    if (d->ida) IDAFree(&d->ida);
    if (d->ls) SUNLinSolFree(d->ls);
    if (d->A) SUNMatDestroy(d->A);
    if (d->z) N_VDestroy(d->z);
    if (d->zp) N_VDestroy(d->zp);
    if (d->id) N_VDestroy(d->id);
    if (d->atol) N_VDestroy(d->atol);
    if (d->ctx) SUNContext_Free(&d->ctx);
    free(d->dirs);
    free(d->found);
}

/* Creates IDA at (t0, z, zp) with the tolerances, the linear solver (KLU on the problem's pattern
 * when it gives one, else dense LU) and the roots. */
static nsdae_status driver_open(driver *d, double t0, const nsdae_events_options *o, nsdae_error *err)
{
    const ed_problem *p = d->p;
    d->rtol = o->rtol;
    d->atol_default = o->atol;
    d->id = N_VNew_Serial(p->n, d->ctx);
    d->atol = N_VNew_Serial(p->n, d->ctx);
    d->A = p->nnz > 0 ? SUNSparseMatrix(p->n, p->n, p->nnz, CSC_MAT, d->ctx) : SUNDenseMatrix(p->n, p->n, d->ctx);
    d->dirs = calloc((size_t)p->nroots + 1, sizeof *d->dirs);
    d->found = calloc((size_t)p->nroots + 1, sizeof *d->found);
    d->ida = IDACreate(d->ctx);
    if (!d->id || !d->atol || !d->A || !d->dirs || !d->found || !d->ida) return nsdae_error_set(err, NSDAE_NOMEM, "IDA: out of memory");
    d->ls = p->nnz > 0 ? SUNLinSol_KLU(d->z, d->A, d->ctx) : SUNLinSol_Dense(d->z, d->A, d->ctx);
    int flag = d->ls ? IDASetErrHandlerFn(d->ida, err_fn, d) : IDA_MEM_FAIL;
    if (!flag) flag = IDAInit(d->ida, res_fn, t0, d->z, d->zp);
    if (!flag) flag = IDASetUserData(d->ida, (void *)p);
    if (!flag) flag = IDASetLinearSolver(d->ida, d->ls, d->A);
    if (!flag && (p->jacobian || p->nnz > 0)) flag = IDASetJacFn(d->ida, jac_fn);
    if (!flag) flag = IDARootInit(d->ida, p->nroots, root_fn);
    if (!flag) flag = IDASetMaxNumSteps(d->ida, 1000000);
    if (!flag) flag = IDASetSuppressAlg(d->ida, SUNTRUE);  /* multipliers: no error test (index 2) */
    if (flag) return nsdae_error_set(err, NSDAE_NUMERICAL, "IDA set-up failed: %s", ed_ida_flag_words(flag));
    return NSDAE_OK;
}

/* The current mode's differential flags and root directions, and IDA restarted at (t, z, zp). */
static nsdae_status driver_mode(driver *d, double t, int reinit, nsdae_error *err)
{
    N_VConst(d->atol_default, d->atol);
    d->p->mode_setup(N_VGetArrayPointer(d->id), N_VGetArrayPointer(d->atol), d->dirs, d->p->self);
    long nst = 0;
    if (reinit && IDAGetNumSteps(d->ida, &nst) == 0) d->ida_steps += nst;
    int flag = reinit ? IDAReInit(d->ida, t, d->z, d->zp) : 0;
    if (!flag) flag = IDASVtolerances(d->ida, d->rtol, d->atol);
    if (!flag) flag = IDASetId(d->ida, d->id);
    if (!flag && d->p->nroots > 0) flag = IDASetRootDirection(d->ida, d->dirs);
    if (flag)
        return nsdae_error_set(err, NSDAE_NUMERICAL, "IDA restart at t = %.17g in mode %s failed: %s", t,
                               d->p->mode_label(d->p->self), ed_ida_flag_words(flag));
    return NSDAE_OK;
}

typedef struct run_state {
    nsdae_time_grid grid;
    long k;                  /* next grid index to write */
    long row;                /* rows written */
    int stop;                /* a callback asked to stop */
} run_state;

/* Writes the grid rows at t_k < t_end (or <= when inclusive) from IDA's interpolant, or from the
 * frozen state (z, zp) when frozen. */
static nsdae_status grid_rows(driver *d, run_state *rs, double t_end, int inclusive, int frozen, nsdae_error *err)
{
    const ed_problem *p = d->p;
    N_Vector y = frozen ? NULL : N_VClone(d->z), yp = frozen ? NULL : N_VClone(d->zp);
    if (!frozen && (!y || !yp)) {
        if (y) N_VDestroy(y);
        return nsdae_error_set(err, NSDAE_NOMEM, "grid rows: out of memory");
    }
    nsdae_status st = NSDAE_OK;
    while (!rs->stop && rs->k <= rs->grid.n) {
        double tk = nsdae_time_grid_time(&rs->grid, rs->k);
        if (tk > t_end || (!inclusive && tk == t_end)) break;
        const double *zv = N_VGetArrayPointer(d->z), *zpv = N_VGetArrayPointer(d->zp);
        if (!frozen) {
            int flag = IDAGetDky(d->ida, tk, 0, y);
            if (!flag) flag = IDAGetDky(d->ida, tk, 1, yp);
            if (flag) {
                st = nsdae_error_set(err, NSDAE_NUMERICAL, "IDA interpolation at t = %.17g failed: %s", tk,
                                     ed_ida_flag_words(flag));
                break;
            }
            zv = N_VGetArrayPointer(y);
            zpv = N_VGetArrayPointer(yp);
        }
        if (p->row(rs->row++, tk, zv, zpv, 0, p->self)) rs->stop = 1;
        rs->k++;
    }
    if (y) N_VDestroy(y);
    if (yp) N_VDestroy(yp);
    return st;
}

/* One event at t (left limits in d->z, d->zp): rows, the problem's choice, IDA restarted. */
static nsdae_status handle_event(driver *d, run_state *rs, double t, const int *roots, int exogenous,
                                 double *t_out, nsdae_error *err)
{
    const ed_problem *p = d->p;
    double *z = N_VGetArrayPointer(d->z), *zp = N_VGetArrayPointer(d->zp);
    /* a root that leaves the mode as it is writes no rows; the problem still projects the state
     * onto its mode (without that the rounding that fired the root fires it again: the Rocca
     * crossing took 19 196 IDA steps instead of 264); the caller's same-instant count still bounds a
     * root that keeps firing */
    int keeps = roots && p->keeps_mode && p->keeps_mode(t, z, p->self);
    if (!keeps && p->row(rs->row++, t, z, zp, 1, p->self)) rs->stop = 1;
    double t_new = t;
    nsdae_status st = p->event(&t_new, roots, exogenous, z, zp, &rs->stop, p->self, err);
    if (st) return st;
    if (keeps && t_new == t) {
        *t_out = t;
        return driver_mode(d, t, 1, err);
    }
    if (t_new > t) {   /* an accumulation point: the state is frozen up to it */
        st = grid_rows(d, rs, t_new, 0, 1, err);
        if (st) return st;
    }
    if (p->row(rs->row++, t_new, z, zp, 2, p->self)) rs->stop = 1;
    *t_out = t_new;
    return driver_mode(d, t_new, 1, err);
}

/* The events at one instant: more than NSDAE_EVENTS_MAX_SAME_TIME is a cycle of modes. */
static nsdae_status count_event(const ed_problem *p, double t, double *t_last, int *same, long events, long max_events,
                                nsdae_error *err)
{
    *same = fabs(t - *t_last) <= 4 * 2.220446049250313e-16 * fabs(t) ? *same + 1 : 0;
    *t_last = t;
    if (*same >= NSDAE_EVENTS_MAX_SAME_TIME)
        return nsdae_error_set(err, NSDAE_LIMIT,
                               "%d events at t = %.17g without time advancing (last mode %s): the modes cycle, "
                               "no mode is consistent with the state", NSDAE_EVENTS_MAX_SAME_TIME, t,
                               p->mode_label(p->self));
    if (events >= max_events)
        return nsdae_error_set(err, NSDAE_LIMIT, "%ld events by t = %.17g (max_events): the run stops here", events, t);
    return NSDAE_OK;
}

/* The loop: IDA one step at a time, its own step size; the grid rows it passed come from its
 * interpolant (of the method's order, so as accurate as the steps). Only the end of the grid is a
 * stop time: stopping at every grid time cut IDA's steps to the output step (the relay oscillator
 * took 31519 steps for 30000 rows). Roots and exogenous switches are events. */
static nsdae_status drive(driver *d, run_state *rs, const nsdae_events_options *o, double t, nsdae_events_summary *sum,
                          nsdae_error *err)
{
    const ed_problem *p = d->p;
    double t_last_event = -INFINITY;
    int same = 0, tiny = 0;
    nsdae_status st = NSDAE_OK;
    while (!st && !rs->stop && rs->k <= rs->grid.n) {
        double tout = nsdae_time_grid_time(&rs->grid, rs->k);
        /* an event landed on the grid time, or within the resolution of t below it (IDA refuses a
         * tout that close): the restart is its row */
        if (tout - t <= 4 * DBL_EPSILON * fabs(tout)) {
            st = grid_rows(d, rs, fmax(t, tout), 1, 1, err);
            continue;
        }
        IDASetStopTime(d->ida, nsdae_time_grid_time(&rs->grid, rs->grid.n));
        double tret = t;
        int flag = IDASolve(d->ida, tout, &tret, d->z, d->zp, IDA_ONE_STEP);
        if (flag < 0)
            return nsdae_error_set(err, NSDAE_NUMERICAL, "IDA failed at t = %.17g in mode %s: %s (%s)", tret,
                                   p->mode_label(p->self), ed_ida_flag_words(flag), d->ida_message);
        /* a step below the resolution of t does not advance it: IDA would go on forever */
        double hl = 0;
        IDAGetLastStep(d->ida, &hl);
        tiny = tret + hl == tret ? tiny + 1 : 0;
        if (tiny > 100)
            return nsdae_error_set(err, NSDAE_NUMERICAL,
                                   "IDA's step (%g) fell below the resolution of t at t = %.17g in mode %s: the "
                                   "mode's DAE cannot be integrated from this restart", hl, tret,
                                   p->mode_label(p->self));
        double ts;
        if (p->exogenous && p->exogenous(t, tret, &ts, p->self)) {
            st = grid_rows(d, rs, ts, 0, 0, err);
            int f2 = st ? 0 : IDAGetDky(d->ida, ts, 0, d->z);
            if (!f2 && !st) f2 = IDAGetDky(d->ida, ts, 1, d->zp);
            if (f2) st = nsdae_error_set(err, NSDAE_NUMERICAL, "IDA interpolation at t = %.17g failed: %s", ts,
                                         ed_ida_flag_words(f2));
            if (!st) st = count_event(p, ts, &t_last_event, &same, sum->events, o->max_events, err);
            if (!st) st = handle_event(d, rs, ts, NULL, 1, &t, err);
            continue;
        }
        if (flag == IDA_ROOT_RETURN) {
            st = grid_rows(d, rs, tret, 0, 0, err);
            if (!st) IDAGetRootInfo(d->ida, d->found);
            if (!st) st = count_event(p, tret, &t_last_event, &same, sum->events, o->max_events, err);
            if (!st) st = handle_event(d, rs, tret, d->found, 0, &t, err);
            continue;
        }
        st = grid_rows(d, rs, tret, 1, 0, err);
        t = tret;
    }
    long nst = 0;
    IDAGetNumSteps(d->ida, &nst);
    sum->ida_steps = d->ida_steps + nst;
    sum->t_end = t;
    return st;
}

nsdae_status ed_run(const ed_problem *p, const nsdae_events_options *o, nsdae_events_summary *sum, nsdae_error *err)
{
    run_state rs = {0};
    nsdae_status st = nsdae_time_grid_make(o->t0, o->stop, o->nsteps, o->step, &rs.grid, err);
    if (st) return st;
    driver d = {0};
    d.p = p;
    if (SUNContext_Create(NULL, &d.ctx) != 0) return nsdae_error_set(err, NSDAE_NOMEM, "SUNDIALS context: out of memory");
    d.z = N_VNew_Serial(p->n, d.ctx);
    d.zp = N_VNew_Serial(p->n, d.ctx);
    if (!d.z || !d.zp) st = nsdae_error_set(err, NSDAE_NOMEM, "IDA vectors: out of memory");
    double t = o->t0;
    if (!st) {
        N_VConst(0.0, d.z);
        N_VConst(0.0, d.zp);
        st = p->event(&t, NULL, 0, N_VGetArrayPointer(d.z), N_VGetArrayPointer(d.zp), &rs.stop, p->self, err);
    }
    if (!st) st = driver_open(&d, t, o, err);
    if (!st) st = driver_mode(&d, t, 0, err);
    if (!st && p->row(rs.row++, t, N_VGetArrayPointer(d.z), N_VGetArrayPointer(d.zp), 0, p->self)) rs.stop = 1;
    rs.k = 1;
    if (!st) st = drive(&d, &rs, o, t, sum, err);
    sum->rows = rs.row;
    driver_free(&d);
    return st;
}
