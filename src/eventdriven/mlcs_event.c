/* What happens at an MLCS event (and at the start):
 *   1. the new mode, from the mode-selection MLCP: the implicit Euler step of the whole MLCS over a
 *      probe step delta from the left limits (y-, lambda-), forcing at t + delta,
 *        (E - delta A) y+ - delta B lambda+ = E y- + delta b,   w+ = C y+ + D lambda+ + c  (rows typed),
 *      solved for its minimal-norm solution (as the minnorm stepper does, lcp.h). A row's side is read
 *      off it: closed when w+_i vanishes (relative to its terms) with lambda+_i > 0, else open; a box
 *      row at lo / hi when lambda+ is at a bound, else sliding. On the time scale delta the solution
 *      follows the mode the state enters (Camlibel, Heemels, Schumacher: the backward Euler LCP of a
 *      passive LCS selects the right mode), which for a relay is the Filippov condition;
 *   2. the restart, from the same step restricted to the new mode:
 *        (E - delta A) y - delta B lambda = E y- + delta b,   mode rows as in mlcs_internal.h,
 *      a linear system whose solution z(delta) is smooth in delta; z(0) is the consistent restart
 *      (the impulsive one where the mode change is impulsive: momentum is conserved in an engaging
 *      clutch) and dz/d delta at 0 the consistent derivative, forcing rates included (a diode that
 *      closes onto a source makes vC' = vs'(t), a hidden constraint of that index-2 mode). Both from three solves at delta,
 *      delta/2, delta/4 (quadratic extrapolation: errors O(delta^3), O(delta^2)); IDACalcIC could not
 *      serve the index-2 modes (sliding relays, engaged clutch). */
#include "eventdriven/mlcs_internal.h"

#include <nsdae/lcp.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Step 1: the probe MLCP (N = ny + nl) and its minimal-norm solution into zs, ws. */
static nsdae_status probe_mlcp(mlcs_problem *mp, int phase, double t, const double *z, double *zs, double *ws,
                               nsdae_error *err)
{
    const int ny = mp->ny, nl = mp->nl, N = ny + nl;
    const double d = mp->o.probe;
    /* The probe is the stepper's implicit Euler step (theta = gamma = 1): its sparse path answers
     * when the step has the single-solution certificate, which makes the minimal-norm selection
     * moot; it factors once per run (the key, phase and h = d, stays). Else the dense MLCP below. */
    if (mp->step && nsdae_mlcs_phase_index(mp->s, t + d) == phase) {
        int r = sparse_step_prepare(mp->step, mp->s, t, d, 1.0, 1.0, 0, z, z + ny);
        if (r < 0) return nsdae_error_set(err, NSDAE_NOMEM, "mode selection: out of memory");
        if (r == 1) {
            nsdae_error quiet = {0};   /* a failed sparse solve leaves the dense path to answer */
            if (sparse_step_solve(mp->step, zs, ws, &quiet) == NSDAE_OK) return NSDAE_OK;
        }
    }
    nsdae_status ready = mlcs_dense_ready(mp, err);
    if (ready) return ready;
    const nsdae_mlcs *s = mp->s;
    const nsdae_mlcs_phase *ph = &s->phases[phase];
    double *M = calloc((size_t)N * N, sizeof *M), *q = calloc((size_t)N, sizeof *q);
    double *lo = calloc((size_t)N, sizeof *lo), *hi = calloc((size_t)N, sizeof *hi);
    nsdae_row_kind *kind = calloc((size_t)N, sizeof *kind);
    int *sel = calloc((size_t)ny + 1, sizeof *sel);
    if (!M || !q || !lo || !hi || !kind || !sel) {
        free(M), free(q), free(lo), free(hi), free(kind), free(sel);
        return nsdae_error_set(err, NSDAE_NOMEM, "mode selection: out of memory");
    }
    mlcs_rhs(mp, phase, t + d, mp->b, mp->c);
    for (int i = 0; i < ny; i++) {
        double e = 0;
        for (int j = 0; j < ny; j++) {
            M[i + j * N] = ph->E[i + j * ny] - d * ph->A[i + j * ny];
            e += ph->E[i + j * ny] * z[j];
        }
        for (int j = 0; j < nl; j++) M[i + (ny + j) * N] = -d * ph->B[i + j * ny];
        q[i] = -(e + d * mp->b[i]);
        kind[i] = NSDAE_ROW_EQUALITY;
    }
    for (int i = 0; i < nl; i++) {
        for (int j = 0; j < ny; j++) M[ny + i + j * N] = ph->C[i + j * nl];
        for (int j = 0; j < nl; j++) M[ny + i + (ny + j) * N] = ph->D[i + j * nl];
        q[ny + i] = mp->c[i];
        kind[ny + i] = s->kind[i];
        lo[ny + i] = s->lo[i];
        hi[ny + i] = s->hi[i];
    }
    int k = 0;
    for (int j = 0; j < ny; j++)
        if (mp->diff[j]) sel[k++] = j;
    nsdae_mlcp p = {N, M, q, kind, lo, hi};
    nsdae_minnorm_spec spec = {z, k ? sel : NULL, k, NULL, 0};
    nsdae_minnorm_result res;
    nsdae_status st = nsdae_lcp_minnorm(&p, &spec, zs, ws, &res, err);
    free(M), free(q), free(lo), free(hi), free(kind), free(sel);
    return st;
}

