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
 * general, and Lemke's method can stop on a secondary ray: on random decoupled problems with
 * three contacts it returned, about one time in four, a point with entries of 1e15 whose
 * violation of the LCP is 1 absolute but 1e-15 relative to that point, which a relative check
 * accepts. So every answer is checked here on the contact laws, in the scale of the data (q and
 * the diagonal of W), and the next method is tried when it fails: the complementarity layer's
 * Lemke on the run's workspace (nothing allocated), then, counted as a fallback, Siconos' Lemke,
 * Siconos' MLCP enumeration and the layer's exhaustive enumeration (every point checked). */
#include "stepping/friction_lcp.h"

#include <nsdae/lcp.h>
#include <nsdae/tolerances.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* One contact with friction, the common case (a block, a ball): the four cases of the law in
 * closed form, with W = [a b; b c] (symmetric positive semidefinite) and q = (q_n, q_t). Returns
 * 1 with P set, 0 when no case fits (then Lemke decides). Besides speed (no LCP of size 4), the
 * closed form reproduces a decoupled step exactly: with b = 0 and a = 1, P_n = -q_n leaves the
 * normal velocity exactly 0, where Lemke's pivots leave a round-off that, under Siconos'
 * activation rule with threshold 0, could open a resting contact for a step. */
static int one_contact(double mu, const double *W, const double *q, double *P)
{
    const double a = W[0], b = W[1], c = W[3], qn = q[0], qt = q[1];
    P[0] = P[1] = 0.0;
    if (qn >= 0.0) return 1; /* separating (or grazing) without a percussion */
    const double det = a * c - b * b;
    if (det > 0.0) { /* sticking: u_n = u_t = 0 */
        double pn = (-qn * c + qt * b) / det, pt = (-qt * a + qn * b) / det;
        if (b == 0.0) {
            pn = -qn / a;
            pt = -qt / c;
        }
        if (pn >= 0.0 && fabs(pt) <= mu * pn) {
            P[0] = pn;
            P[1] = pt;
            return 1;
        }
    }
    for (int sgn = 1; sgn >= -1; sgn -= 2) { /* sliding with sign(u_t) = sgn: P_t = -sgn mu P_n */
        double denom = a - sgn * mu * b;
        if (!(denom > 0.0)) continue;
        double pn = -qn / denom, ut = (b - sgn * mu * c) * pn + qt;
        if (sgn * ut >= 0.0) {
            P[0] = pn;
            P[1] = -sgn * mu * pn;
            return 1;
        }
    }
    return 0;
}

/* The scale the laws are checked in: velocities max |q|, percussions max |q_i| / W_ii. */
static double law_tolerance(int r, const double *W, const double *q)
{
    double us = 0.0, ps = 0.0;
    for (int i = 0; i < r; i++) {
        us = fmax(us, fabs(q[i]));
        if (W[i + (size_t)i * r] > 0.0) ps = fmax(ps, fabs(q[i]) / W[i + (size_t)i * r]);
    }
    return NSDAE_TOL_RESIDUAL * (1.0 + us + ps);
}

/* The first point of the exhaustive enumeration that satisfies the laws (z, w: N each). */
static nsdae_status enumerate(const nsdae_mlcp *p, int m, int f, const int *normal_of, const double *mu,
                              const double *W, const double *q, double tol, double *z, double *P, double *u,
                              double *residual, nsdae_error *err)
{
    nsdae_lcp_solution_set *set = NULL;
    nsdae_status st = nsdae_lcp_enumerate(p, &set, err);
    if (st != NSDAE_OK) return st;
    st = nsdae_error_set(err, NSDAE_NO_SOLUTION, "friction LCP: no solution satisfies the contact laws");
    for (int k = 0; k < set->count && st != NSDAE_OK; k++) {
        for (int i = 0; i < p->size; i++) z[i] = set->pieces[k].z[i];
        for (int i = 0; i < m; i++) P[i] = z[i];
        for (int j = 0; j < f; j++) P[m + j] = z[m + j] - z[m + f + j];
        *residual = law_residual(m, f, normal_of, mu, W, q, P, u);
        if (*residual <= tol) st = NSDAE_OK;
    }
    nsdae_lcp_solution_set_free(set);
    return st;
}

