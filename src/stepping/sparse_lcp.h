/* The complementarity part of the sparse step path (sparse_step.h): the single-solution
 * certificate of the LCP on the MLCS rows and its solution by principal pivoting; the per-row
 * acceptance of an answer over the sparse step matrix. */
#ifndef NSDAE_STEPPING_SPARSE_LCP_H
#define NSDAE_STEPPING_SPARSE_LCP_H

#include "stepping/sparse_step.h"

/* Analyses the step matrix just built and proves, when it can, that every step with it has one
 * solution: W regular (KLU's rcond) and sym(S) positive definite, S = D - Ch W^-1 Bh, proven on a
 * sparse matrix (sparse_lcp_certify_sparse), else on S formed and factored densely. 1: proven;
 * 0: not so, or not proven (nl too large for a dense S); -1: out of memory. */
int sparse_lcp_classify(sparse_step *ss);

/* The two proofs of sym(S) positive definite, with W's factor in place (after classify). Sparse
 * (sparse_cert.c): an LDL^T of an n x n sparse symmetric matrix whose positive definiteness
 * implies it, O(nnz) for banded step matrices; 1 proven, 0 not proven, -1 out of memory. Dense:
 * S by nl solves (kept in ss->S for Lemke) and a Cholesky of sym(S), O(nl^3); 1, 0, -1 alike. */
int sparse_lcp_certify_sparse(const sparse_step *ss);
int sparse_lcp_certify_dense(sparse_step *ss);

/* The worst violation of z over the rows of the step MLCP (M, q) in compressed columns, each row
 * against its own terms: the measure of nsdae_mlcp_row_violation (lcp/check.c), term for term,
 * in O(nnz). kind: the first ny rows equalities, the rest complementarity. Leaves w = M z + q in
 * ss->chk and the step residual at z (step_mlcp_residual's) in ss->residual. */
double sparse_row_violation(sparse_step *ss, const double *z);

#endif
