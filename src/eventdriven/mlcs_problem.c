/* The MLCS mode's DAE for IDA (unknowns and equations in mlcs_internal.h), its analytic Jacobian
 * (constant in a mode), its roots, its rows, the exogenous switches, and the public entry
 * nsdae_events_run_mlcs.
 *
 * Why the MLCS and not the model's expression tape with the dummy-derivative selection: the MLCS
 * is the system the time stepper integrates, so a cross-check compares the two methods on exactly
 * the same equations, and in the MLCS a mode is a linear DAE whose Jacobian is exact and whose
 * restart is the implicit Euler step's limit (mlcs_event.c). The sliding modes of relays and the
 * engaged clutch are index 2 there; IDA integrates them with the multipliers out of its error test. */
#include "eventdriven/mlcs_internal.h"

#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mlcs_rhs(mlcs_problem *mp, int phase, double t, double *b, double *c)
{
    const nsdae_mlcs *s = mp->s;
    memcpy(b, s->phases[phase].b, (size_t)mp->ny * sizeof *b);
    memcpy(c, s->phases[phase].c, (size_t)mp->nl * sizeof *c);
    if (s->forcing) s->forcing(t, b, c, s->ctx);
}

/* w = C y + D lambda + c (c given). */
static void mlcs_w(const mlcs_problem *mp, const double *z, const double *c, double *w)
{
    if (mp->cols) {
        mlcs_columns_residual(mp->cols, mp->phase, z, NULL, NULL, c, NULL, w);
        return;
    }
    const nsdae_mlcs_phase *ph = &mp->s->phases[mp->phase];
    const int ny = mp->ny, nl = mp->nl;
    for (int i = 0; i < nl; i++) {
        double s = c[i];
        for (int j = 0; j < ny; j++) s += ph->C[i + j * nl] * z[j];
        for (int j = 0; j < nl; j++) s += ph->D[i + j * nl] * z[ny + j];
        w[i] = s;
    }
}

static double row_bound(const mlcs_problem *mp, int i)
{
    return mp->side[i] == 'l' ? mp->s->lo[i] : mp->side[i] == 'h' ? mp->s->hi[i] : 0.0;
}

static int mlcs_residual(double t, const double *z, const double *zp, double *r, void *self)
{
    mlcs_problem *mp = self;
    const nsdae_mlcs_phase *ph = &mp->s->phases[mp->phase];
    const int ny = mp->ny, nl = mp->nl;
    mlcs_rhs(mp, mp->phase, t, mp->b, mp->c);
    if (mp->cols)
        mlcs_columns_residual(mp->cols, mp->phase, z, zp, mp->b, mp->c, r, r + ny);
    for (int i = 0; !mp->cols && i < ny; i++) {
        double s = -mp->b[i];
        for (int j = 0; j < ny; j++) s += ph->E[i + j * ny] * zp[j] - ph->A[i + j * ny] * z[j];
        for (int j = 0; j < nl; j++) s -= ph->B[i + j * ny] * z[ny + j];
        r[i] = s;
    }
    if (!mp->cols) mlcs_w(mp, z, mp->c, r + ny);
    for (int i = 0; i < nl; i++)
        if (mp->side[i] == 'o' || mp->side[i] == 'l' || mp->side[i] == 'h') r[ny + i] = z[ny + i] - row_bound(mp, i);
    return 0;
}

static void mlcs_jacobian(double t, double cj, double *J, void *self)
{
    (void)t;
    mlcs_problem *mp = self;
    const nsdae_mlcs_phase *ph = &mp->s->phases[mp->phase];
    const int ny = mp->ny, nl = mp->nl, n = mp->n;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < ny; i++) J[i + j * n] = cj * ph->E[i + j * ny] - ph->A[i + j * ny];
    for (int j = 0; j < nl; j++)
        for (int i = 0; i < ny; i++) J[i + (ny + j) * n] = -ph->B[i + j * ny];
    for (int i = 0; i < nl; i++) {
        int bound = mp->side[i] == 'o' || mp->side[i] == 'l' || mp->side[i] == 'h';
        for (int j = 0; j < ny; j++) J[ny + i + j * n] = bound ? 0.0 : ph->C[i + j * nl];
        for (int j = 0; j < nl; j++) J[ny + i + (ny + j) * n] = bound ? (i == j) : ph->D[i + j * nl];
    }
}

/* The same on the compressed pattern (IDA with KLU). */
static int mlcs_jacobian_csc(double t, double cj, const double *z, const double *zp, sunindextype *colp,
                             sunindextype *rowi, double *val, void *self)
{
    (void)t, (void)z, (void)zp;
    mlcs_problem *mp = self;
    const mlcs_columns *mc = mp->cols;
    for (int j = 0; j <= mc->n; j++) colp[j] = mc->colp[j];
    for (long k = 0; k < mc->nnz; k++) rowi[k] = mc->rowi[k];
    mlcs_columns_jacobian(mc, mp->phase, mp->side, cj, val);
    return 0;
}

