/* Pryce's canonical offsets by the standard fixed-point iteration (Pryce 2001):
 *     c := 0;  repeat  d_j := max_i (sigma_ij + c_i);  c_i := d_T(i) - sigma_i,T(i)  until c is unchanged.
 * Starting from c = 0 and increasing monotonically, it stops at the smallest valid offsets, which
 * are the same for every HVT T. */
#include "structural/structural_internal.h"

#include <stdlib.h>

int nsdae_structural_offsets(int n, const int *sig, const int *assign, int *c, int *d)
{
    for (int i = 0; i < n; i++) c[i] = 0;
    /* Each round that changes c raises some c_i by at least 1, and the offsets are bounded by
     * n * (spread of sigma) (a longest path without positive cycles), so this bound is never hit
     * for a true HVT; it only guards against a caller's bad transversal. */
    long long spread = 1;
    for (long long k = 0; k < (long long)n * n; k++)
        if (sig[k] != NSDAE_SIGMA_NONE && sig[k] + 1 > spread) spread = sig[k] + 1;
    long long max_rounds = (long long)n * n * spread + 2;
    for (long long round = 0; round < max_rounds; round++) {
        for (int j = 0; j < n; j++) {
            int best = NSDAE_SIGMA_NONE;
            for (int i = 0; i < n; i++) {
                int s = sig[(size_t)i * n + j];
                if (s != NSDAE_SIGMA_NONE && s + c[i] > best) best = s + c[i];
            }
            d[j] = best; /* finite: column j holds the transversal entry */
        }
        int changed = 0;
        for (int i = 0; i < n; i++) {
            int ci = d[assign[i]] - sig[(size_t)i * n + assign[i]];
            if (ci != c[i]) { c[i] = ci; changed = 1; }
        }
        if (!changed) return 0;
    }
    return -1;
}
