/* The mass matrix of Moreau-Jean, factored in its band: a diagonal M (point masses, bead columns)
 * or a banded one (chains) costs O(ndof * band) per solve instead of O(ndof^2). */
#ifndef NSDAE_STEPPING_MASS_FACTOR_H
#define NSDAE_STEPPING_MASS_FACTOR_H

#include <nsdae/status.h>

#include <stddef.h>

typedef struct mass_factor {
    int n;
    int kd;            /* lower bandwidth of the last factored M: 0 diagonal, n - 1 full */
    double *band;      /* (kd + 1) x n, LAPACK lower band storage of the Cholesky factor L; for
                          kd = 0, M's diagonal itself (x = b / m_ii, no square roots) */
    size_t cap;        /* doubles allocated in band (grown, never shrunk: no allocation once warm) */
} mass_factor;

/* Factors the dense symmetric M (n x n, column-major; only its lower triangle is read). The band
 * is found from M's zero entries. NUMERICAL when M is not positive definite, NOMEM. */
nsdae_status mass_factor_compute(mass_factor *f, int n, const double *M, nsdae_error *err);

/* x <- M^-1 x (n entries). */
void mass_factor_solve(const mass_factor *f, double *x);

void mass_factor_free(mass_factor *f);

#endif