/* Two roots per w-row, each ending the mode when it reaches 0 from above (eventdriven.h). */
static int mlcs_roots(double t, const double *z, double *g, void *self)
{
    mlcs_problem *mp = self;
    const int ny = mp->ny, nl = mp->nl;
    double *w = mp->r;
    mlcs_rhs(mp, mp->phase, t, mp->b, mp->c);
    mlcs_w(mp, z, mp->c, w);
    for (int i = 0; i < nl; i++) {
        double l = z[ny + i], g0 = 1.0, g1 = 1.0;
        switch (mp->side[i]) {
        case 'o': g0 = w[i]; break;
        case 'c': g0 = l; break;
        case 'l': g0 = w[i]; break;
        case 'h': g0 = -w[i]; break;
        case 's':
            if (isfinite(mp->s->lo[i])) g0 = l - mp->s->lo[i];
            if (isfinite(mp->s->hi[i])) g1 = mp->s->hi[i] - l;
            break;
        default: break;
        }
        g[2 * i] = g0;
        g[2 * i + 1] = g1;
    }
    return 0;
}

/* Index 1 or less: the matrix of E's differential columns and F's algebraic columns (the
 * Jacobian columns of the unknowns with a zero column of E, and of the multipliers) is regular
 * (for a linear DAE: E - A Q with Q the projector on the algebraic unknowns). Singular, to
 * 1e-12 of its largest LU pivot: index 2 or more. */
static int mode_index_one(mlcs_problem *mp, const int *alg)
{
    if (mp->cols) return mlcs_columns_index_one(mp->cols, mp->phase, mp->side, alg);
    const int n = mp->n, ny = mp->ny;
    double *M = malloc((size_t)n * n * sizeof *M);
    int *piv = malloc((size_t)n * sizeof *piv);
    if (!M || !piv) {
        free(M), free(piv);
        return 0;
    }
    mlcs_jacobian(0.0, 0.0, M, mp);   /* cj = 0: the columns of -A, -B, C, D, identity */
    const nsdae_mlcs_phase *ph = &mp->s->phases[mp->phase];
    for (int j = 0; j < ny; j++) {
        if (alg[j]) continue;
        for (int i = 0; i < n; i++) M[i + j * n] = i < ny ? ph->E[i + j * ny] : 0.0;
    }
    int info = (int)LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, M, n, piv);
    double big = 0, small = INFINITY;
    for (int i = 0; i < n; i++) {
        big = fmax(big, fabs(M[i + i * n]));
        small = fmin(small, fabs(M[i + i * n]));
    }
    free(M), free(piv);
    return info == 0 && small > 1e-12 * big;
}

/* Index 2: IDA's absolute tolerance on the algebraic unknowns (as for the contact multipliers,
 * contact_event.c). Their Newton corrections carry a roundoff floor ~ eps / h that IDA's Newton test
 * (every unknown, suppressalg or not) compares with atol: below some h it fails at every step
 * size, and the Rocca crossing case crawled (9 million steps to T = 10, 0.1 s of it in 2 minutes
 * once the steps were IDA's own). A correction dz_j moves the differential unknowns by about
 * h |A_j or B_j| / |E| per step; its tolerance is atol seen through a step h_ref = sqrt(eps)
 * max(1, |t0|, |stop|). Not the contact form's eps max(...) (contact_event.c): here the multipliers
 * are output columns and root functions, and with h_min the diode ladder's closed-diode current
 * came out wrong by 40% on grid rows (0.0091 for 0.0150) and two spurious c -> c events appeared;
 * with h_ref it agrees with the run at atol on every unknown to 4e-8 relative, and the Rocca case
 * still takes 157 steps. */
static void index_two_tolerances(const mlcs_problem *mp, const int *alg, double *atol)
{
    const nsdae_mlcs_phase *ph = &mp->s->phases[mp->phase];
    const int ny = mp->ny;
    const double h_ref = 1.4901161193847656e-08 * fmax(1.0, fmax(fabs(mp->o.t0), fabs(mp->o.stop)));
    if (mp->cols) {
        mlcs_columns_index_two_tolerances(mp->cols, mp->phase, alg, h_ref, atol);
        return;
    }
    double emax = 0;
    for (int k = 0; k < ny * ny; k++) emax = fmax(emax, fabs(ph->E[k]));
    if (!(emax > 0)) return;
    for (int j = 0; j < mp->n; j++) {
        if (!alg[j]) continue;
        double a = 0;
        for (int i = 0; i < ny; i++) {
            int differential = 0;
            for (int k = 0; k < ny; k++) differential |= ph->E[i + k * ny] != 0.0;
            if (differential) a = fmax(a, fabs(j < ny ? ph->A[i + j * ny] : ph->B[i + (j - ny) * ny]));
        }
        if (a > 0) atol[j] = fmax(atol[j], atol[j] / (h_ref * a / emax));
    }
}

