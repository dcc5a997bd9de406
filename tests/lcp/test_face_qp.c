/* The small convex QPs of lcp/face_qp.c, min 1/2 y'Hy + g'y over { y : G y + h >= 0 } (G
 * column-major), against minimisers derived by hand: a projection, a singular H whose flat
 * direction a row bounds, and the fuzz piece whose minimiser lies 1e24 out. */
#include <criterion/criterion.h>
#include <math.h>

#include "internal.h"

Test(face_qp, projection_on_a_half_plane)
{
    /* min 1/2 |y - (2, 2)|^2 over y1 + y2 <= 1, y >= 0: the projection (1/2, 1/2) */
    double H[] = {1, 0, 0, 1}, g[] = {-2, -2};
    double G[] = {-1, 1, 0, -1, 0, 1}, h[] = {1, 0, 0}, y[2];
    cr_assert_eq(lcp_face_qp(2, 3, H, g, G, h, 1e-12, y, NULL), 0);
    cr_expect(fabs(y[0] - 0.5) <= 1e-15 && fabs(y[1] - 0.5) <= 1e-15, "y = (%.17g, %.17g)", y[0], y[1]);
}

Test(face_qp, the_unconstrained_minimiser_when_it_is_inside)
{
    /* min 1/2 (y1^2 + 4 y2^2) - y1 - 4 y2 = its minimum at (1, 1), inside y <= 3 */
    double H[] = {1, 0, 0, 4}, g[] = {-1, -4}, G[] = {-1, 0, 0, -1}, h[] = {3, 3}, y[2];
    cr_assert_eq(lcp_face_qp(2, 2, H, g, G, h, 1e-12, y, NULL), 0);
    cr_expect(fabs(y[0] - 1) <= 1e-15 && fabs(y[1] - 1) <= 1e-15, "y = (%.17g, %.17g)", y[0], y[1]);
}

Test(face_qp, a_far_minimiser_with_a_flat_direction)
{
    /* A leaf piece of a fuzz_lcp input (tests/fuzz/findings/lcp), in its null-space coordinates:
     * H = diag(4.5e-22, 0), g = (5.06e-7, 0): increasing in y1 on the piece, flat in y2.
     * Rows: 5.43e-16 y1 >= 6.1e8 (so y1 >= 1.1234e24, the binding one), y1 >= 2.33e11,
     * y2 >= 8.39e10, y2 >= 0, and a constant row 0.0625 >= 0. Minimisers: y1 = 6.1e8 / 5.43e-16,
     * any y2 >= 8.39e10. Both Lemkes failed on it; an SVD solve of the KKT system alone left a
     * stationarity residual of 505 on the multipliers (500) next to y1 = 1e24 (below). */
    double H[] = {4.5e-22, 0, 0, 0}, g[] = {5.06e-7, 0};
    double G[] = {5.43e-16, 1, 0, 0, 0, 0, 0, 1, 1, 0}, h[] = {-6.1e8, -2.33e11, -8.39e10, 0, 0.0625};
    double y[2];
    cr_assert_eq(lcp_face_qp(2, 5, H, g, G, h, 1e-10, y, NULL), 0);
    double y1 = 6.1e8 / 5.43e-16;
    cr_expect(fabs(y[0] - y1) <= 1e-12 * y1, "y1 = %.17g, want %.17g", y[0], y1);
    cr_expect(y[1] >= 8.39e10 * (1 - 1e-12), "y2 = %.17g", y[1]);
}

Test(face_qp, a_singular_kkt_system_far_out)
{
    /* The same without the rows on y2: y2 is free and flat, so every KKT system is singular and
     * is solved by least squares, whose multipliers (about 500) next to y1 = 1.1e24 carry a
     * stationarity residual of 505 until refined. Minimisers: y1 = 6.1e8 / 5.43e-16, any y2. */
    double H[] = {4.5e-22, 0, 0, 0}, g[] = {5.06e-7, 0};
    double G[] = {5.43e-16, 1, 0, 0}, h[] = {-6.1e8, -2.33e11}, y[2];
    cr_assert_eq(lcp_face_qp(2, 2, H, g, G, h, 1e-10, y, NULL), 0);
    double y1 = 6.1e8 / 5.43e-16;
    cr_expect(fabs(y[0] - y1) <= 1e-12 * y1, "y1 = %.17g, want %.17g", y[0], y1);
}

Test(face_qp, empty_and_too_many_rows_are_not_solved)
{
    double H[] = {1}, g[] = {0}, y[1];
    double G[] = {1, -1}, h[] = {-1, 0};   /* y >= 1 and y <= 0 */
    cr_expect_eq(lcp_face_qp(1, 2, H, g, G, h, 1e-12, y, NULL), 2);
    double G13[13], h13[13];
    for (int i = 0; i < 13; i++)
        G13[i] = 1, h13[i] = i;
    cr_expect_eq(lcp_face_qp(1, 13, H, g, G13, h13, 1e-12, y, NULL), 2, "2^13 tries: beyond the bound");
}

Test(face_qp, an_active_row_is_held_to_its_own_terms)
{
    /* min 1/2 y^2 over c y >= 1e12: y = 1e12 / c, where c y - 1e12 carries the rounding of terms
     * of 1e12 (about 1e-4, of either sign), far beyond the absolute tolerance 0 given here */
    for (int c = 3; c < 40; c += 2) {
        double H[] = {1}, g[] = {0}, G[] = {c}, h[] = {-1e12}, y[1];
        cr_expect_eq(lcp_face_qp(1, 1, H, g, G, h, 0, y, NULL), 0, "c = %d", c);
        cr_expect(fabs(y[0] - 1e12 / c) <= 1e-15 * 1e12, "c = %d: y = %.17g", c, y[0]);
    }
}

Test(face_qp, a_vertex_far_out_is_found_from_its_rows_alone)
{
    /* A leaf piece of crash-ae3a... (tests/fuzz/findings/lcp), its numbers rounded:
     * min 1/2 (4e-6 y1^2 + y2^2) over -1e-9 y1 - 0.7 y2 - 2 >= 0, -1e-9 y1 + 0.7 y2 - 2 >= 0,
     * -y1 >= 0. The first two rows sum to -2e-9 y1 - 4 >= 0: y1 <= -2e9, and the objective
     * grows with |y1|, so the minimiser is their vertex y = (-2e9, 0), multipliers
     * 4e-6 * 2e9 / 2e-9 = 4e12 each. The whole KKT matrix, mixing H11 = 4e-6 with those
     * multipliers, lost stationarity; the rows alone have condition 1e9. */
    double H[] = {4e-6, 0, 0, 1}, g[] = {0, 0};
    double G[] = {-1e-9, -1e-9, -1, -0.7, 0.7, 0}, h[] = {-2, -2, 0}, y[2];
    cr_assert_eq(lcp_face_qp(2, 3, H, g, G, h, 1e-10, y, NULL), 0);
    cr_expect(fabs(y[0] + 2e9) <= 1e-12 * 2e9, "y1 = %.17g, want -2e9", y[0]);
    cr_expect(fabs(y[1]) <= 1e-6, "y2 = %.17g, want 0", y[1]);
}
