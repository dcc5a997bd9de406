/* The one place where Moreau-Jean meets a complementarity solver, so that the solver can be
 * swapped without touching the scheme. */
#ifndef NSDAE_STEPPING_CONTACT_LCP_H
#define NSDAE_STEPPING_CONTACT_LCP_H

#include <nsdae/lcp.h>
#include <nsdae/status.h>

/* Solves 0 <= w = W P + q  _|_  P >= 0 for the m x m (column-major) Delassus matrix W of the
 * active contacts, on the run's workspace ws. P on entry: a starting guess (the last step's
 * percussions of these contacts; zeros for none). Writes P and w (m each). NO_SOLUTION when the
 * solver finds none. */
nsdae_status contact_lcp_solve(nsdae_lcp_pivot_ws *ws, int m, const double *W, const double *q, double *P, double *w,
                               nsdae_error *err);

#endif
