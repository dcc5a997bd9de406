/* Compressed rows of expressions for the Lagrangian translation (lagrangian_internal.h): M, the
 * multiplier coefficients of the equations of motion and the contact gradients are kept as their
 * entries that are not the constant 0. A column of N beads has 3N - 2 such entries where the dense
 * ndof x ndof and ndof x ncontacts arrays of pointers had 2 N^2: at N = 4000 the translation spent
 * its time copying and zeroing 620 MB of them (bench_lag_size). */
#include "translate/lagrangian_internal.h"

#include <stdlib.h>
#include <string.h>

static int is_zero(const nsdae_expr *e) { return e->kind == NSDAE_EXPR_CONST && e->value == 0.0; }

int nsdae_lag_rows_init(lag_rows *r, int nrows)
{
    memset(r, 0, sizeof *r);
    r->ptr = calloc((size_t)nrows + 1, sizeof *r->ptr);
    return r->ptr != NULL;
}

void nsdae_lag_rows_free(lag_rows *r)
{
    free(r->ptr);
    free(r->ent);
    memset(r, 0, sizeof *r);
}

static int by_col(const void *a, const void *b)
{
    int x = ((const lag_entry *)a)->col, y = ((const lag_entry *)b)->col;
    return (x > y) - (x < y);
}

/* Appends the next row: its entries that are not the constant 0, sorted by column (the entries
 * come with distinct columns). Amortised O(n log n): the storage doubles when full. */
int nsdae_lag_rows_push(lag_rows *r, const lag_entry *e, int n)
{
    size_t used = r->nrows ? (size_t)r->ptr[r->nrows] : 0;
    if (used + (size_t)n > r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 16;
        while (cap < used + (size_t)n) cap *= 2;
        lag_entry *ent = realloc(r->ent, cap * sizeof *ent);
        if (!ent) return 0;
        r->ent = ent;
        r->cap = cap;
    }
    size_t start = used;
    for (int k = 0; k < n; k++)
        if (!is_zero(e[k].e)) r->ent[used++] = e[k];
    if (used > start) qsort(r->ent + start, used - start, sizeof *r->ent, by_col); /* r->ent may be NULL */
    r->ptr[++r->nrows] = (int)used;
    return 1;
}

/* out's row i is a's row row_of[i] (nrows rows). */
int nsdae_lag_rows_permute(const lag_rows *a, const int *row_of, int nrows, lag_rows *out)
{
    if (!nsdae_lag_rows_init(out, nrows)) return 0;
    for (int i = 0; i < nrows; i++) {
        int k = row_of[i];
        if (!nsdae_lag_rows_push(out, a->ent + a->ptr[k], a->ptr[k + 1] - a->ptr[k])) return 0;
    }
    return 1;
}

/* t = a^T, a having ncols columns: a counting sort by column, so t's rows come sorted too. */
int nsdae_lag_rows_transpose(const lag_rows *a, int ncols, lag_rows *t)
{
    if (!nsdae_lag_rows_init(t, ncols)) return 0;
    size_t nnz = (size_t)a->ptr[a->nrows];
    t->ent = malloc((nnz + 1) * sizeof *t->ent);
    if (!t->ent) return 0;
    t->cap = nnz + 1;
    t->nrows = ncols;
    for (size_t k = 0; k < nnz; k++) t->ptr[a->ent[k].col + 1]++;
    for (int j = 0; j < ncols; j++) t->ptr[j + 1] += t->ptr[j];
    int *next = malloc(((size_t)ncols + 1) * sizeof *next);
    if (!next) return 0;
    memcpy(next, t->ptr, (size_t)ncols * sizeof *next);
    for (int i = 0; i < a->nrows; i++)
        for (int k = a->ptr[i]; k < a->ptr[i + 1]; k++) t->ent[next[a->ent[k].col]++] = (lag_entry){i, a->ent[k].e};
    free(next);
    return 1;
}

const nsdae_expr *nsdae_lag_rows_at(const lag_rows *r, int row, int col)
{
    int lo = r->ptr[row], hi = r->ptr[row + 1];
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (r->ent[mid].col < col) lo = mid + 1;
        else hi = mid;
    }
    return lo < r->ptr[row + 1] && r->ent[lo].col == col ? r->ent[lo].e : NULL;
}
