/* The per-row acceptance of check.c for callers outside the layer (the steppers check every
 * step's answer before they hand it on, whichever solver produced it). */
#include "internal.h"

#include <math.h>
#include <stdlib.h>

double nsdae_mlcp_row_violation_scratch(const nsdae_mlcp *p, const double *z, double *scratch)
{
    int N = p->size;
    double *w = scratch, *cmax = w + N, *rsum = cmax + N, *buf = rsum + N;
    /* w recomputed from z here, not taken from the solver: what is checked is the answer itself */
    for (int i = 0; i < N; i++) {
        double s = p->q[i];
        for (int j = 0; j < N; j++)
            s += p->M[i + (size_t)j * N] * z[j];
        w[i] = s;
    }
    lcp_check_scale_compute(p, cmax, rsum);
    return lcp_checked_violation_buf(p, cmax, rsum, buf, z, w);
}

double nsdae_mlcp_row_violation(const nsdae_mlcp *p, const double *z)
{
    int N = p->size;
    double small[NSDAE_MLCP_CHECK_SCRATCH(LCP_FAST_MAX_N)];
    double *scratch = N <= LCP_FAST_MAX_N ? small : malloc(sizeof(double) * NSDAE_MLCP_CHECK_SCRATCH(N > 0 ? N : 1));
    if (!scratch)
        return INFINITY;
    double v = nsdae_mlcp_row_violation_scratch(p, z, scratch);
    if (scratch != small)
        free(scratch);
    return v;
}
