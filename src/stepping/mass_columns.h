/* The mass matrix of Moreau-Jean as the factorization reads it: its lower triangle in compressed
 * columns. A translated system gives the pattern of its structural nonzeros and their values
 * (lagrangian.h), so that nothing of size ndof^2 exists (a column of 4000 beads: 4000 values
 * where the dense M was 128 MB); a hand-written one gives the dense M, whose nonzero entries on
 * and below the diagonal are compressed here at each evaluation, exactly the entries the dense
 * factorization read. */
#ifndef NSDAE_STEPPING_MASS_COLUMNS_H
#define NSDAE_STEPPING_MASS_COLUMNS_H

#include <nsdae/lagrangian.h>
#include <nsdae/status.h>

typedef struct mass_columns {
    int n;
    const int *colptr, *rows;  /* column j: rows rows[colptr[j] .. colptr[j+1]-1], increasing, >= j */
    double *val;               /* the entries' values */
    /* Systems without a pattern (hand-written, dense mass callback): the evaluated M and the
     * pattern of its nonzeros, compressed here (room for the whole lower triangle, allocated
     * once: such systems are small). */
    double *dense;
    int *own_colptr, *own_rows;
} mass_columns;

/* Allocates everything a run needs (no allocation per evaluation). NOMEM. */
nsdae_status mass_columns_init(mass_columns *mc, const nsdae_lagrangian *s, nsdae_error *err);

/* M at q; the callback's status (0 success). */
int mass_columns_evaluate(mass_columns *mc, const nsdae_lagrangian *s, const double *q);

/* The full symmetric M (n x n, column-major) from the last evaluation, for the dense iteration
 * matrix of implicit forces. */
void mass_columns_scatter(const mass_columns *mc, double *M);

void mass_columns_free(mass_columns *mc);

#endif
