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

/* The infeasible monotone LCP that a fast path once answered: rows 1 and 4 of M sum to zero, so
 * w1 + w4 = q1 + q4 = -1.587 for every z and no z solves it. The point (written by Lemke's
 * re-solve of a singular basis) lies along M's null vector (1, 0, 0, 1) at 4.5e15: every row's
 * terms are ~1e16 and cancel to rounding (|w_i| <= 2, 2e-16 of the terms). */
Test(row_violation, point_along_a_null_direction_of_an_infeasible_lcp)
{
    double M[16] = {1, -1, 0, -1, -1, 2, -1, 1, 0, -1, 1, 0, -1, 1, 0, 1};
    double q[4] = {-0.895, -0.803, 0.533, -0.692};
    double z[4] = {4489339542353663.0, 768743784274895.62, 768743784274894.75, 3720595758078766.0};
    nsdae_mlcp p = {4, M, q, NULL, NULL, NULL};
    double v = nsdae_mlcp_row_violation(&p, z);
    /* its own pattern (every z_j > 0: M x = -q) re-solves to w1 = w4 = -1.587 / 2, rows whose
     * terms are about 1.6: a violation of about half */
    cr_expect(v > 0.1, "%g", v);
}

/* A solvable problem whose solutions form a ray: M = [1 -1; -1 1], q = 0, z = (t, t) for every
 * t >= 0. A point far along it is a solution; its pattern re-solves to 0, also one. */
Test(row_violation, far_point_of_a_ray_of_solutions)
{
    double M[4] = {1, -1, -1, 1}, q[2] = {0, 0}, z[2] = {3e15, 3e15}, z0[2] = {0, 0};
    nsdae_mlcp p = {2, M, q, NULL, NULL, NULL};
    cr_expect(nsdae_mlcp_row_violation(&p, z) <= NSDAE_TOL_RESIDUAL, "%g", nsdae_mlcp_row_violation(&p, z));
    cr_expect(nsdae_mlcp_row_violation(&p, z0) <= NSDAE_TOL_RESIDUAL);
}

/* z in [-1e10, 1], w = z + 2: inside the box w must vanish, so z = -2. z = 0 has w = 2, 1e10
 * from the lower bound and 1 from the upper one, on a row whose terms are 2. */
Test(row_violation, box_row_with_a_far_bound)
{
    double M[1] = {1}, q[1] = {2}, lo[1] = {-1e10}, hi[1] = {1};
    nsdae_row_kind kind[1] = {NSDAE_ROW_BOX};
    nsdae_mlcp p = {1, M, q, kind, lo, hi};
    double good[1] = {-2}, bad[1] = {0};
    cr_expect(nsdae_mlcp_row_violation(&p, good) <= NSDAE_TOL_RESIDUAL);
    cr_expect(nsdae_mlcp_row_violation(&p, bad) > 0.1, "%g", nsdae_mlcp_row_violation(&p, bad));
}

/* z1 in [-1, 0], w1 = 1e-7 z1 + 1e6 > 0: the solution is at the lower bound, z1 = -1. z1 = -0.5
 * moves the row by only 5e-8 of its 1e6, but it is half the box away from either bound. */
Test(row_violation, box_distance_in_the_variables_own_units)
{
    double M[1] = {1e-7}, q[1] = {1e6}, lo[1] = {-1}, hi[1] = {0};
    nsdae_row_kind kind[1] = {NSDAE_ROW_BOX};
    nsdae_mlcp p = {1, M, q, kind, lo, hi};
    double good[1] = {-1}, bad[1] = {-0.5};
    cr_expect(nsdae_mlcp_row_violation(&p, good) <= NSDAE_TOL_RESIDUAL);
    cr_expect(nsdae_mlcp_row_violation(&p, bad) > 0.1, "%g", nsdae_mlcp_row_violation(&p, bad));
}

/* M = [6 0; 5 1e150], q = (-4.5625, -6): z1 = 4.5625 / 6, z2 = (6 - 5 z1) / 1e150. At z2 = 0,
 * w2 = -2.198 on a row whose terms are 9.8: a violation of 0.22, however large 1e150 is. */
Test(row_violation, tiny_row_next_to_a_huge_entry)
{
    double M[4] = {6, 5, 0, 1e150}, q[2] = {-4.5625, -6}, z1 = 4.5625 / 6;
    nsdae_mlcp p = {2, M, q, NULL, NULL, NULL};
    double good[2] = {z1, (6 - 5 * z1) / 1e150}, bad[2] = {z1, 0};
    cr_expect(nsdae_mlcp_row_violation(&p, good) <= NSDAE_TOL_RESIDUAL, "%g", nsdae_mlcp_row_violation(&p, good));
    double v = nsdae_mlcp_row_violation(&p, bad);
    cr_expect(fabs(v - (6 - 5 * z1) / (6 + 5 * z1)) < 1e-9, "%g", v);
}

/* M = diag(-6, 1e-16), q = (-6, -6): row 1 is w1 = -6 z1 - 6 < 0 for every z1 >= 0, so nothing
 * solves it, not even with row 2 solved exactly (z2 = 6e16) or a huge z1. */
Test(row_violation, no_solution_next_to_a_tiny_entry)
{
    double M[4] = {-6, 0, 0, 1e-16}, q[2] = {-6, -6};
    nsdae_mlcp p = {2, M, q, NULL, NULL, NULL};
    double a[2] = {0, 6e16}, b[2] = {1e20, 6e16}, c[2] = {0, 0};
    cr_expect(nsdae_mlcp_row_violation(&p, a) >= 1 - 1e-12, "%g", nsdae_mlcp_row_violation(&p, a));
    cr_expect(nsdae_mlcp_row_violation(&p, b) > 0.5, "%g", nsdae_mlcp_row_violation(&p, b));
    cr_expect(nsdae_mlcp_row_violation(&p, c) >= 1 - 1e-12);
}
