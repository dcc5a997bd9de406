/* G in compressed rows. A translated system gives the pattern of its structural nonzeros and their
 * values (lagrangian.h); a hand-written one gives the dense G, whose nonzero entries are
 * compressed here at each evaluation (an entry that is zero is skipped exactly: the sums over a
 * row are the dense ones without their zero terms). The column index is what forms
 * W = G_a M^-1 G_a^T over the active contacts without touching the others. */
#include "stepping/contact_rows.h"

#include <stdlib.h>
#include <string.h>

nsdae_status contact_rows_init(contact_rows *r, const nsdae_lagrangian *s, nsdae_error *err)
{
    memset(r, 0, sizeof *r);
    r->nc = s->ncontacts;
    r->n = s->ndof;
    size_t cap;
    if (s->gap_rowptr) {
        r->rowptr = s->gap_rowptr;
        r->cols = s->gap_cols;
        cap = (size_t)s->gap_rowptr[s->ncontacts];
    } else {
        cap = (size_t)r->nc * (size_t)r->n;
        r->dense = malloc((cap + 1) * sizeof *r->dense);
        r->own_rowptr = malloc(((size_t)r->nc + 1) * sizeof *r->own_rowptr);
        r->own_cols = malloc((cap + 1) * sizeof *r->own_cols);
        r->rowptr = r->own_rowptr;
        r->cols = r->own_cols;
    }
    r->val = malloc((cap + 1) * sizeof *r->val);
    r->colptr = malloc(((size_t)r->n + 1) * sizeof *r->colptr);
    r->centry = malloc((cap + 1) * sizeof *r->centry);
    r->crow = malloc((cap + 1) * sizeof *r->crow);
    if (!r->val || !r->colptr || !r->centry || !r->crow || (!s->gap_rowptr && (!r->dense || !r->own_rowptr ||
                                                                                 !r->own_cols))) {
        contact_rows_free(r);
        return nsdae_error_set(err, NSDAE_NOMEM, "moreau: out of memory (contact Jacobian)");
    }
    return NSDAE_OK;
}

/* The column index of the current pattern: a counting sort of the entries by column, rows
 * increasing within a column because rows are visited in order. */
static void index_columns(contact_rows *r)
{
    const int nnz = r->rowptr[r->nc];
    memset(r->colptr, 0, ((size_t)r->n + 1) * sizeof *r->colptr);
    for (int e = 0; e < nnz; e++) r->colptr[r->cols[e] + 1]++;
    for (int j = 0; j < r->n; j++) r->colptr[j + 1] += r->colptr[j];
    for (int c = 0; c < r->nc; c++)
        for (int e = r->rowptr[c]; e < r->rowptr[c + 1]; e++) {
            int slot = r->colptr[r->cols[e]]++;
            r->centry[slot] = e;
            r->crow[slot] = c;
        }
    for (int j = r->n; j > 0; j--) r->colptr[j] = r->colptr[j - 1]; /* undo the shift of the fill */
    r->colptr[0] = 0;
}

static void compress_dense(contact_rows *r)
{
    int nnz = 0;
    for (int c = 0; c < r->nc; c++) {
        r->own_rowptr[c] = nnz;
        for (int j = 0; j < r->n; j++) {
            double g = r->dense[c + (size_t)j * r->nc];
            if (g == 0.0) continue;
            r->own_cols[nnz] = j;
            r->val[nnz++] = g;
        }
    }
    r->own_rowptr[r->nc] = nnz;
}

int contact_rows_evaluate(contact_rows *r, const nsdae_lagrangian *s, const double *q)
{
    if (r->evaluated) return 0;
    if (r->dense) {
        if (s->gap_jacobian(q, r->dense, s->ctx) != 0) return 1;
        compress_dense(r);
        index_columns(r);
    } else {
        if (s->gap_jacobian_values(q, r->val, s->ctx) != 0) return 1;
        if (!r->indexed) index_columns(r); /* the pattern is fixed: once */
        r->indexed = 1;
    }
    r->evaluated = s->gaps_linear;
    return 0;
}

void contact_rows_free(contact_rows *r)
{
    free(r->val); free(r->colptr); free(r->centry); free(r->crow);
    free(r->dense); free(r->own_rowptr); free(r->own_cols);
    memset(r, 0, sizeof *r);
}
