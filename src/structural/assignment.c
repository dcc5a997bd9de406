/* Highest-value transversal (HVT) of a square signature matrix: the linear assignment problem
 * max sum sigma_{i,T(i)}, solved exactly on integers by the Hungarian method (Kuhn-Munkres with
 * potentials, O(n^3)). Missing entries get a prohibitive cost; the caller has checked that a
 * perfect matching on finite entries exists, so the optimum never uses one. */
#include "structural/structural_internal.h"

#include <stdlib.h>

int nsdae_structural_hvt(int n, const int *sig, int *assign)
{
    if (n == 0) return 0;
    /* Costs -sigma. BIG exceeds the spread of any finite assignment's cost. */
    long long smin = 0, smax = 0;
    int first = 1;
    for (long long k = 0; k < (long long)n * n; k++) {
        if (sig[k] == NSDAE_SIGMA_NONE) continue;
        if (first || sig[k] < smin) smin = sig[k];
        if (first || sig[k] > smax) smax = sig[k];
        first = 0;
    }
    const long long big = ((long long)n + 1) * (smax - smin + 1) + 1;
    const long long inf = big * ((long long)n + 2) * 4;
#define COST(i, j) (sig[(size_t)(i) * n + (j)] == NSDAE_SIGMA_NONE ? big : -(long long)sig[(size_t)(i) * n + (j)])

    /* e-maxx formulation, 1-based: p[j] = row assigned to column j, u/v potentials. */
    long long *u = calloc((size_t)n + 1, sizeof *u);
    long long *v = calloc((size_t)n + 1, sizeof *v);
    long long *minv = malloc(((size_t)n + 1) * sizeof *minv);
    int *p = calloc((size_t)n + 1, sizeof *p);
    int *way = calloc((size_t)n + 1, sizeof *way);
    char *used = malloc((size_t)n + 1);
    if (!u || !v || !minv || !p || !way || !used) {
        free(u); free(v); free(minv); free(p); free(way); free(used);
        return -1;
    }
    for (int i = 1; i <= n; i++) {
        p[0] = i;
        int j0 = 0;
        for (int j = 0; j <= n; j++) { minv[j] = inf; used[j] = 0; }
        do {
            used[j0] = 1;
            int i0 = p[j0], j1 = 0;
            long long delta = inf;
            for (int j = 1; j <= n; j++) {
                if (used[j]) continue;
                long long cur = COST(i0 - 1, j - 1) - u[i0] - v[j];
                if (cur < minv[j]) { minv[j] = cur; way[j] = j0; }
                if (minv[j] < delta) { delta = minv[j]; j1 = j; }
            }
            for (int j = 0; j <= n; j++) {
                if (used[j]) { u[p[j]] += delta; v[j] -= delta; }
                else minv[j] -= delta;
            }
            j0 = j1;
        } while (p[j0] != 0);
        do {
            int j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
        } while (j0);
    }
#undef COST
    for (int j = 1; j <= n; j++) assign[p[j] - 1] = j - 1;
    free(u); free(v); free(minv); free(p); free(way); free(used);
    return 0;
}
