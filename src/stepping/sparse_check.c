/* The per-row acceptance of lcp/check.c (lcp_scaled_violation, component_size) and the step
 * residual of step_mlcp.c, over the compressed columns of the sparse step path: the same
 * measures term for term, O(nnz) instead of O(n^2) (the why of each term is written in
 * lcp/check.c). tests/stepping/test_sparse_step.c checks both against the dense originals. */
#include "stepping/sparse_lcp.h"

#include <nsdae/tolerances.h>

#include <math.h>

#define EPS 2.220446049250313e-16

static double component_size(const sparse_step *ss, const double *s, const double *fl, int j, double d, double zmax)
{
    const csc *M = &ss->M;
    double worst = 0, colmax = 0;
    for (int k = M->colp[j]; k < M->colp[j + 1]; k++) {
        double a = fabs(M->val[k]);
        colmax = fmax(colmax, a);
        double c = fmax(0, a * fabs(d) - fl[M->rowi[k]]);
        if (c > 0) worst = fmax(worst, c / s[M->rowi[k]]);
    }
    if (colmax > 0) return worst;
    double c = fmax(0, fabs(d) - 64 * ss->n * EPS * zmax);
    return c > 0 ? c / zmax : 0;
}

/* lcp/check.c's floors (rows_measure, pin_floors): the rounding of z_j in the unit of the largest
 * term of a component off its end (zs), over the rows z_j enters, none for a component exactly
 * at 0. A component below 0 or one that its own row forces to 0 (w_j clearly positive), zero
 * within its rounding, is put there (zq, wq) and its column carries no allowance either. s holds
 * |q_i| + sum_j |M_ij z_j| on entry and gets the floor added. 1 if any component was put at 0. */
static int floors(const sparse_step *ss, const double *z, const double *w, double *s, double *fl, double zs,
                  double zmax, int ends, double *zq, double *wq)
{
    const csc *M = &ss->M;
    const int N = ss->n;
    int any = 0;
    for (int i = 0; i < N; i++) fl[i] = ends ? 0 : 64 * N * EPS * ss->rs[i] * zs;
    for (int j = 0; ends && zs > 0 && j < N; j++) {
        if (!(ss->cmax[j] > 0) || (j >= ss->ny && z[j] == 0)) continue;
        double a = 64 * N * EPS * zs / ss->cmax[j];
        for (int k = M->colp[j]; k < M->colp[j + 1]; k++) fl[M->rowi[k]] += fabs(M->val[k]) * a;
    }
    for (int i = 0; i < N; i++) s[i] += fl[i];
    if (!(zs > 0)) return 0;
    for (int j = 0; j < N; j++) {
        zq[j] = z[j];
        if (j < ss->ny || z[j] == 0 || !(ss->cmax[j] > 0)) continue;
        if (!(z[j] < 0) && !(w[j] > fl[j] + NSDAE_TOL_RESIDUAL * s[j])) continue;
        if (!(component_size(ss, s, fl, j, z[j], zmax) <= NSDAE_TOL_RESIDUAL)) continue;
        zq[j] = 0;
        any = 1;
    }
    if (!any) return 0;
    for (int i = 0; i < N; i++) {
        wq[i] = w[i];
        s[i] -= fl[i];
    }
    for (int j = ss->ny; j < N; j++) {
        if (zq[j] == z[j]) continue;
        double a = 64 * N * EPS * zs / ss->cmax[j];
        for (int k = M->colp[j]; k < M->colp[j + 1]; k++) {
            int i = M->rowi[k];
            fl[i] = fmax(fl[i] - fabs(M->val[k]) * a, 0);
            wq[i] -= M->val[k] * z[j];
            s[i] -= fabs(M->val[k] * z[j]);
        }
    }
    for (int i = 0; i < N; i++) s[i] = fmax(s[i], 0) + fl[i];
    return 1;
}

double sparse_row_violation(sparse_step *ss, const double *z)
{
    const csc *M = &ss->M;
    const int N = ss->n;
    double *w = ss->chk, *s = w + N, *fl = s + N, *zq = fl + N, *wq = zq + N;
    double zs = 0, zmax = 0, worst = 0;
    int ends = 0;
    for (int i = 0; i < N; i++) {
        w[i] = ss->q[i];
        s[i] = fabs(ss->q[i]);
    }
    for (int j = 0; j < N; j++) {
        const double zj = z[j], az = fabs(zj), cz = ss->cmax[j] * az;
        for (int k = M->colp[j]; k < M->colp[j + 1]; k++) {
            double t = M->val[k] * zj;
            w[M->rowi[k]] += t;
            s[M->rowi[k]] += fabs(t);
        }
        if (az > zmax) zmax = az;
        if (j >= ss->ny && zj == 0) ends = 1;
        else if (cz > zs) zs = cz;
    }
    double residual = 0.0;
    for (int i = 0; i < N; i++) {
        if (!isfinite(z[i]) || !isfinite(w[i])) worst = INFINITY;
        double r = i < ss->ny ? fabs(w[i]) : fmax(fmax(-z[i], -w[i]), fmin(fabs(z[i]), fabs(w[i])));
        if (r > residual) residual = r;
    }
    ss->residual = residual;
    const double *zc = z, *wc = w;   /* the point checked: with its pinned components at 0 */
    if (worst < INFINITY && floors(ss, z, w, s, fl, zs, zmax, ends, zq, wq)) {
        zc = zq;
        wc = wq;
    }
    for (int i = 0; i < N; i++)
        if (!isfinite(s[i])) worst = INFINITY;
    for (int i = 0; i < N && worst < INFINITY; i++) {
        double wr = s[i] > 0 ? copysign(fmax(0, fabs(wc[i]) - fl[i]), wc[i]) / s[i] : 0, e;
        if (i < ss->ny) {
            e = fabs(wr);
        } else {
            double zsz = component_size(ss, s, fl, i, zc[i], zmax);
            e = fmax(fmax(-wr, zc[i] < 0 ? zsz : 0), fmin(fabs(wr), zsz));
        }
        if (!(e <= worst)) worst = e;
    }
    return worst;
}

double sparse_step_residual(const sparse_step *ss, const double *z)
{
    const csc *M = &ss->M;
    double *w = ss->chk, worst = 0.0;
    for (int i = 0; i < ss->n; i++) w[i] = ss->q[i];
    for (int j = 0; j < ss->n; j++)
        for (int k = M->colp[j]; k < M->colp[j + 1]; k++) w[M->rowi[k]] += M->val[k] * z[j];
    for (int i = 0; i < ss->n; i++) {
        double r = i < ss->ny ? fabs(w[i]) : fmax(fmax(-z[i], -w[i]), fmin(fabs(z[i]), fabs(w[i])));
        if (r > worst) worst = r;
    }
    return worst;
}