/* |c_i| + sum_j |C_ij y_j| + sum_j |D_ij lambda_j| per row at z = (y, lambda): what w_i is made of. */
static void row_terms(const mlcs_problem *mp, int phase, const double *z, double *terms)
{
    const int ny = mp->ny, nl = mp->nl;
    for (int i = 0; i < nl; i++) terms[i] = fabs(mp->c[i]);
    if (mp->cols) {
        const csc *m[2] = {&mp->cols->ph[phase].C, &mp->cols->ph[phase].D};
        for (int b = 0; b < 2; b++)
            for (int j = 0; j < m[b]->cols; j++)
                for (int k = m[b]->colp[j]; k < m[b]->colp[j + 1]; k++)
                    terms[m[b]->rowi[k]] += fabs(m[b]->val[k] * z[b * ny + j]);
        return;
    }
    const nsdae_mlcs_phase *ph = &mp->s->phases[phase];
    for (int i = 0; i < nl; i++) {
        for (int j = 0; j < ny; j++) terms[i] += fabs(ph->C[i + j * nl] * z[j]);
        for (int j = 0; j < nl; j++) terms[i] += fabs(ph->D[i + j * nl] * z[ny + j]);
    }
}

/* Reads each row's side off the probe solution (zs, ws = the MLCP's w: rows ny.. are the MLCS w). */
static void sides_from_probe(mlcs_problem *mp, int phase, const double *zs, const double *ws)
{
    const nsdae_mlcs *s = mp->s;
    const int ny = mp->ny, nl = mp->nl;
    row_terms(mp, phase, zs, mp->scale);
    for (int i = 0; i < nl; i++) {
        double l = zs[ny + i], w = ws[ny + i], scale = mp->scale[i];
        if (s->kind[i] == NSDAE_ROW_EQUALITY) mp->side[i] = 'e';
        else if (s->kind[i] == NSDAE_ROW_COMPLEMENTARITY) mp->side[i] = l > 0 && fabs(w) <= 1e-8 * scale ? 'c' : 'o';
        else {
            double lo = s->lo[i], hi = s->hi[i];
            double tol = 1e-9 * (isfinite(lo) && isfinite(hi) ? hi - lo : 1 + fabs(isfinite(lo) ? lo : hi));
            mp->side[i] = isfinite(lo) && l <= lo + tol ? 'l' : isfinite(hi) && l >= hi - tol ? 'h' : 's';
        }
    }
}

/* The restart system at step d in the current mode: its right-hand side into x and, when Ms is
 * not NULL (dense), its matrix into Ms (n x n); the compressed one is mlcs_columns_restart_solve's. */
static void restart_system(mlcs_problem *mp, double d, const double *zl, double *Ms, double *x)
{
    const nsdae_mlcs_phase *ph = &mp->s->phases[mp->phase];
    const int ny = mp->ny, nl = mp->nl, n = mp->n;
    if (Ms) memset(Ms, 0, (size_t)n * n * sizeof *Ms);
    if (mp->cols) {
        memset(x, 0, (size_t)ny * sizeof *x);
        csc_gaxpy(&mp->cols->ph[mp->phase].E, 1.0, zl, x);
    }
    for (int i = 0; i < ny; i++) {
        double e = 0;
        for (int j = 0; Ms && j < ny; j++) {
            Ms[i + j * n] = ph->E[i + j * ny] - d * ph->A[i + j * ny];
            e += ph->E[i + j * ny] * zl[j];
        }
        for (int j = 0; Ms && j < nl; j++) Ms[i + (ny + j) * n] = -d * ph->B[i + j * ny];
        x[i] = (Ms ? e : x[i]) + d * mp->b[i];
    }
    for (int i = 0; i < nl; i++) {
        char sd = mp->side[i];
        if (sd == 'o' || sd == 'l' || sd == 'h') {
            if (Ms) Ms[ny + i + (ny + i) * n] = 1.0;
            x[ny + i] = sd == 'o' ? 0.0 : sd == 'l' ? mp->s->lo[i] : mp->s->hi[i];
            continue;
        }
        for (int j = 0; Ms && j < ny; j++) Ms[ny + i + j * n] = ph->C[i + j * nl];
        for (int j = 0; Ms && j < nl; j++) Ms[ny + i + (ny + j) * n] = ph->D[i + j * nl];
        x[ny + i] = -mp->c[i];
    }
}

