/* The contact problem of a Moreau-Jean step with 2-D Coulomb friction (moreau_jean.c), solved as an
 * LCP by the complementarity layer. */
#ifndef NSDAE_STEPPING_FRICTION_LCP_H
#define NSDAE_STEPPING_FRICTION_LCP_H

#include <nsdae/lcp.h>
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

/* The same on a workspace kept for a run (a Moreau-Jean run: one, made with the run's bound on r):
 * the layer's Lemke solves the facet LCP (nsdae_lcp_solve_lemke_ws) and nothing is allocated,
 * unless its answer fails the laws; then Siconos' Lemke, Siconos' enumeration and the layer's
 * enumeration are tried in turn (they allocate), and the call counts as a fallback.
 * friction_lcp_solve is this with a workspace of its own. */
typedef struct friction_lcp_ws {
    int cap;                       /* largest m + 3 f */
    double *M, *q, *z, *w;         /* the facet LCP: cap x cap, cap, cap, cap */
    nsdae_lcp_lemke_ws *lemke;
    long solves, fallbacks;        /* facet LCPs solved (the closed form not counted), and by a fallback */
} friction_lcp_ws;

/* For up to `rows` reaction components (m + f <= rows). -1 (err set) when out of memory; free in
 * any case. */
int friction_lcp_ws_init(friction_lcp_ws *ws, int rows, nsdae_error *err);
void friction_lcp_ws_free(friction_lcp_ws *ws);
nsdae_status friction_lcp_solve_ws(friction_lcp_ws *ws, int m, int f, const int *normal_of, const double *mu,
                                   const double *W, const double *q, double *P, double *u, double *residual,
                                   nsdae_error *err);

#endif
