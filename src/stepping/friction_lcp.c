/* 2-D Coulomb friction in a Moreau-Jean step as an LCP (friction_lcp.h).
 *
 * In 2-D the friction cone { |P_t| <= mu P_n } has two facets, so the contact law is piecewise
 * linear and the step is an LCP (Glocker and Pfeiffer's facet form; Acary & Brogliato 2008,
 * section 12.3). Per tangential row, P_t = P_t+ - P_t- with P_t+, P_t- >= 0 and a slack beta:
 *
 *   0 <= beta + u_t               _|_  P_t+ >= 0
 *   0 <= beta - u_t               _|_  P_t- >= 0
 *   0 <= mu P_n - P_t+ - P_t-     _|_  beta >= 0
 *
 * Sliding, u_t > 0: the second row forces beta >= u_t > 0, hence mu P_n = P_t+ + P_t-; beta + u_t
 * > 0 gives P_t+ = 0, so P_t = -mu P_n (and beta = u_t). Sticking, u_t = 0: beta = 0 is allowed,
 * any P_t in [-mu P_n, mu P_n]. These are exactly Coulomb's law on the post-step velocity.
 *
 * The matrix is not positive semidefinite (the mu entries), so the solution is not unique in
 * general; Lemke's method processes this form (it is copositive-plus on the cone's facets: the
 * Stewart-Trinkle argument), and Siconos' complete enumeration takes over if it stops on a ray.
 * Each answer is then checked on the contact laws themselves, not only on the LCP rows. */
#include "stepping/friction_lcp.h"

#include <nsdae/lcp.h>

#include <math.h>
#include <stdlib.h>

/* The LCP of the facet form in the unknowns z = (P_n [m], P_t+ [f], P_t- [f], beta [f]). */
static void build(int m, int f, const int *normal_of, const double *mu, const double *W, const double *q, double *M,
                  double *qq)
{
    const int r = m + f, N = m + 3 * f;
    for (int k = 0; k < N * N; k++) M[k] = 0.0;
    /* local velocity rows u_i = sum_j W_ij P_j + q_i with P_j = P_t+ - P_t- on tangential columns */
    for (int i = 0; i < r; i++) {
        for (int j = 0; j < m; j++) {
            double wij = W[i + (size_t)j * r];
            if (i < m) M[i + (size_t)j * N] = wij;
            else {
                M[i + (size_t)j * N] = wij;         /* row t+ of tangent i - m */
                M[i + f + (size_t)j * N] = -wij;    /* row t- */
            }
        }
        for (int k = 0; k < f; k++) {
            double wik = W[i + (size_t)(m + k) * r];
            int cp = m + k, cm = m + f + k;
            if (i < m) {
                M[i + (size_t)cp * N] = wik;
                M[i + (size_t)cm * N] = -wik;
            } else {
                M[i + (size_t)cp * N] = wik;
                M[i + (size_t)cm * N] = -wik;
                M[i + f + (size_t)cp * N] = -wik;
                M[i + f + (size_t)cm * N] = wik;
            }
        }
        if (i < m) qq[i] = q[i];
        else {
            qq[i] = q[i];
            qq[i + f] = -q[i];
        }
    }
    for (int k = 0; k < f; k++) {
        int rb = m + 2 * f + k, cb = rb;
        M[m + k + (size_t)cb * N] = 1.0;        /* beta in the t+ row */
        M[m + f + k + (size_t)cb * N] = 1.0;    /* beta in the t- row */
        M[rb + (size_t)normal_of[k] * N] = mu[k];
        M[rb + (size_t)(m + k) * N] = -1.0;
        M[rb + (size_t)(m + f + k) * N] = -1.0;
        qq[rb] = 0.0;
    }
}

/* Largest violation of the contact laws by P, with u recomputed from P. */
static double law_residual(int m, int f, const int *normal_of, const double *mu, const double *W, const double *q,
                           const double *P, double *u)
{
    const int r = m + f;
    double res = 0.0;
    for (int i = 0; i < r; i++) {
        double s = q[i];
        for (int j = 0; j < r; j++) s += W[i + (size_t)j * r] * P[j];
        u[i] = s;
    }
    for (int i = 0; i < m; i++) res = fmax(res, fabs(fmin(u[i], P[i])));
    for (int k = 0; k < f; k++) {
        double bound = mu[k] * P[normal_of[k]], pt = P[m + k];
        double proj = fmin(fmax(pt - u[m + k], -bound), bound);
        res = fmax(res, fabs(pt - proj));
    }
    return res;
}

nsdae_status friction_lcp_solve(int m, int f, const int *normal_of, const double *mu, const double *W, const double *q,
                                double *P, double *u, double *residual, nsdae_error *err)
{
    const int N = m + 3 * f;
    double *M = malloc((size_t)N * N * sizeof *M), *qq = malloc((size_t)N * sizeof *qq);
    double *z = malloc((size_t)N * sizeof *z), *w = malloc((size_t)N * sizeof *w);
    nsdae_status st = NSDAE_OK;
    if (!M || !qq || !z || !w) {
        st = nsdae_error_set(err, NSDAE_NOMEM, "friction LCP: out of memory");
        goto done;
    }
    build(m, f, normal_of, mu, W, q, M, qq);
    nsdae_mlcp p = {N, M, qq, NULL, NULL, NULL};
    st = nsdae_lcp_solve_siconos(&p, "lemke", z, w, err);
    if (st == NSDAE_NO_SOLUTION) st = nsdae_lcp_solve_siconos(&p, "lcp-enum", z, w, err);
    if (st != NSDAE_OK) goto done;
    for (int i = 0; i < m; i++) P[i] = z[i];
    for (int k = 0; k < f; k++) P[m + k] = z[m + k] - z[m + f + k];
    *residual = law_residual(m, f, normal_of, mu, W, q, P, u);
done:
    free(M); free(qq); free(z); free(w);
    return st;
}