static void mlcs_mode_setup(double *id, double *atol, int *dirs, void *self)
{
    mlcs_problem *mp = self;
    const nsdae_mlcs_phase *ph = &mp->s->phases[mp->phase];
    int *alg = mp->alg;
    if (mp->cols) mlcs_columns_algebraic(mp->cols, mp->phase, alg);
    for (int j = 0; !mp->cols && j < mp->n; j++) {
        int d = 0;
        for (int i = 0; j < mp->ny && i < mp->ny; i++) d |= ph->E[i + j * mp->ny] != 0.0;
        alg[j] = !d;
    }
    /* index 1: every unknown in the error test, so that the interpolated algebraic unknowns a root
     * function reads (a diode's voltage) are as accurate as the states */
    int one = mode_index_one(mp, alg);
    for (int j = 0; j < mp->n; j++) id[j] = one || !alg[j] ? 1.0 : 0.0;
    if (!one) index_two_tolerances(mp, alg, atol);
    for (int i = 0; i < 2 * mp->nl; i++) dirs[i] = -1;
}

/* The first time of a new phase in (ta, tb], to the last bit, by bisection on phase_at. */
static int mlcs_exogenous(double ta, double tb, double *ts, void *self)
{
    mlcs_problem *mp = self;
    if (mp->s->nphases < 2 || !mp->s->phase_at || nsdae_mlcs_phase_index(mp->s, tb) == mp->phase) return 0;
    double lo = ta, hi = tb;
    for (int it = 0; it < 200; it++) {
        double mid = lo + 0.5 * (hi - lo);
        if (mid <= lo || mid >= hi) break;
        if (nsdae_mlcs_phase_index(mp->s, mid) == mp->phase) lo = mid;
        else hi = mid;
    }
    *ts = hi;
    return 1;
}

static int mlcs_row(long k, double t, const double *z, const double *zp, int kind, void *self)
{
    (void)kind;
    mlcs_problem *mp = self;
    double *r = mp->row_r;
    mlcs_residual(t, z, zp, r, mp);
    double res = 0;
    for (int i = 0; i < mp->n; i++) res = fmax(res, fabs(r[i]));
    nsdae_step_record rec = {k, t, z, z + mp->ny, 1, res};
    return mp->on_row(&rec, mp->ctx);
}

nsdae_status mlcs_dense_ready(mlcs_problem *mp, nsdae_error *err)
{
    if (nsdae_mlcs_has_dense(mp->s)) return NSDAE_OK;
    nsdae_status st = nsdae_mlcs_dense_phases(mp->s, &mp->dense_phases, err);
    if (st) return st;
    mp->dense_view = *mp->s;
    mp->dense_view.phases = mp->dense_phases;
    mp->s = &mp->dense_view;
    return NSDAE_OK;
}

const char *mlcs_label_of(mlcs_problem *mp)
{
    memcpy(mp->label, mp->side, (size_t)mp->nl);
    mp->label[mp->nl] = 0;
    if (mp->nl == 0) strcpy(mp->label, "-");
    if (mp->s->nphases > 1) snprintf(mp->label + strlen(mp->label), 24, ":%d", mp->phase);
    return mp->label;
}

static const char *mlcs_label(void *self)
{
    return mlcs_label_of(self);
}

static void mlcs_free(mlcs_problem *mp)
{
    free(mp->side);
    free(mp->label);
    free(mp->b);
    free(mp->c);
    free(mp->r);
    free(mp->diff);
    free(mp->alg);
    free(mp->states);
    if (mp->state_names)
        for (int i = 0; i < mp->nstates; i++) free(mp->state_names[i]);
    free(mp->state_names);
    free(mp->pre);
    free(mp->post);
    free(mp->row_r);
    free(mp->scale);
    nsdae_mlcs_dense_phases_free(mp->dense_phases, mp->s->nphases);
    if (mp->cols) mlcs_columns_free(mp->cols);
    free(mp->cols);
    if (mp->step) sparse_step_free(mp->step);
    free(mp->step);
    ed_mode_set_free(&mp->modes);
}

