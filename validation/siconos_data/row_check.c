#include "row_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* How much z_j, moved to zero, changes the rows it enters, relative to each row's terms. A
 * column without entries: z_j has no unit, measured against the largest |z|. */
static double component_size(const nsdae_mlcp *p, const double *s, const double *fl, const double *z, int j,
                             double zmax)
{
    int N = p->size;
    double worst = 0, colmax = 0;
    for (int k = 0; k < N; k++) {
        double c = fmax(0, fabs(p->M[k + (size_t)j * N] * z[j]) - fl[k]);
        colmax = fmax(colmax, fabs(p->M[k + (size_t)j * N]));
        if (c > 0)
            worst = fmax(worst, c / s[k]);
    }
    if (colmax == 0)
        return zmax > 0 ? fabs(z[j]) / zmax : 0;
    return worst;
}

/* The rounding level of row i: a computed z_j carries errors of a few units in the last place of
 * its own size, and z_j's unit is what it makes in the rows (|M_kj z_j|). So the level is
 * 64 N eps times the largest term any z_j makes, spread over row i by its entries relative to
 * their columns' largest: about 1e-13 of the solution's terms. It hides nothing a tolerance of
 * 1e-9 is meant to catch. */
static double rounding_floor(int N, const double *M, const double *z, int i)
{
    double zs = 0, rs = 0;
    for (int j = 0; j < N; j++) {
        double cmax = 0;
        for (int k = 0; k < N; k++)
            cmax = fmax(cmax, fabs(M[k + (size_t)j * N]));
        zs = fmax(zs, cmax * fabs(z[j]));
        rs += cmax > 0 ? fabs(M[i + (size_t)j * N]) / cmax : 0;
    }
    return 64 * N * 2.220446049250313e-16 * rs * zs;
}

double row_check(const nsdae_mlcp *p, const double *z)
{
    int N = p->size;
    double *s = malloc(sizeof(double) * 3 * (size_t)N), *w = s + N, *fl = w + N, zmax = 0, worst = 0;
    if (!s)
        return INFINITY;
    for (int i = 0; i < N; i++) {
        double wi = p->q[i], si = fabs(p->q[i]);
        for (int j = 0; j < N; j++) {
            wi += p->M[i + (size_t)j * N] * z[j];
            si += fabs(p->M[i + (size_t)j * N] * z[j]);
        }
        w[i] = wi;
        s[i] = si;
        zmax = fmax(zmax, fabs(z[i]));
        if (!isfinite(wi) || !isfinite(z[i]))
            worst = INFINITY;
    }
    for (int i = 0; i < N && isfinite(worst); i++) {
        fl[i] = rounding_floor(N, p->M, z, i);
        s[i] += fl[i];
    }
    for (int i = 0; i < N && isfinite(worst); i++) {
        nsdae_row_kind k = p->kind ? p->kind[i] : NSDAE_ROW_COMPLEMENTARITY;
        /* what exceeds the rounding level, relative to the row's terms (s_i > 0: the floor is) */
        double wr = s[i] > 0 ? copysign(fmax(0, fabs(w[i]) - fl[i]), w[i]) / s[i] : 0, e;   /* s_i = 0: w_i = 0 */
        if (k == NSDAE_ROW_EQUALITY) {
            e = fabs(wr);
        } else if (k == NSDAE_ROW_COMPLEMENTARITY) {
            double zs = component_size(p, s, fl, z, i, zmax);
            e = fmax(-wr, z[i] < 0 ? zs : 0);
            e = fmax(e, fmin(fabs(wr), zs));
        } else {
            e = INFINITY;
        }
        if (!(e <= worst))
            worst = e;
        if (e > 1e-9 && getenv("SDC_ROWS"))
            printf("      row %d kind %d: z %.6g w %.6g s %.6g e %.3g\n", i, (int)k, z[i], w[i], s[i], e);
    }
    free(s);
    return worst;
}
