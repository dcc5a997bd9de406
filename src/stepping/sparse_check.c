/* The per-row acceptance of lcp/check.c (lcp_scaled_violation, component_size) and the step
 * residual of step_mlcp.c, over the compressed columns of the sparse step path: the same
 * measures term for term, O(nnz) instead of O(n^2) (the why of each term is written in
 * lcp/check.c). tests/stepping/test_sparse_step.c checks both against the dense originals. */
#include "stepping/sparse_lcp.h"

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

double sparse_row_violation(sparse_step *ss, const double *z)
{
    const csc *M = &ss->M;
    const int N = ss->n;
    double *w = ss->chk, *s = w + N, *fl = s + N;
    double zs = 0, zmax = 0, worst = 0;
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
        if (cz > zs) zs = cz;
    }
    double residual = 0.0;
    for (int i = 0; i < N; i++) {
        if (!isfinite(z[i]) || !isfinite(w[i])) worst = INFINITY;
        fl[i] = 64 * N * EPS * ss->rs[i] * zs;
        s[i] += fl[i];
        if (!isfinite(s[i])) worst = INFINITY;
        double r = i < ss->ny ? fabs(w[i]) : fmax(fmax(-z[i], -w[i]), fmin(fabs(z[i]), fabs(w[i])));
        if (r > residual) residual = r;
    }
    ss->residual = residual;
    for (int i = 0; i < N && worst < INFINITY; i++) {
        double wr = s[i] > 0 ? copysign(fmax(0, fabs(w[i]) - fl[i]), w[i]) / s[i] : 0, e;
        if (i < ss->ny) {
            e = fabs(wr);
        } else {
            double zsz = component_size(ss, s, fl, i, z[i], zmax);
            e = fmax(fmax(-wr, z[i] < 0 ? zsz : 0), fmin(fabs(wr), zsz));
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