static nsdae_status mlcs_alloc(mlcs_problem *mp, nsdae_error *err)
{
    const int ny = mp->ny, nl = mp->nl;
    mp->side = calloc((size_t)nl + 1, 1);
    mp->label = calloc((size_t)nl + 32, 1);
    mp->b = calloc((size_t)ny + 1, sizeof *mp->b);
    mp->c = calloc((size_t)nl + 1, sizeof *mp->c);
    mp->r = calloc((size_t)mp->n + 1, sizeof *mp->r);
    mp->diff = calloc((size_t)ny + 1, sizeof *mp->diff);
    mp->alg = calloc((size_t)mp->n + 1, sizeof *mp->alg);
    mp->states = calloc((size_t)ny + 1, sizeof *mp->states);
    mp->state_names = calloc((size_t)ny + 1, sizeof *mp->state_names);
    mp->pre = calloc((size_t)ny + 1, sizeof *mp->pre);
    mp->post = calloc((size_t)ny + 1, sizeof *mp->post);
    mp->row_r = calloc((size_t)mp->n + 1, sizeof *mp->row_r);
    mp->scale = calloc((size_t)nl + 1, sizeof *mp->scale);
    if (!mp->row_r || !mp->scale || !mp->side || !mp->label || !mp->b || !mp->c || !mp->r || !mp->diff || !mp->alg ||
        !mp->states || !mp->state_names || !mp->pre || !mp->post)
        return nsdae_error_set(err, NSDAE_NOMEM, "event-driven MLCS engine: out of memory");
    int sparse = mp->o.linsol == NSDAE_EVENTS_LINSOL_SPARSE ||
                 (mp->o.linsol == NSDAE_EVENTS_LINSOL_AUTO && mp->n >= NSDAE_EVENTS_SPARSE_MIN);
    if (sparse && (!(mp->cols = malloc(sizeof *mp->cols)) || mlcs_columns_create(mp->cols, mp->s))) {
        if (mp->cols) mlcs_columns_free(mp->cols);
        free(mp->cols);
        mp->cols = NULL;
        return nsdae_error_set(err, NSDAE_NOMEM, "event-driven MLCS engine: out of memory for the compressed columns");
    }
    if (mp->cols) {
        int r = (mp->step = calloc(1, sizeof *mp->step)) ? sparse_step_init(mp->step, mp->s) : -1;
        if (r < 0) return nsdae_error_set(err, NSDAE_NOMEM, "event-driven MLCS engine: out of memory");
        if (r == 0) free(mp->step), mp->step = NULL;   /* not every row complementarity: probes dense */
    }
    nsdae_mlcs_differential(mp->s, mp->diff);
    for (int j = 0; j < ny; j++) {
        if (!mp->diff[j]) continue;
        char buf[64];
        const char *nm = mp->s->y_names && mp->s->y_names[j] ? mp->s->y_names[j] : NULL;
        if (!nm) snprintf(buf, sizeof buf, "y%d", j + 1);
        size_t len = strlen(nm ? nm : buf) + 1;
        char *c = malloc(len);
        if (!c) return nsdae_error_set(err, NSDAE_NOMEM, "event-driven MLCS engine: out of memory");
        memcpy(c, nm ? nm : buf, len);
        mp->state_names[mp->nstates] = c;
        mp->states[mp->nstates++] = j;
    }
    return NSDAE_OK;
}

nsdae_status nsdae_events_run_mlcs(const nsdae_mlcs *s, const nsdae_events_options *o, nsdae_step_callback on_row,
                                   nsdae_event_callback on_event, void *ctx, nsdae_events_summary *summary,
                                   nsdae_error *err)
{
    nsdae_events_summary local;
    nsdae_events_summary *sum = summary ? summary : &local;
    memset(sum, 0, sizeof *sum);
    sum->first_accumulation = NAN;
    if (!s || !o || !on_row)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "event-driven run: system, options and row callback are required");
    if (o->linsol < NSDAE_EVENTS_LINSOL_AUTO || o->linsol > NSDAE_EVENTS_LINSOL_SPARSE)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "event-driven run: linsol %d is none of auto, dense, sparse",
                               (int)o->linsol);
    nsdae_status st = nsdae_mlcs_validate(s, err);
    if (st) return st;
    mlcs_problem mp = {0};
    mp.s = s;
    mp.o = ed_options_resolved(o);
    mp.ny = s->ny;
    mp.nl = s->nl;
    mp.n = s->ny + s->nl;
    mp.on_row = on_row;
    mp.on_event = on_event;
    mp.ctx = ctx;
    mp.sum = sum;
    st = mlcs_alloc(&mp, err);
    if (!st && !mp.cols) st = mlcs_dense_ready(&mp, err);   /* dense LU reads the dense matrices throughout */
    if (!st) {
        ed_problem p = {mp.n, 2 * mp.nl, &mp, mlcs_residual, mlcs_jacobian, mlcs_roots, mlcs_mode_setup,
                        mlcs_exogenous, mlcs_event, mlcs_row, mlcs_label, mlcs_keeps_mode,
                        mp.cols ? mp.cols->nnz : 0, mlcs_jacobian_csc};
        st = ed_run(&p, &mp.o, sum, err);
    }
    sum->modes_visited = mp.modes.n;
    mlcs_free(&mp);
    return st;
}
