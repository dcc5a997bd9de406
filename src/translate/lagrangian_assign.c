/* Which equation of motion belongs to which coordinate. The equations may come in any order and a
 * coupled mass matrix puts several accelerations in each, so the pattern alone does not decide
 * (for M = [[2, 1], [1, 2]] both pairings are perfect matchings). For a symmetric positive
 * definite M, |M_ij|^2 < M_ii M_jj, hence prod_i |M_i,s(i)| < prod_i M_ii for every permutation
 * s other than the identity: the right pairing is the one that maximises the product of the
 * absolute coefficients (at the start). That is an assignment problem, solved here by the
 * Hungarian method on -log|A_kj| (structural's assignment is on integer weights, and a later stage
 * than translate: README, Architecture). A wrong model is still caught afterwards (check_mass). */
#include "translate/lagrangian_internal.h"

#include <math.h>
#include <stdlib.h>

#define FORBIDDEN 1e12 /* cost of a zero coefficient: larger than any sum of -log|a| in practice */

/* Minimum-cost perfect assignment of rows to columns of the n x n cost matrix (row-major),
 * the shortest-augmenting-path form of the Hungarian method, O(n^3). col_of_row gets the result.
 * Returns 0 when out of memory. */
static int hungarian(int n, const double *cost, int *col_of_row)
{
    double *u = calloc((size_t)n + 1, sizeof *u), *v = calloc((size_t)n + 1, sizeof *v);
    double *minv = malloc(((size_t)n + 1) * sizeof *minv);
    int *p = calloc((size_t)n + 1, sizeof *p), *way = calloc((size_t)n + 1, sizeof *way);
    unsigned char *used = malloc((size_t)n + 1);
    int ok = u && v && minv && p && way && used;
    for (int i = 1; ok && i <= n; i++) { /* 1-based: column 0 is the virtual start */
        p[0] = i;
        int j0 = 0;
        for (int j = 0; j <= n; j++) {
            minv[j] = INFINITY;
            used[j] = 0;
        }
        do {
            used[j0] = 1;
            int i0 = p[j0], j1 = 0;
            double delta = INFINITY;
            for (int j = 1; j <= n; j++) {
                if (used[j]) continue;
                double cur = cost[(size_t)(i0 - 1) * n + (j - 1)] - u[i0] - v[j];
                if (cur < minv[j]) {
                    minv[j] = cur;
                    way[j] = j0;
                }
                if (minv[j] < delta) {
                    delta = minv[j];
                    j1 = j;
                }
            }
            for (int j = 0; j <= n; j++) {
                if (used[j]) {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
        } while (p[j0] != 0);
        do {
            int j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
        } while (j0);
    }
    for (int j = 1; ok && j <= n; j++) col_of_row[p[j] - 1] = j - 1;
    free(u); free(v); free(minv); free(p); free(way); free(used);
    return ok;
}

/* The common case decided without the assignment: every equation has a single acceleration
 * (a diagonal M, as for point masses), each a different one, non-zero at the start. Then that
 * pairing is the only perfect matching on the non-zeros (and costs O(n) entry tests instead of
 * n^2 evaluations and the O(n^3) assignment). Returns 1 when it applies (eq_of_coord filled). */
static int single_accelerations(lctx *L, int n, const lag_rows *A, int *eq_of_coord)
{
    for (int j = 0; j < n; j++) eq_of_coord[j] = -1;
    for (int k = 0; k < n; k++) {
        if (A->ptr[k + 1] - A->ptr[k] != 1) return 0; /* no acceleration, or several */
        const lag_entry *a = &A->ent[A->ptr[k]];
        if (eq_of_coord[a->col] >= 0) return 0;
        double v = fabs(nsdae_lag_eval_at(L, a->e, 0)); /* as the costs below */
        if (!(v > 0.0 && isfinite(v))) return 0;
        eq_of_coord[a->col] = k;
    }
    return 1;
}

int nsdae_lag_assign(lctx *L, const lag_rows *A, int *eq_of_coord)
{
    const int n = L->ndof;
    if (single_accelerations(L, n, A, eq_of_coord)) return !L->st;
    double *cost = malloc((size_t)n * n * sizeof *cost);
    int *col = malloc((size_t)n * sizeof *col);
    if (!cost || !col) {
        free(cost); free(col);
        nsdae_lag_nomem(L);
        return 0;
    }
    /* a coupled M: dense costs, the absent entries (constant 0) forbidden */
    for (size_t k = 0; k < (size_t)n * n; k++) cost[k] = FORBIDDEN;
    for (int k = 0; k < n; k++)
        for (int e = A->ptr[k]; e < A->ptr[k + 1]; e++) {
            double a = fabs(nsdae_lag_eval_at(L, A->ent[e].e, 0));
            cost[(size_t)k * n + A->ent[e].col] = a > 0.0 && isfinite(a) ? -log(a) : FORBIDDEN;
        }
    int ok = !L->st && hungarian(n, cost, col);
    if (!ok) nsdae_lag_nomem(L); /* no-op after an earlier failure */
    for (int k = 0; ok && k < n; k++) {
        if (cost[(size_t)k * n + col[k]] >= FORBIDDEN) { /* no perfect matching on the non-zeros */
            free(cost); free(col);
            return -1 - k;
        }
        eq_of_coord[col[k]] = k;
    }
    free(cost); free(col);
    return ok;
}
