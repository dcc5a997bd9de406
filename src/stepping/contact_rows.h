/* The gap Jacobian G of Moreau-Jean in compressed rows (and a column index into them), so that
 * a step costs what G's nonzeros cost: a contact between two beads has two entries, not ndof. */
#ifndef NSDAE_STEPPING_CONTACT_ROWS_H
#define NSDAE_STEPPING_CONTACT_ROWS_H

#include <nsdae/lagrangian.h>
#include <nsdae/status.h>

typedef struct contact_rows {
    int nc, n;
    const int *rowptr, *cols;  /* row c: entries rowptr[c] .. rowptr[c+1]-1, columns increasing */
    double *val;               /* the entries' values */
    int *colptr, *centry;      /* column j: entries centry[colptr[j] .. colptr[j+1]-1] (indices into
                                  val), rows increasing */
    int *crow;                 /* the row of each of those entries */
    /* Systems without a pattern (hand-written, dense gap_jacobian): the nonzeros of each evaluated
     * G, compressed here. */
    double *dense;
    int *own_rowptr, *own_cols;
    int indexed;               /* the column index of a fixed pattern is built */
    int evaluated;             /* gaps_linear and evaluated once: nothing to do per step */
} contact_rows;

/* Allocates everything a run needs (no allocation per step). NOMEM. */
nsdae_status contact_rows_init(contact_rows *r, const nsdae_lagrangian *s, nsdae_error *err);

/* G at q (once for linear gaps); the callback's status (0 success). */
int contact_rows_evaluate(contact_rows *r, const nsdae_lagrangian *s, const double *q);

void contact_rows_free(contact_rows *r);

#endif
