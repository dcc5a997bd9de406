/* The 2-D Coulomb contact problem of a Moreau-Jean step (stepping/friction_lcp.h) on problems
 * whose solution is known in closed form: decoupled contacts with a diagonal Delassus matrix,
 * where each contact alone is P_n = max(-q_n, 0) / a and P_t = clamp(-q_t / c, -mu P_n, mu P_n).
 * Two or more contacts go through the facet LCP and Lemke's method; one alone through the closed
 * form of friction_lcp.c. Both must give the formula's answer. */
#include <criterion/criterion.h>

#include "stepping/friction_lcp.h"

#include <math.h>
#include <stdlib.h>

static double uniform(unsigned *seed, double lo, double hi)
{
    *seed = *seed * 1103515245u + 12345u;
    return lo + (hi - lo) * (double)((*seed >> 8) & 0xffffff) / (double)0xffffff;
}

/* m contacts, all with friction: rows 0..m-1 normal, m..2m-1 tangential; W diagonal. */
static void check_decoupled(int m, unsigned seed)
{
    double W[64] = {0}, q[8], P[8], u[8], mu[4], a[4], c[4];
    int normal_of[4];
    const int r = 2 * m;
    for (int k = 0; k < m; k++) {
        a[k] = uniform(&seed, 0.1, 10.0);
        c[k] = uniform(&seed, 0.1, 10.0);
        W[k + k * r] = a[k];
        W[(m + k) + (m + k) * r] = c[k];
        q[k] = uniform(&seed, -2.0, 1.0);
        q[m + k] = uniform(&seed, -3.0, 3.0);
        mu[k] = uniform(&seed, 0.0, 1.0);
        normal_of[k] = k;
    }
    double residual = -1.0;
    nsdae_error err = {0};
    cr_assert_eq(friction_lcp_solve(m, m, normal_of, mu, W, q, P, u, &residual, &err), NSDAE_OK, "%s", err.message);
    for (int k = 0; k < m; k++) {
        double pn = fmax(-q[k], 0.0) / a[k];
        double pt = fmin(fmax(-q[m + k] / c[k], -mu[k] * pn), mu[k] * pn);
        double tol = 1e-12 * (1.0 + fabs(pn) + fabs(q[m + k] / c[k]));
        cr_expect(fabs(P[k] - pn) <= tol, "m = %d, seed %u, contact %d: P_n %.17g, closed form %.17g", m, seed, k, P[k],
                  pn);
        cr_expect(fabs(P[m + k] - pt) <= tol, "m = %d, seed %u, contact %d: P_t %.17g, closed form %.17g", m, seed, k,
                  P[m + k], pt);
    }
    cr_expect(residual >= 0.0 && residual < 1e-12, "residual %g", residual);
}

Test(friction_lcp, one_contact_closed_form)
{
    for (unsigned seed = 1; seed <= 300; seed++) check_decoupled(1, seed);
}

Test(friction_lcp, several_contacts_by_lemke)
{
    for (unsigned seed = 1; seed <= 300; seed++) check_decoupled(2 + (int)(seed % 3), seed);
}

/* Coupled, one contact: a unit point mass on a line at 45 degrees to the ground has W = [1 b; b 1]
 * style coupling; whichever case is taken, the answer must satisfy the laws (residual 0) and the
 * velocity update must be the one of its case. Here: sticking needs |P_t| <= mu P_n. */
Test(friction_lcp, coupled_one_contact_sticks_or_slides_consistently)
{
    const double W[4] = {2.0, 0.5, 0.5, 1.0};
    const int normal_of[1] = {0};
    const double mu[1] = {0.4};
    const double qs[][2] = {{-1.0, 0.1}, {-1.0, 2.0}, {-1.0, -2.0}, {0.5, 1.0}};
    for (int k = 0; k < 4; k++) {
        double P[2], u[2], res;
        nsdae_error err = {0};
        cr_assert_eq(friction_lcp_solve(1, 1, normal_of, mu, W, qs[k], P, u, &res, &err), NSDAE_OK, "%s", err.message);
        /* the laws, checked here from P */
        double un = W[0] * P[0] + W[2] * P[1] + qs[k][0], ut = W[1] * P[0] + W[3] * P[1] + qs[k][1];
        cr_expect(P[0] >= 0.0 && un >= -1e-14 && fabs(P[0] * un) < 1e-14, "case %d: normal law", k);
        cr_expect(fabs(P[1]) <= mu[0] * P[0] + 1e-14, "case %d: outside the cone", k);
        if (fabs(ut) > 1e-12) cr_expect(fabs(P[1] + copysign(mu[0] * P[0], ut)) < 1e-14, "case %d: sliding law", k);
    }
}
