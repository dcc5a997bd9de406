/* The contact problem of a Moreau-Jean step with 2-D Coulomb friction (moreau_jean.c), solved as an
 * LCP by the complementarity layer. */
#ifndef NSDAE_STEPPING_FRICTION_LCP_H
#define NSDAE_STEPPING_FRICTION_LCP_H

#include <nsdae/status.h>

/* The r = m + f reaction components of the active contacts: rows 0 .. m-1 normal, rows m .. m+f-1
 * tangential, tangential row m + k belonging to normal row normal_of[k] with coefficient mu[k].
 * With the local velocities u = W P + q (W r x r column-major, q carrying the Newton law on the
 * normal rows), finds P with
 *   normal rows:      0 <= u_n  _|_  P_n >= 0
 *   tangential rows:  |P_t| <= mu P_n,  P_t = -mu P_n sign(u_t) when u_t != 0   (Coulomb)
 * Writes P and u (r each) and *residual, the largest violation of these laws by (P, u recomputed
 * from P): |min(u_n, P_n)| on a normal row, |P_t - proj_[-mu P_n, mu P_n](P_t - u_t)| on a
 * tangential one (0 exactly at a solution). NO_SOLUTION when the LCP solvers find none. */
nsdae_status friction_lcp_solve(int m, int f, const int *normal_of, const double *mu, const double *W, const double *q,
                                double *P, double *u, double *residual, nsdae_error *err);

#endif
