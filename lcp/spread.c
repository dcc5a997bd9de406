/* The spread of an MLCP: how far its data's scales are mixed, whatever the units. A decision of
 * this layer (a pattern inconsistent, a sign broken) is certain only below a bound on it; above,
 * the layer refuses with NSDAE_NUMERICAL rather than say "no solution" (lcp.h, the contract). */
#include "internal.h"

#include <stdlib.h>

/* The spread is the smallest dynamic range (largest over smallest nonzero magnitude) of
 * D_r [M | q] D_c over all positive diagonal D_r (size) and D_c (size + 1): rows, variables and
 * q's unit rescaled in every way. With x_i = log2 D_r,i, y_j = -log2 D_c,j and l_ij = log2 |a_ij|,
 * the scaled entries lie in [1, 2^b] iff y_j - x_i <= l_ij and x_i - y_j <= b - l_ij for every
 * nonzero a_ij: difference constraints, feasible iff their graph has no negative cycle, which
 * Bellman-Ford from 0 at every node finds (size + 1 passes without settling). One run,
 * O(size^3) time: called only where an answer would be "no solution". Out of memory: 1 (the
 * caller then refuses, which is never wrong). */
int lcp_spread_exceeds(const nsdae_mlcp *p, double log2_bound)
{
    int n = p->size, nodes = 2 * n + 1, ne = 0;
    size_t cap = 2 * (size_t)n * (size_t)(n + 1);
    int *ends = malloc(sizeof(int) * 2 * cap);
    double *len = malloc(sizeof(double) * cap), *dist = calloc((size_t)nodes, sizeof(double));
    int exceeds = 1;
    if (!ends || !len || !dist)
        goto done;
    for (int j = 0; j <= n; j++)
        for (int i = 0; i < n; i++) {
            double a = j < n ? p->M[i + (size_t)j * n] : p->q[i];
            if (a == 0.0)
                continue;
            double l = log2(fabs(a));
            ends[2 * ne] = i, ends[2 * ne + 1] = n + j, len[ne++] = l;
            ends[2 * ne] = n + j, ends[2 * ne + 1] = i, len[ne++] = log2_bound - l;
        }
    for (int pass = 0; pass <= nodes; pass++) {
        int relaxed = 0;
        for (int e = 0; e < ne; e++) {
            double d = dist[ends[2 * e]] + len[e];
            if (d < dist[ends[2 * e + 1]] - 1e-9) {
                dist[ends[2 * e + 1]] = d;
                relaxed = 1;
            }
        }
        if (!relaxed) {
            exceeds = 0;
            break;
        }
    }
done:
    free(ends);
    free(len);
    free(dist);
    return exceeds;
}
