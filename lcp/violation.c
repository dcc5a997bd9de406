/* The per-row acceptance of check.c for callers outside the layer (the steppers check every
 * step's answer before they hand it on, whichever solver produced it). */
#include "internal.h"

#include <math.h>
#include <stdlib.h>

double nsdae_mlcp_row_violation(const nsdae_mlcp *p, const double *z)
{
    int N = p->size;
    double *w = malloc(sizeof(double) * (size_t)(N > 0 ? N : 1));
    if (!w)
        return INFINITY;
    /* w recomputed from z here, not taken from the solver: what is checked is the answer itself */
    for (int i = 0; i < N; i++) {
        double s = p->q[i];
        for (int j = 0; j < N; j++)
            s += p->M[i + (size_t)j * N] * z[j];
        w[i] = s;
    }
    double v = lcp_scaled_violation(p, NULL, NULL, z, w);
    free(w);
    return v;
}
