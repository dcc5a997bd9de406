/* The rational-arithmetic linear programs of lcp/lp_exact.c (GLPK's glp_exact), against optima
 * derived by hand: max a't over { t : rows c < neq: a_c't + b_c = 0, rows c >= neq: a_c't + b_c
 * >= 0 }. GLPK's simplex has no tolerance, but the rationals it takes for the doubles are not
 * exact below 1e-3 or so: a slab 1e-17 thick has its optimum within 1.2e-11 relative (measured:
 * 9.9999999998761e-18). */
#include <criterion/criterion.h>
#include <math.h>

#include "internal.h"

Test(lp_exact, a_simplex_vertex)
{
    /* t1, t2 >= 0, t1 + t2 <= 1: max t1 + 2 t2 is 2, at (0, 1) */
    double rows[] = {1, 0, 0, 1, -1, -1}, b[] = {0, 0, 1}, a[] = {1, 2}, t[2], v = 0;
    cr_assert_eq(lcp_lp_max_exact(2, 0, 3, rows, b, a, t, &v), 0);
    cr_expect_eq(v, 2.0);
    cr_expect_eq(t[0], 0.0);
    cr_expect_eq(t[1], 1.0);
}

Test(lp_exact, an_equality_row)
{
    /* t1 + t2 = 1, t1, t2 >= 0: max t1 - t2 is 1, at (1, 0) */
    double rows[] = {1, 1, 1, 0, 0, 1}, b[] = {-1, 0, 0}, a[] = {1, -1}, t[2], v = 0;
    cr_assert_eq(lcp_lp_max_exact(2, 1, 2, rows, b, a, t, &v), 0);
    cr_expect_eq(v, 1.0);
    cr_expect_eq(t[0], 1.0);
    cr_expect_eq(t[1], 0.0);
}

Test(lp_exact, unbounded_and_empty)
{
    double t[1], v = 0;
    double up[] = {1}, b0[] = {0}, a[] = {1};
    cr_expect_eq(lcp_lp_max_exact(1, 0, 1, up, b0, a, t, &v), 1, "t >= 0: max t is unbounded");
    double rows[] = {1, -1}, b[] = {-1, 0};
    cr_expect_eq(lcp_lp_max_exact(1, 0, 2, rows, b, a, t, &v), 2, "t >= 1 and t <= 0: empty");
}

Test(lp_exact, a_thin_slab_is_decided_within_the_conversion)
{
    /* 0 <= 3 t1 <= 3e-17 beside 1e6 t2 <= 1e6, t2 >= 0: max t1 + 1e-30 t2 is 1e-17 + 1e-30, at
     * (1e-17, 1); the slab's two sides are both active candidates 1e-17 apart */
    double rows[] = {3, 0, -3, 0, 0, -1e6, 0, 1}, b[] = {0, 3e-17, 1e6, 0}, a[] = {1, 1e-30}, t[2], v = 0;
    cr_assert_eq(lcp_lp_max_exact(2, 0, 4, rows, b, a, t, &v), 0);
    cr_expect(fabs(t[0] - 1e-17) <= 1e-10 * 1e-17, "t1 = %.17g", t[0]);
    cr_expect_eq(t[1], 1.0);
    cr_expect(fabs(v - 1e-17) <= 1e-10 * 1e-17, "value %.17g", v);
}

Test(lp_exact, data_of_moderate_size_are_taken_exactly)
{
    /* 0 <= 3 t1 <= 0.1 (the double nearest it): t1 = fl(0.1) / 3 rounds to fl(0.1 / 3) */
    double rows[] = {3, -3}, b[] = {0, 0.1}, a[] = {1}, t[1], v = 0;
    cr_assert_eq(lcp_lp_max_exact(1, 0, 2, rows, b, a, t, &v), 0);
    cr_expect_eq(t[0], 0.1 / 3, "t1 = %.17g", t[0]);
}

Test(lp_exact, non_finite_data_is_not_decided)
{
    double rows[] = {NAN}, b[] = {0}, a[] = {1}, t[1], v = 0;
    cr_expect_eq(lcp_lp_max_exact(1, 0, 1, rows, b, a, t, &v), -1);
}

Test(lp_exact, an_mlcp_pattern_is_decided_on_the_callers_data)
{
    /* w = z - 1 (complementarity): free with w = 0 gives z = 1 >= 0, a solution; z at 0 gives
     * w = -1 < 0, none. A box z in [0, 2] with w = z - 1e-30: at hi, w = 2 > 0 breaks w <= 0;
     * inside, z = 1e-30 (GLPK's rationals take the tiny q within 1e-11 relative). */
    double M[1] = {1}, q[1] = {-1};
    nsdae_mlcp p = {1, M, q, NULL, NULL, NULL};
    int free_side[1] = {0}, at_zero[1] = {-1};
    cr_expect_eq(lcp_pattern_feasible_exact(&p, free_side, NULL), 1);
    cr_expect_eq(lcp_pattern_feasible_exact(&p, at_zero, NULL), 0);
    double qb[1] = {-1e-30}, lo[1] = {0}, hi[1] = {2};
    nsdae_row_kind kind[1] = {NSDAE_ROW_BOX};
    nsdae_mlcp pb = {1, M, qb, kind, lo, hi};
    int at_hi[1] = {1};
    cr_expect_eq(lcp_pattern_feasible_exact(&pb, at_hi, NULL), 0);
    cr_expect_eq(lcp_pattern_feasible_exact(&pb, free_side, NULL), 1);
}
