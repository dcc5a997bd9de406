/* The lower triangle of M in compressed columns (mass_columns.h). An entry of the dense M that is
 * zero is skipped exactly as the band and CHOLMOD factorizations skipped it when they read the
 * dense array: the compressed form holds the same numbers in the same order. */
#include "stepping/mass_columns.h"

#include <stdlib.h>
#include <string.h>

nsdae_status mass_columns_init(mass_columns *mc, const nsdae_lagrangian *s, nsdae_error *err)
{
    memset(mc, 0, sizeof *mc);
    const size_t n = (size_t)s->ndof;
    mc->n = s->ndof;
    size_t cap;
    if (s->mass_colptr) {
        mc->colptr = s->mass_colptr;
        mc->rows = s->mass_rows;
        cap = (size_t)s->mass_colptr[n];
    } else {
        cap = n * (n + 1) / 2;
        mc->dense = malloc(n * n * sizeof *mc->dense);
        mc->own_colptr = malloc((n + 1) * sizeof *mc->own_colptr);
        mc->own_rows = malloc(cap * sizeof *mc->own_rows);
        mc->colptr = mc->own_colptr;
        mc->rows = mc->own_rows;
    }
    mc->val = malloc((cap + 1) * sizeof *mc->val);
    if (!mc->val || (!s->mass_colptr && (!mc->dense || !mc->own_colptr || !mc->own_rows))) {
        mass_columns_free(mc);
        return nsdae_error_set(err, NSDAE_NOMEM, "moreau: out of memory (mass matrix)");
    }
    return NSDAE_OK;
}

static void compress_dense(mass_columns *mc)
{
    const int n = mc->n;
    int nnz = 0;
    for (int j = 0; j < n; j++) {
        mc->own_colptr[j] = nnz;
        for (int i = j; i < n; i++) {
            const double m = mc->dense[i + (size_t)j * n];
            if (m == 0.0) continue;
            mc->own_rows[nnz] = i;
            mc->val[nnz++] = m;
        }
    }
    mc->own_colptr[n] = nnz;
}

int mass_columns_evaluate(mass_columns *mc, const nsdae_lagrangian *s, const double *q)
{
    if (!mc->dense) return s->mass_values(q, mc->val, s->ctx);
    if (s->mass(q, mc->dense, s->ctx) != 0) return 1;
    compress_dense(mc);
    return 0;
}

void mass_columns_scatter(const mass_columns *mc, double *M)
{
    const int n = mc->n;
    memset(M, 0, (size_t)n * (size_t)n * sizeof *M);
    for (int j = 0; j < n; j++)
        for (int e = mc->colptr[j]; e < mc->colptr[j + 1]; e++) {
            M[mc->rows[e] + (size_t)j * n] = mc->val[e];
            M[j + (size_t)mc->rows[e] * n] = mc->val[e];
        }
}

void mass_columns_free(mass_columns *mc)
{
    free(mc->val);
    free(mc->dense);
    free(mc->own_colptr);
    free(mc->own_rows);
    memset(mc, 0, sizeof *mc);
}
