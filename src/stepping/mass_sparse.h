/* CHOLMOD for a mass matrix whose band is wide but whose nonzeros are few (mass_factor.h). */
#ifndef NSDAE_STEPPING_MASS_SPARSE_H
#define NSDAE_STEPPING_MASS_SPARSE_H

#include "stepping/mass_factor.h"

/* Whether CHOLMOD should factor an n x n M of lower bandwidth kd with nnz_lower nonzeros on and
 * below its diagonal: when the band holds more than four times M's nonzeros. */
int mass_sparse_wanted(int n, int kd, size_t nnz_lower);

/* Factors M (its lower triangle in compressed columns, as mass_factor_compute) into *sp (created
 * on first use). The ordering and symbolic analysis are redone only when M's pattern changes. */
nsdae_status mass_sparse_factor(mass_sparse **sp, int n, const int *colptr, const int *rows, const double *val,
                                nsdae_error *err);

/* x <- M^-1 x with the last factorization; allocates nothing once warm. */
void mass_sparse_solve(mass_sparse *sp, double *x);

void mass_sparse_free(mass_sparse *sp);

#endif
