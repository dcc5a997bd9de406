/* The mass matrix of Moreau-Jean, factored by its structure: a diagonal M (point masses, bead
 * columns) costs a division per entry, a banded one (chains) O(ndof * band) per solve, and a
 * sparse M whose band is wide (rings, closed loops, coordinates that pair far-apart bodies) a
 * sparse Cholesky (SuiteSparse CHOLMOD) whose cost follows its fill, not n^2. */
#ifndef NSDAE_STEPPING_MASS_FACTOR_H
#define NSDAE_STEPPING_MASS_FACTOR_H

#include <nsdae/status.h>

#include <stddef.h>

typedef struct mass_sparse mass_sparse;

typedef struct mass_factor {
    int n;
    int kd;            /* lower bandwidth of the last factored M: 0 diagonal, n - 1 full */
    double *band;      /* (kd + 1) x n, LAPACK lower band storage of the Cholesky factor L; for
                          kd = 0, M's diagonal itself (x = b / m_ii, no square roots) */
    size_t cap;        /* doubles allocated in band (grown, never shrunk: no allocation once warm) */
    mass_sparse *sparse; /* non-NULL when the last M was factored by CHOLMOD instead of its band */
    int sparse_used;   /* 1 when the last factorization is CHOLMOD's */
} mass_factor;

/* The lower bandwidth of a lower triangle in compressed columns (rows increasing, >= the column). */
int mass_factor_bandwidth(int n, const int *colptr, const int *rows);

/* Factors the symmetric M given by its lower triangle in compressed columns: column j has the
 * rows rows[colptr[j] .. colptr[j+1]-1] (increasing, >= j) with the values val. The band is the
 * pattern's. NUMERICAL when M is not positive definite, NOMEM. */
nsdae_status mass_factor_compute(mass_factor *f, int n, const int *colptr, const int *rows, const double *val,
                                 nsdae_error *err);

/* x <- M^-1 x (n entries). */
void mass_factor_solve(const mass_factor *f, double *x);

void mass_factor_free(mass_factor *f);

#endif