int friction_lcp_ws_init(friction_lcp_ws *ws, int rows, nsdae_error *err)
{
    memset(ws, 0, sizeof *ws);
    /* r = m + f rows with f <= m: at most m + 3 f <= 2 r unknowns */
    const size_t N = 2 * (size_t)(rows > 0 ? rows : 1);
    ws->cap = (int)N;
    ws->M = malloc(N * N * sizeof *ws->M);
    ws->q = malloc(N * sizeof *ws->q);
    ws->z = malloc(N * sizeof *ws->z);
    ws->w = malloc(N * sizeof *ws->w);
    if (!ws->M || !ws->q || !ws->z || !ws->w) {
        nsdae_error_set(err, NSDAE_NOMEM, "friction LCP: out of memory for %d rows", rows);
        return -1;
    }
    return nsdae_lcp_lemke_ws_create((int)N, &ws->lemke, err) == NSDAE_OK ? 0 : -1;
}

void friction_lcp_ws_free(friction_lcp_ws *ws)
{
    free(ws->M);
    free(ws->q);
    free(ws->z);
    free(ws->w);
    nsdae_lcp_lemke_ws_destroy(ws->lemke);
    memset(ws, 0, sizeof *ws);
}

/* P from the facet unknowns z, and the laws' residual at it. */
static double answer(int m, int f, const int *normal_of, const double *mu, const double *W, const double *q,
                     const double *z, double *P, double *u)
{
    for (int i = 0; i < m; i++) P[i] = z[i];
    for (int k = 0; k < f; k++) P[m + k] = z[m + k] - z[m + f + k];
    return law_residual(m, f, normal_of, mu, W, q, P, u);
}

/* The fallbacks, in order, each answer checked on the laws: Siconos' Lemke, Siconos' MLCP
 * enumeration, the layer's exhaustive enumeration. They allocate. */
static nsdae_status fallback(const nsdae_mlcp *p, int m, int f, const int *normal_of, const double *mu,
                             const double *W, const double *q, double tol, double *z, double *w, double *P, double *u,
                             double *residual, nsdae_error *err)
{
    static const char *const solvers[] = {"lemke", "enum"};
    nsdae_status st = NSDAE_NO_SOLUTION;
    for (int s = 0; s < 2 && st != NSDAE_OK; s++) {
        st = nsdae_lcp_solve_siconos(p, solvers[s], z, w, err);
        if (st == NSDAE_NOMEM) return st;
        if (st != NSDAE_OK) continue;
        *residual = answer(m, f, normal_of, mu, W, q, z, P, u);
        if (*residual > tol) st = NSDAE_NO_SOLUTION;
    }
    if (st != NSDAE_OK) st = enumerate(p, m, f, normal_of, mu, W, q, tol, z, P, u, residual, err);
    return st;
}

nsdae_status friction_lcp_solve_ws(friction_lcp_ws *ws, int m, int f, const int *normal_of, const double *mu,
                                   const double *W, const double *q, double *P, double *u, double *residual,
                                   nsdae_error *err)
{
    if (m == 1 && f == 1 && one_contact(mu[0], W, q, P)) {
        *residual = law_residual(m, f, normal_of, mu, W, q, P, u);
        return NSDAE_OK;
    }
    const int N = m + 3 * f;
    if (N > ws->cap)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "friction LCP: %d unknowns, the workspace holds %d", N,
                               ws->cap);
    build(m, f, normal_of, mu, W, q, ws->M, ws->q);
    nsdae_mlcp p = {N, ws->M, ws->q, NULL, NULL, NULL};
    const double tol = law_tolerance(m + f, W, q);
    ws->solves++;
    nsdae_status st = nsdae_lcp_solve_lemke_ws(ws->lemke, &p, ws->z, ws->w, err);
    if (st == NSDAE_OK && (*residual = answer(m, f, normal_of, mu, W, q, ws->z, P, u)) <= tol) return NSDAE_OK;
    if (st == NSDAE_NOMEM) return st;
    ws->fallbacks++;
    return fallback(&p, m, f, normal_of, mu, W, q, tol, ws->z, ws->w, P, u, residual, err);
}

nsdae_status friction_lcp_solve(int m, int f, const int *normal_of, const double *mu, const double *W, const double *q,
                                double *P, double *u, double *residual, nsdae_error *err)
{
    friction_lcp_ws ws;
    nsdae_status st = friction_lcp_ws_init(&ws, m + f, err) == 0 ? NSDAE_OK : NSDAE_NOMEM;
    if (st == NSDAE_OK) st = friction_lcp_solve_ws(&ws, m, f, normal_of, mu, W, q, P, u, residual, err);
    friction_lcp_ws_free(&ws);
    return st;
}
