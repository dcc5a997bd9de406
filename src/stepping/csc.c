/* Compressed sparse columns from the MLCS's dense arrays or its compressed ones, and the one product
 * the stepper needs. */
#include "stepping/csc.h"

#include <stdlib.h>
#include <string.h>

int csc_from_dense(csc *c, const double *a, int rows, int cols)
{
    memset(c, 0, sizeof *c);
    size_t nnz = 0;
    for (size_t e = 0; a && e < (size_t)rows * (size_t)cols; e++) nnz += a[e] != 0.0;
    c->rows = rows;
    c->cols = cols;
    c->colp = malloc(sizeof *c->colp * ((size_t)cols + 1));
    c->rowi = malloc(sizeof *c->rowi * (nnz ? nnz : 1));
    c->val = malloc(sizeof *c->val * (nnz ? nnz : 1));
    if (!c->colp || !c->rowi || !c->val) {
        csc_free(c);
        return -1;
    }
    int k = 0;
    for (int j = 0; j < cols; j++) {
        c->colp[j] = k;
        for (int i = 0; a && i < rows; i++) {
            double v = a[i + (size_t)j * rows];
            if (v != 0.0) {
                c->rowi[k] = i;
                c->val[k++] = v;
            }
        }
    }
    c->colp[cols] = k;
    return 0;
}

int csc_from_mlcs(csc *c, const nsdae_mlcs_csc *m, int rows, int cols)
{
    memset(c, 0, sizeof *c);
    const size_t nnz = m->colp ? (size_t)m->colp[cols] : 0;
    c->rows = rows;
    c->cols = cols;
    c->colp = m->colp ? malloc(sizeof *c->colp * ((size_t)cols + 1)) : calloc((size_t)cols + 1, sizeof *c->colp);
    c->rowi = malloc(sizeof *c->rowi * (nnz ? nnz : 1));
    c->val = malloc(sizeof *c->val * (nnz ? nnz : 1));
    if (!c->colp || !c->rowi || !c->val) {
        csc_free(c);
        return -1;
    }
    if (!m->colp) return 0;
    memcpy(c->colp, m->colp, sizeof *c->colp * ((size_t)cols + 1));
    memcpy(c->rowi, m->rowi, sizeof *c->rowi * nnz);
    memcpy(c->val, m->val, sizeof *c->val * nnz);
    return 0;
}

void csc_free(csc *c)
{
    free(c->colp);
    free(c->rowi);
    free(c->val);
    memset(c, 0, sizeof *c);
}

void csc_gaxpy(const csc *a, double alpha, const double *x, double *y)
{
    for (int j = 0; j < a->cols; j++) {
        double xj = alpha * x[j];
        if (xj == 0.0) continue;
        for (int k = a->colp[j]; k < a->colp[j + 1]; k++) y[a->rowi[k]] += a->val[k] * xj;
    }
}
