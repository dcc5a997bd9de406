/* nsdae_mlcp_row_violation, the check every stepper applies to a step's answer before writing it
 * (issue 14, item 3): each case's solution and violation are derived by hand. */
#include <criterion/criterion.h>
#include <math.h>
#include <nsdae/lcp.h>
#include <nsdae/tolerances.h>

/* Heaviside multiplier in [0, 1], w = z - 1.5: the solution is z = 1 (at hi, w = -0.5 <= 0).
 * z = 1.5 is outside the box (what a step once wrote, exit 0). */
Test(row_violation, box_multiplier_outside_its_box)
{
    double M[1] = {1}, q[1] = {-1.5}, lo[1] = {0}, hi[1] = {1};
    nsdae_row_kind kind[1] = {NSDAE_ROW_BOX};
    nsdae_mlcp p = {1, M, q, kind, lo, hi};
    double good[1] = {1}, bad[1] = {1.5}, inside[1] = {0.5};
    cr_expect(nsdae_mlcp_row_violation(&p, good) <= NSDAE_TOL_RESIDUAL);
    cr_expect(nsdae_mlcp_row_violation(&p, bad) > 0.1, "%g", nsdae_mlcp_row_violation(&p, bad));
    /* inside the box w must vanish: w = -1 at z = 0.5 */
    cr_expect(nsdae_mlcp_row_violation(&p, inside) > 0.1);
}

/* Equality rows 2 z1 - 4 = 0 and z2 - 1 = 0: z = (2, 1); z1 = 6 leaves a residual of 8 on a row
 * whose terms are 12 and 4. */
Test(row_violation, equality_residual_against_the_row_terms)
{
    double M[4] = {2, 0, 0, 1}, q[2] = {-4, -1};
    nsdae_row_kind kind[2] = {NSDAE_ROW_EQUALITY, NSDAE_ROW_EQUALITY};
    nsdae_mlcp p = {2, M, q, kind, NULL, NULL};
    double good[2] = {2, 1}, bad[2] = {6, 1};
    cr_expect(nsdae_mlcp_row_violation(&p, good) <= NSDAE_TOL_RESIDUAL);
    cr_expect(fabs(nsdae_mlcp_row_violation(&p, bad) - 8.0 / 16.0) < 1e-12, "%g",
              nsdae_mlcp_row_violation(&p, bad));
}

Test(row_violation, complementarity_signs_and_nan)
{
    double M[1] = {1}, q[1] = {1};
    nsdae_mlcp p = {1, M, q, NULL, NULL, NULL};
    double good[1] = {0}, negative[1] = {-1}, nan[1] = {NAN};
    cr_expect(nsdae_mlcp_row_violation(&p, good) <= NSDAE_TOL_RESIDUAL);
    cr_expect(nsdae_mlcp_row_violation(&p, negative) > 0.1);
    cr_expect(isinf(nsdae_mlcp_row_violation(&p, nan)));
}
