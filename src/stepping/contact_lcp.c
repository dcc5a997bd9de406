/* Contact LCPs of Moreau-Jean. One active contact (the common case: a ball on the ground, a
 * rope) is a scalar problem solved in closed form, which keeps a step at a fraction of a
 * microsecond; several contacts go to the complementarity layer's block principal pivoting for
 * positive definite LCPs (lcp/pivot.c), started from the last step's percussions, on the run's
 * workspace: nothing allocated per step; where W is not positive definite (dependent contacts)
 * or not symmetric (implicit forces), it falls back to Lemke (Siconos' default LCP solver for
 * MoreauJeanOSI too). No minimal-norm selection is needed: W = G M^-1 G^T is positive
 * semidefinite, so every solution of the LCP has the same w and the same M^-1 G^T P, hence the
 * same v_{k+1}; only the split of P among dependent contacts can differ. */
#include "stepping/contact_lcp.h"

#include <nsdae/lcp.h>

nsdae_status contact_lcp_solve(nsdae_lcp_pivot_ws *ws, int m, const double *W, const double *q, double *P, double *w,
                               nsdae_error *err)
{
    if (m == 1) {
        /* 0 <= W P + q _|_ P >= 0 with W = G M^-1 G^T >= 0 */
        if (q[0] >= 0.0) {
            P[0] = 0.0;
            w[0] = q[0];
            return NSDAE_OK;
        }
        if (!(W[0] > 0.0))
            return nsdae_error_set(err, NSDAE_NO_SOLUTION,
                                   "contact LCP: W = %g is not positive and q = %g < 0 (a gradient vanishes)", W[0],
                                   q[0]);
        P[0] = -q[0] / W[0];
        w[0] = 0.0;
        return NSDAE_OK;
    }
    nsdae_mlcp p = {m, W, q, NULL, NULL, NULL};
    return nsdae_lcp_solve_pivot_ws(ws, &p, P, w, err);
}
