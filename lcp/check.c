/* Acceptance of an answer: every row against that row's own terms.
 *
 * Why not relative to the largest entry of the problem (what this layer did before): a row whose
 * terms are all small next to another row's is then never checked at all. Fuzzing found
 * w = z + 2 on z in [-1e10, 1] "solved" by z = 0 (|w| = 2 next to the bound 1e10), and on
 * Siconos' BuckConverter MLCP a step answer with w_21 = -8.8e-10 where every term of row 21 is
 * of size 8.9e-10 (relative to the largest entry, 6: 1.5e-10, accepted). Per row, both are
 * violations of size one.
 *
 * A row's terms can also be pure rounding noise (every z_j entering it is a rounded zero): there
 * "relative to the row" means nothing. So only what exceeds the row's rounding level counts:
 * 64 N eps times the largest term any z_j makes in any row (max_k |M_kj z_j|), spread over the
 * row by its entries relative to their columns' largest (the rounding error of z_j is relative
 * to z_j's own unit, not to the row's): about 1e-13 of the solution's terms at N = 10, four
 * orders below any tolerance this layer accepts, and scale invariant like the rest. Not the
 * Ruiz-equilibrated units of scale.c: they split a 1e150 column between its row and column and
 * then call the row's whole content noise (M = [6 0; 5 1e150], q = (-4.5625, -6), z2 = 0).
 * Measured on Siconos' test data (validation/siconos_data): every accepted answer there passes
 * with violations below 1e-13, the wrong ones violate by 1e-5 to 1. */
#include "internal.h"

#include <math.h>
#include <stdlib.h>

/* How far z_j (or a bound distance d) moves the rows it enters, relative to their terms s_k
 * above their rounding levels fl_k. */
static double component_size(const nsdae_mlcp *p, const double *s, const double *fl, int j, double d, double zmax)
{
    int N = p->size;
    double worst = 0, colmax = 0;
    for (int k = 0; k < N; k++) {
        double a = fabs(p->M[k + (size_t)j * N]);
        colmax = fmax(colmax, a);
        double c = fmax(0, a * fabs(d) - fl[k]);
        if (c > 0)
            worst = fmax(worst, c / s[k]);
    }
    if (colmax > 0)
        return worst;
    /* z_j enters no row: it has no unit; measured against the largest |z_k| */
    double c = fmax(0, fabs(d) - 64 * N * 2.220446049250313e-16 * zmax);
    return c > 0 ? c / zmax : 0;
}

double lcp_scaled_violation(const nsdae_mlcp *p, const double *dr, const double *dc, const double *z,
                            const double *w)
{
    (void)dr;
    (void)dc;
    int N = p->size;
    double *s = malloc(sizeof(double) * 3 * (size_t)N), *fl = s + N, *cmax = fl + N;
    if (!s)
        return INFINITY;
    double zs = 0, zmax = 0, worst = 0;
    for (int j = 0; j < N; j++) {
        if (!isfinite(z[j]) || !isfinite(w[j]))
            worst = INFINITY;
        zmax = fmax(zmax, fabs(z[j]));
        cmax[j] = 0;
        for (int i = 0; i < N; i++)
            cmax[j] = fmax(cmax[j], fabs(p->M[i + (size_t)j * N]));
        zs = fmax(zs, cmax[j] * fabs(z[j]));
    }
    for (int i = 0; i < N; i++) {
        double si = fabs(p->q[i]), rs = 0;
        for (int j = 0; j < N; j++) {
            si += fabs(p->M[i + (size_t)j * N] * z[j]);
            rs += cmax[j] > 0 ? fabs(p->M[i + (size_t)j * N]) / cmax[j] : 0;
        }
        fl[i] = 64 * N * 2.220446049250313e-16 * rs * zs;
        s[i] = si + fl[i];
        if (!isfinite(s[i]))
            worst = INFINITY;
    }
    for (int i = 0; i < N && worst < INFINITY; i++) {
        nsdae_row_kind k = p->kind ? p->kind[i] : NSDAE_ROW_COMPLEMENTARITY;
        /* s_i = 0: row i has no terms at all, w_i = 0 exactly */
        double wr = s[i] > 0 ? copysign(fmax(0, fabs(w[i]) - fl[i]), w[i]) / s[i] : 0, e;
        if (k == NSDAE_ROW_EQUALITY) {
            e = fabs(wr);
        } else if (k == NSDAE_ROW_COMPLEMENTARITY) {
            double zsz = component_size(p, s, fl, i, z[i], zmax);
            e = fmax(fmax(-wr, z[i] < 0 ? zsz : 0), fmin(fabs(wr), zsz));
        } else {   /* box: inside [lo, hi]; w > 0 only at lo, w < 0 only at hi */
            double lo = p->lo[i], hi = p->hi[i];
            double dlo = isinf(lo) ? INFINITY : component_size(p, s, fl, i, z[i] - lo, zmax);
            double dhi = isinf(hi) ? INFINITY : component_size(p, s, fl, i, hi - z[i], zmax);
            e = fmax(z[i] < lo ? dlo : 0, z[i] > hi ? dhi : 0);
            e = fmax(e, fmin(fmax(wr, 0), dlo));
            e = fmax(e, fmin(fmax(-wr, 0), dhi));
        }
        if (!(e <= worst))
            worst = e;
    }
    free(s);
    return worst;
}

/* The earlier measure, relative to the largest term of the whole problem: kept for minnorm's
 * own acceptance only (workspace.c, minnorm.c), because the per-row one rejects every point the
 * branch and bound finds on the relay example's sliding step (rows 0/1 off by 0.11 of their
 * terms; not understood yet, issue 12). */
double lcp_global_violation(const nsdae_mlcp *p, const double *dr, const double *dc, const double *z,
                            const double *w)
{
    /* Measured in the equilibrated units (all entries of Dr M Dc at most ~1), relative to the
     * size of the terms that make up w: invariant under every scaling above, so the same
     * threshold fits a circuit in volts and microfarads and a textbook LCP. */
    int N = p->size;
    double size = 0, worst = 0;
    for (int i = 0; i < N; i++) {
        double s = fabs(p->q[i]);
        for (int j = 0; j < N; j++)
            s += fabs(p->M[i + (size_t)j * N] * z[j]);
        size = fmax(size, dr[i] * s);
    }
    for (int j = 0; j < N; j++)
        size = fmax(size, fabs(z[j] / dc[j]));
    for (int i = 0; i < N; i++) {
        nsdae_row_kind k = p->kind ? p->kind[i] : NSDAE_ROW_COMPLEMENTARITY;
        double ws = dr[i] * w[i], zs = z[i] / dc[i], e;
        if (k == NSDAE_ROW_EQUALITY) {
            e = fabs(ws);
        } else if (k == NSDAE_ROW_COMPLEMENTARITY) {
            e = fmax(fmax(-zs, -ws), fmin(fabs(zs), fabs(ws)));
        } else {
            double lo = p->lo[i] / dc[i], hi = p->hi[i] / dc[i];
            e = fmax(lo - zs, zs - hi);
            double dlo = isinf(lo) ? INFINITY : zs - lo, dhi = isinf(hi) ? INFINITY : hi - zs;
            e = fmax(e, fmin(fmax(-ws, 0), fabs(dhi)));
            e = fmax(e, fmin(fmax(ws, 0), fabs(dlo)));
            size = fmax(size, fmax(isinf(lo) ? 0 : fabs(lo), isinf(hi) ? 0 : fabs(hi)));
        }
        if (!(e <= worst))
            worst = e;
    }
    return size > 0 ? worst / size : worst;
}