/* Step 2: z(0) and dz/d delta at 0 by extrapolation from delta, delta/2, delta/4. */
static nsdae_status restart(mlcs_problem *mp, double t, double *z, double *zp, nsdae_error *err)
{
    const int n = mp->n;
    const double d = mp->o.probe;
    double *Ms = mp->cols ? NULL : malloc((size_t)n * n * sizeof *Ms), *x = malloc((size_t)3 * n * sizeof *x);
    if ((!mp->cols && !Ms) || !x) {
        free(Ms), free(x);
        return nsdae_error_set(err, NSDAE_NOMEM, "restart: out of memory");
    }
    nsdae_status st = NSDAE_OK;
    for (int k = 0; k < 3 && !st; k++) {
        mlcs_rhs(mp, mp->phase, t + ldexp(d, -k), mp->b, mp->c);
        restart_system(mp, ldexp(d, -k), z, Ms, x + k * n);
        if (mp->cols ? mlcs_columns_restart_solve(mp->cols, mp->phase, mp->side, ldexp(d, -k), x + k * n)
                     : ed_dense_solve(n, Ms, x + k * n, 1))
            st = nsdae_error_set(err, NSDAE_NUMERICAL,
                                 "restart at t = %.17g: mode %s is singular (its DAE has no unique solution)", t,
                                 mlcs_label_of(mp));
    }
    for (int i = 0; !st && i < n; i++) {
        double z1 = x[i], z2 = x[n + i], z3 = x[2 * n + i];
        double a = (8 * z3 - 6 * z2 + z1) / 3;
        z[i] = a;
        zp[i] = (4 * z2 - z1 - 3 * a) / d;
    }
    free(Ms), free(x);
    return st;
}

/* A root of a row's sign whose probe keeps the mode did not end it: an open row's w that is
 * identically zero in the mode crossing zero by rounding (16 such "os -> os" roots on the Rocca
 * crossing), or a multiplier grazing zero a few 1e-12 s before the probe lets the row open. Asked
 * before the event's rows are written, so such a root leaves no trace in the output. */
int mlcs_keeps_mode(double t, const double *z, void *self)
{
    mlcs_problem *mp = self;
    const int n = mp->n, nl = mp->nl, phase = nsdae_mlcs_phase_index(mp->s, t);
    if (phase != mp->phase) return 0;
    double *zs = malloc((size_t)2 * n * sizeof *zs);
    char *was = malloc((size_t)nl + 1);
    int keeps = 0;
    if (zs && was && !probe_mlcp(mp, phase, t, z, zs, zs + n, NULL)) {
        memcpy(was, mp->side, (size_t)nl);
        sides_from_probe(mp, phase, zs, zs + n);
        keeps = memcmp(was, mp->side, (size_t)nl) == 0;
        memcpy(mp->side, was, (size_t)nl);
    }
    free(zs), free(was);
    return keeps;
}

nsdae_status mlcs_event(double *t, const int *roots, int exogenous, double *z, double *zp, int *stop, void *self,
                        nsdae_error *err)
{
    mlcs_problem *mp = self;
    const nsdae_mlcs *s = mp->s;
    const int ny = mp->ny, nl = mp->nl, n = mp->n, initial = !roots && !exogenous;
    if (initial) {
        memcpy(z, s->y0, (size_t)ny * sizeof *z);
        memset(z + ny, 0, (size_t)nl * sizeof *z);
        memset(mp->side, 'o', (size_t)nl);
    }
    char from[512];
    snprintf(from, sizeof from, "%s", mlcs_label_of(mp));
    for (int k = 0; k < mp->nstates; k++) mp->pre[k] = z[mp->states[k]];
    mp->phase = nsdae_mlcs_phase_index(s, *t);
    double *zs = malloc((size_t)2 * n * sizeof *zs);
    if (!zs) return nsdae_error_set(err, NSDAE_NOMEM, "mode selection: out of memory");
    nsdae_status st = probe_mlcp(mp, mp->phase, *t, z, zs, zs + n, err);
    if (st) {
        free(zs);
        char why[NSDAE_ERROR_MESSAGE_SIZE];
        snprintf(why, sizeof why, "%s", err ? err->message : "");
        return nsdae_error_set(err, st, "mode selection at t = %.17g (from mode %s): %s", *t, from, why);
    }
    sides_from_probe(mp, mp->phase, zs, zs + n);
    free(zs);
    st = restart(mp, *t, z, zp, err);
    if (st) return st;
    const char *to = mlcs_label_of(mp);
    if (ed_mode_set_add(&mp->modes, to)) mp->sum->modes_visited = mp->modes.n;
    if (initial) return NSDAE_OK;
    /* a root that kept the mode (mlcs_keeps_mode): projected onto it above, neither logged nor counted */
    if (!exogenous && strcmp(from, to) == 0) return NSDAE_OK;
    for (int k = 0; k < mp->nstates; k++) mp->post[k] = z[mp->states[k]];
    nsdae_event_record ev = {*t, exogenous ? NSDAE_EVENT_TIME : NSDAE_EVENT_SWITCH, from, to, mp->nstates,
                             (const char *const *)mp->state_names, mp->pre, mp->post, 0, NULL, NULL};
    mp->sum->events++;
    if (mp->on_event && mp->on_event(&ev, mp->ctx)) *stop = 1;
    return NSDAE_OK;
}
