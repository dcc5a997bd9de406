/* Compressed sparse columns: the storage of the MLCS stepper's sparse path (sparse_step.h). */
#ifndef NSDAE_STEPPING_CSC_H
#define NSDAE_STEPPING_CSC_H

#include <nsdae/mlcs.h>

typedef struct csc {
    int rows, cols;
    int *colp;      /* cols + 1: column j holds entries colp[j] .. colp[j+1]-1 */
    int *rowi;      /* row of each entry, increasing within a column */
    double *val;
} csc;

/* The nonzero entries of a dense column-major rows x cols matrix (NULL: all zero). 0, or -1 when
 * out of memory (c is then empty). O(rows cols) once; the stepper reads the MLCS this way. */
int csc_from_dense(csc *c, const double *a, int rows, int cols);
/* A copy of a compressed MLCS matrix (mlcs.h: rows increasing, no zeros, as csc_from_dense gives;
 * colp NULL: all zero). 0, or -1 when out of memory. O(nnz + cols): a translated system's phases
 * are read without the O(rows cols) scan of their dense form. */
int csc_from_mlcs(csc *c, const nsdae_mlcs_csc *m, int rows, int cols);
void csc_free(csc *c);

/* y += alpha A x over the entries of A. */
void csc_gaxpy(const csc *a, double alpha, const double *x, double *y);

#endif
