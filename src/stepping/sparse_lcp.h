/* The complementarity part of the sparse step path (sparse_step.h): the single-solution
 * certificate of the LCP on the MLCS rows and its solution by principal pivoting; the per-row
 * acceptance of an answer over the sparse step matrix. */
#ifndef NSDAE_STEPPING_SPARSE_LCP_H
#define NSDAE_STEPPING_SPARSE_LCP_H

#include "stepping/sparse_step.h"

/* Analyses the step matrix just built, forms S = D - Ch W^-1 Bh and tests sym(S) for positive
 * definiteness (NSDAE_TOL_PD_PIVOT on the Cholesky pivots). 1: W is regular and S is (every step
 * with this matrix has one solution); 0: not so, or nl too large for a dense S; -1: out of memory. */
int sparse_lcp_classify(sparse_step *ss);

/* The worst violation of z over the rows of the step MLCP (M, q) in compressed columns, each row
 * against its own terms: the measure of nsdae_mlcp_row_violation (lcp/check.c), term for term,
 * in O(nnz). kind: the first ny rows equalities, the rest complementarity. Leaves w = M z + q in
 * ss->chk and the step residual at z (step_mlcp_residual's) in ss->residual. */
double sparse_row_violation(sparse_step *ss, const double *z);

#endif
