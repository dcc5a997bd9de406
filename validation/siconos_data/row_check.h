/* An answer's check written for the validation, independent of libnsdae_lcp's own acceptance:
 * every row against that row's own terms, never against the largest entry of the problem. */
#ifndef SICONOS_DATA_ROW_CHECK_H
#define SICONOS_DATA_ROW_CHECK_H

#include <nsdae/lcp.h>

/* The worst violation of z (size N, column-major M) over the rows of p, each measured against
 * the row's own terms s_i = |q_i| + sum_j |M_ij z_j|:
 *   equality row:          |w_i| / s_i
 *   complementarity row:   max(-w_i / s_i, sign(z_i), min(w_i / s_i, size(z_i)))
 * where a component z_j is measured by what it puts into the rows it enters,
 * size(z_j) = max_k |M_kj z_j| / s_k. 0 for an exact solution; +INFINITY when z or w is
 * not finite. Box rows are not used by the Siconos data and count as violated. */
double row_check(const nsdae_mlcp *p, const double *z);

#endif
