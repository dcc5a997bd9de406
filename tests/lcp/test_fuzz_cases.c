/* Problems that fuzzing (tests/fuzz/fuzz_lcp.c) found the layer getting wrong, stated by hand with
 * their solutions derived here, case by case, from the complementarity conditions. Each has rows
 * whose terms differ by many orders of magnitude: that is what the fuzzer's value list makes
 * common and what the equilibrated sign tests and the per-row check had to get right. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <nsdae/lcp.h>
#include <nsdae/tolerances.h>

#include "internal.h"   /* lcp_accept_or_polish: the repair of a pivoting solver's answer */

/* Minimal norm with the default spec, asserted to answer */
static nsdae_minnorm_result minnorm_ok(const nsdae_mlcp *p, double *z, double *w)
{
    nsdae_error err = {0};
    nsdae_minnorm_result res;
    nsdae_minnorm_spec spec = {NULL, NULL, 0, NULL, 1};
    cr_assert_eq(nsdae_lcp_minnorm(p, &spec, z, w, &res, &err), NSDAE_OK, "%s", err.message);
    return res;
}

/* Minimal norm answers p with z = 0 (to 1e-12). */
static void expect_answer_zero(const nsdae_mlcp *p)
{
    double z[6], w[6];
    minnorm_ok(p, z, w);
    for (int i = 0; i < p->size; i++)
        cr_expect(fabs(z[i]) <= 1e-12, "z%d = %.17g, want 0", i + 1, z[i]);
}


/* crash-3192...: the LCP (all rows complementarity)
 *   w1 = z1 + 1e9 z4 + 1e-7,  w2 = 1e-7 z3 - 1e-6 z4,  w3 = 1e-7 (z3 + z4) - 1000,  w4 = 1e-7 (z3 + z4) + 1.
 * z3 = z4 = 0 gives w3 = -1000 < 0, so z3 or z4 > 0. z4 > 0 needs w4 = 0, impossible (w4 >= 1 for
 * z >= 0): z4 = 0, z3 > 0, w3 = 0 and z3 = 1e10. Then w1 = z1 + 1e-7 > 0 gives z1 = 0 and
 * w2 = 1000 > 0 gives z2 = 0. One solution, z = (0, 0, 1e10, 0). The enumeration once merged it
 * with a pattern point z1 = -1e-7 (w1 = 0) and dropped it. */
Test(fuzz_cases, large_solution_next_to_a_degenerate_row)
{
    double M[16] = {1, 0, 0, 0, 0, 0, 0, 0, 0, 1e-7, 1e-7, 1e-7, 1e9, -1e-6, 1e-7, 1e-7};
    double q[4] = {1e-7, 0, -1000, 1}, z[4], w[4];
    nsdae_mlcp p = {4, M, q, NULL, NULL, NULL};
    nsdae_error err = {0};
    minnorm_ok(&p, z, w);
    cr_expect(z[0] == 0 && z[1] == 0 && z[3] == 0, "%g %g %g", z[0], z[1], z[3]);
    cr_expect(fabs(z[2] - 1e10) <= 1e-9 * 1e10, "%.17g", z[2]);
    nsdae_lcp_solution_set *set = NULL;
    cr_assert_eq(nsdae_lcp_enumerate(&p, &set, &err), NSDAE_OK, "%s", err.message);
    cr_expect_eq(set->count, 1);
    if (set->count == 1)
        cr_expect(fabs(set->pieces[0].z[2] - 1e10) <= 1e-9 * 1e10 && set->pieces[0].z[0] == 0, "%g %g",
                  set->pieces[0].z[0], set->pieces[0].z[2]);
    nsdae_lcp_solution_set_free(set);
}

/* crash-e3aa...: rows 1 and 4 equalities, rows 2 and 3 complementarity,
 *   w1 = 1e-7 z1 + z2 - 3 z4 - 1 = 0,       w2 = 1e-7 (z1 + z4)          (_|_ z2),
 *   w3 = 1e14 z1 + 3 z3 + 5e-9 z4 (_|_ z3), w4 = 1e-7 z1 + 1e-3 z2 - 1e-6 z3 = 0.
 * The four patterns: z2 = z3 = 0 gives z1 = 0 (row 4), z4 = -1/3 and w2 < 0; z2 = 0, w3 = 0 gives
 * z1 = 10 z3, z4 ~ -1/3 and again w2 = 1e-7 (z1 + z4) < 0; w2 = 0, z3 = 0 gives z1 = -1e4 z2 and
 * z2 = 1 / (1 - 1e-3 - 3e4) < 0. Only w2 = w3 = 0 is left: z4 = -z1, z3 = a z1 with
 * a = -(1e14 - 5e-9) / 3, z2 = (1e-3 a - 1e-4) z1 and row 1 gives z1 = 1 / (1e-7 + 3 + 1e-3 a - 1e-4):
 * z ~ (-3e-11, 1, 1000, 3e-11). The layer once accepted (1/3, 0, 1/30, -1/3), z3 = 1/30 against
 * w3 = 3.3e13: M's 1e14 lifted every row's rounding floor above row 4's terms (lcp/check.c). */
Test(fuzz_cases, one_huge_entry_does_not_make_other_rows_noise)
{
    double M[16] = {1e-7, 1e-7, 1e14, 1e-7, 1, 0, 0, 1e-3, 0, 0, 3, -1e-6, -3, 1e-7, 5e-9, 0};
    double q[4] = {-1, 0, 0, 0}, z[4], w[4];
    nsdae_row_kind kind[4] = {NSDAE_ROW_EQUALITY, NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_COMPLEMENTARITY,
                              NSDAE_ROW_EQUALITY};
    nsdae_mlcp p = {4, M, q, kind, NULL, NULL};
    double a = -(1e14 - 5e-9) / 3, z1 = 1 / (1e-7 + 3 + 1e-3 * a - 1e-4);
    double want[4] = {z1, (1e-3 * a - 1e-4) * z1, a * z1, -z1};
    minnorm_ok(&p, z, w);
    for (int i = 0; i < 4; i++)
        cr_expect(fabs(z[i] - want[i]) <= 1e-6 * fabs(want[i]), "z%d = %.17g, want %.17g", i + 1, z[i], want[i]);
    /* the wrong answer is refused by the per-row check */
    double wrong[4] = {1.0 / 3, 0, 1.0 / 30, -1.0 / 3};
    cr_expect(nsdae_mlcp_row_violation(&p, wrong) > 1e-3, "%g", nsdae_mlcp_row_violation(&p, wrong));
}

/* crash-c2bd...: three box rows z in (-inf, 1] and one equality,
 *   w1 = -1e-6 z1 + 1e-7 z2 + 1e6 (z3 + z4) + 1e-7,  w2 = 1e-7 (z1 + z2) + 1e6 z3 + 1e-7,
 *   w3 = 1e-7 (z1 + z2) + 1e6 z3 + 1e-3,            0 = 10 z1 + 1e-7 z2 + 1e6 z3 + 1e-7.
 * w3 - w2 = 1e-3 - 1e-7 > 0 for every z, and a box (-inf, 1] allows only w <= 0 (w < 0 at z = 1):
 * so w3 <= 0 makes w2 < 0 and z2 = 1 in every solution, |z|^2 >= 1. The answer must have z2 = 1
 * (the fuzz harness once took an enumerated continuum through z2 = 0 for a smaller solution). */
Test(fuzz_cases, two_rows_differing_only_in_q_force_a_bound)
{
    double M[16] = {-1e-6, 1e-7, 1e-7, 10, 1e-7, 1e-7, 1e-7, 1e-7, 1e6, 1e6, 1e6, 1e6, 1e6, 0, 0, 0};
    double q[4] = {1e-7, 1e-7, 1e-3, 1e-7}, lo[4] = {-INFINITY, -INFINITY, -INFINITY, 0}, hi[4] = {1, 1, 1, 0};
    nsdae_row_kind kind[4] = {NSDAE_ROW_BOX, NSDAE_ROW_BOX, NSDAE_ROW_BOX, NSDAE_ROW_EQUALITY};
    nsdae_mlcp p = {4, M, q, kind, lo, hi};
    double z[4], w[4];
    nsdae_error err = {0};
    nsdae_minnorm_result res;
    cr_assert_eq(nsdae_lcp_minnorm(&p, NULL, z, w, &res, &err), NSDAE_OK, "%s", err.message);
    cr_expect(z[1] == 1, "%.17g", z[1]);
    cr_expect(w[1] < 0 && w[2] <= 1e-9 * 1e-3, "%g %g", w[1], w[2]);
}

/* crash-6230...: row 1 an equality, rows 2 and 3 complementarity,
 *   0 = -1e-14 z1 + 3 z2 + 3 z3 + 3,  w2 = 0.01 z1 + 3 z2 + 3 z3 + 3,  w3 = 3 (z1 + z2 + z3) + 3.
 * z2 > 0 needs w2 = 0; minus row 1 that is (0.01 + 1e-14) z1 = 0, so z1 = 0 and 3 (z2 + z3) = -3,
 * impossible for z2, z3 >= 0: z2 = 0. z3 > 0 needs w3 = 0, i.e. 3 z1 = -3 z3 - 3 < 0, while row 1
 * gives z1 = (3 z3 + 3) 1e14 > 0: z3 = 0. So z = (3e14, 0, 0), w2 = 3e12 + 3, w3 = 9e14 + 3: the
 * only solution. The fast path took the pattern z2 = z3 = 0 (triangular, pivot -1e-14 next to 3)
 * for singular in M's equilibrated units and answered "no solution". */
Test(fuzz_cases, tiny_pivot_of_a_triangular_pattern)
{
    double M[9] = {-1e-14, 0.01, 3, 3, 3, 3, 3, 3, 3};
    double q[3] = {3, 3, 3}, z[3], w[3];
    nsdae_row_kind kind[3] = {NSDAE_ROW_EQUALITY, NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_COMPLEMENTARITY};
    nsdae_mlcp p = {3, M, q, kind, NULL, NULL};
    nsdae_minnorm_result res = minnorm_ok(&p, z, w);
    cr_expect(fabs(z[0] - 3e14) <= 1e-9 * 3e14 && z[1] == 0 && z[2] == 0, "%.17g %g %g", z[0], z[1], z[2]);
    cr_expect_eq(res.nsol, 1);
}

/* crash-a815...: rows 1 and 2 complementarity, rows 3 and 4 equalities,
 *   w1 = 1e-7 z1 + 2 z2 + 3 z4,  w2 = 1e14 z1 - 1e-6 z4,
 *   0 = 1e-7 z1 + 1e-3 z3 - 3 z4 - 1,  0 = 1e-7 z1 + 1e-3 z3 + z4.
 * Row 4 minus row 3: 4 z4 + 1 = 0, z4 = -1/4 whatever z1 and z3; then 1e-7 z1 + 1e-3 z3 = 1/4,
 * w2 = 1e14 z1 + 2.5e-7 and w1 = 1e-7 z1 + 2 z2 - 3/4. z2 > 0 needs w2 = 0, z1 = -2.5e-21 < 0:
 * z2 = 0. Then z1 = 0 leaves w1 = -3/4 < 0, so w1 = 0: z1 = 7.5e6, z3 = (1/4 - 3/4) / 1e-3 = -500.
 * The only solution: z = (7.5e6, 0, -500, -1/4). The fast path once selected the unchecked
 * representative (0, 0.375, 250, -0.25) of the line w2 = 0 (z1 ~ -2e-21), which has z2 > 0 next
 * to w2 = 2.5e-7, a violation of size one of row 2's terms, and then answered NUMERICAL. */
Test(fuzz_cases, a_line_representative_is_checked_before_it_competes)
{
    double M[16] = {1e-7, 1e14, 1e-7, 1e-7, 2, 0, 0, 0, 0, 0, 1e-3, 1e-3, 3, -1e-6, -3, 1};
    double q[4] = {0, 0, -1, 0}, z[4], w[4];
    nsdae_row_kind kind[4] = {NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_EQUALITY,
                              NSDAE_ROW_EQUALITY};
    nsdae_mlcp p = {4, M, q, kind, NULL, NULL};
    double want[4] = {7.5e6, 0, -500, -0.25};
    minnorm_ok(&p, z, w);
    for (int i = 0; i < 4; i++)
        cr_expect(fabs(z[i] - want[i]) <= 1e-9 * fabs(want[i]), "z%d = %.17g, want %.17g", i + 1, z[i], want[i]);
}

/* crash-76a5...: three equalities,
 *   1e-7 z1 + 1e6 = 0 (rows 1 and 2 alike),  -0.5 z1 + 1e6 z2 - 1e-6 z3 = 0.
 * z1 = -1e13; then 1e6 z2 - 1e-6 z3 = 0.5 z1 = -5e12, a line in (z2, z3) whose point nearest the
 * origin is -5e12 (1e6, -1e-6) / (1e12 + 1e-12): z = (-1e13, -5e6, 5e-12) to 1e-24 relative. The
 * point is far larger than its data, so check.c re-solves it on its pattern, where the rank cut
 * relative to the largest singular value (1e6) once dropped z1's direction (1.4e-7): NUMERICAL. */
Test(fuzz_cases, far_point_re_solved_in_its_own_units)
{
    double M[9] = {1e-7, 1e-7, -0.5, 0, 0, 1e6, 0, 0, -1e-6};
    double q[3] = {1e6, 1e6, 0}, z[3], w[3];
    nsdae_row_kind kind[3] = {NSDAE_ROW_EQUALITY, NSDAE_ROW_EQUALITY, NSDAE_ROW_EQUALITY};
    nsdae_mlcp p = {3, M, q, kind, NULL, NULL};
    double want[3] = {-1e13, -5e6, 5e-12};
    nsdae_error err = {0};
    nsdae_minnorm_result res;
    cr_assert_eq(nsdae_lcp_minnorm(&p, NULL, z, w, &res, &err), NSDAE_OK, "%s", err.message);
    cr_expect(fabs(z[0] - want[0]) <= 1e-9 * 1e13 && fabs(z[1] - want[1]) <= 1e-9 * 5e6, "%.17g %.17g", z[0], z[1]);
    /* z3 moves row 3 by 1e-6 z3 next to terms 5e12: only its size is asserted */
    cr_expect(fabs(z[2]) <= 1e-3, "%g", z[2]);
}

/* crash-c141...: q = 0, rows 1 and 3 boxes z1 in [-1, 0], z3 in (-inf, 1], row 2 complementarity,
 * rows 4 and 5 equalities, and M zero but for row 3:  w3 = -1e-6 z1 + z2.
 * A box (-inf, 1] allows only w3 <= 0, while z1 <= 0 and z2 >= 0 make both terms of w3 >= 0: so
 * z1 = 0 (at its upper end, pinned there by another row) and z2 = 0; z3 <= 1, z4 and z5 are
 * free. The solution set is a continuum whose point of minimal norm is z = 0. In the equilibrated
 * units z1's column (only -1e-6) is scaled by 2^19, so the objective's Hessian holds 2^-38 next
 * to constraint entries 1; Lemke's pivot threshold refused every genuine pivot of the root QP and
 * ended in a ray, read as "no solution (1 nodes explored)". */
Test(fuzz_cases, box_end_pinned_by_another_row_with_a_badly_scaled_objective)
{
    double M[25] = {0};
    M[2 + 0 * 5] = -1e-6;
    M[2 + 1 * 5] = 1;
    double q[5] = {0}, lo[5] = {-1, 0, -INFINITY, 0, 0}, hi[5] = {0, 0, 1, 0, 0}, z[5], w[5];
    nsdae_row_kind kind[5] = {NSDAE_ROW_BOX, NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_BOX, NSDAE_ROW_EQUALITY,
                              NSDAE_ROW_EQUALITY};
    nsdae_mlcp p = {5, M, q, kind, lo, hi};
    nsdae_minnorm_result res = minnorm_ok(&p, z, w);
    for (int i = 0; i < 5; i++)
        cr_expect(fabs(z[i]) <= 1e-12, "z%d = %g", i + 1, z[i]);
    cr_expect_eq(res.nsol, -1);   /* a continuum */
}

/* crash-4de6...: row 1 complementarity, row 2 a box z2 in [0, 1],
 *   w1 = 1e-7,  w2 = -1e3 z2 - 1e11.
 * w1 > 0 gives z1 = 0; w2 <= -1e11 < 0 on the whole box, so z2 = hi = 1: z = (0, 1), the only
 * solution. Equilibrated, the box is 3.7e-9 wide next to data of size one, so the pattern
 * "z2 at lo and at hi" agreed to the residual tolerance and passed as a continuum whose
 * representative z2 = 0.5 (midway) won on norm; the branch and bound now checks a continuum's
 * representative on the caller's rows as it does a point. */
Test(fuzz_cases, a_narrow_box_is_not_a_continuum)
{
    double M[4] = {0, 0, 0, -1e3};
    double q[2] = {1e-7, -1e11}, lo[2] = {0, 0}, hi[2] = {0, 1}, z[2], w[2];
    nsdae_row_kind kind[2] = {NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_BOX};
    nsdae_mlcp p = {2, M, q, kind, lo, hi};
    minnorm_ok(&p, z, w);
    cr_expect(z[0] == 0 && fabs(z[1] - 1) <= 1e-12, "%.17g %.17g", z[0], z[1]);
    cr_expect(w[1] < 0, "%g", w[1]);
}

/* crash-a26e...: one box row, z in [0, 1], w = 2 z - 1e-14. At lo (z = 0) w = -1e-14 < 0 and at
 * hi w = 2 - 1e-14 > 0 break the box's sign laws, so w = 0: z = 5e-15, the only solution. The
 * pattern "z at lo" passes the sign tests in equilibrated units (w = -1e-14, within the absolute
 * sign tolerance) and gives z = 0, within NSDAE_TOL_SAME_SOLUTION of 5e-15 and of smaller norm:
 * the merge kept it, it failed its row, was re-solved at lo again and the enumeration listed
 * nothing (lcp/enumerate.c now checks each point before points are merged). */
Test(fuzz_cases, merged_points_keep_the_one_that_solves)
{
    double M[1] = {2}, q[1] = {-1e-14}, lo[1] = {0}, hi[1] = {1};
    nsdae_row_kind kind[1] = {NSDAE_ROW_BOX};
    nsdae_mlcp p = {1, M, q, kind, lo, hi};
    nsdae_error err = {0};
    nsdae_lcp_solution_set *set = NULL;
    cr_assert_eq(nsdae_lcp_enumerate(&p, &set, &err), NSDAE_OK, "%s", err.message);
    cr_expect_eq(set->count, 1);
    if (set->count == 1)
        cr_expect(fabs(set->pieces[0].z[0] - 5e-15) <= 1e-9 * 5e-15, "%.17g", set->pieces[0].z[0]);
    nsdae_lcp_solution_set_free(set);
}

/* crash-1091...: row 1 complementarity, row 2 a box [-1, 0], rows 3 and 4 boxes (-inf, 1],
 *   w1 = 0.5 z1 + 1e-7 (z3 + z4) - 1,   w2 = 0.5 (z1 - z2) + 1e-7 z4 - 2,
 *   w3 = 1e-7 (z1 + z2) + 1e14 z4 + 1e-7,  w4 = 0.5 (z2 - z3) + z4.
 * A solution with z2 = 0 at its upper end, z3, z4 inside (w3 = w4 = 0) and z1 > 0 (w1 = 0):
 * z3 = 2 z4 (row 4), z4 = -1e-21 (1 + z1) (row 3), z1 = 2 - 2e-7 (z3 + z4) = 2 + 1.8e-27
 * (row 1), so z4 = -3e-21, z3 = -6e-21; w2 = 1 - 2 + O(1e-28) = -1 <= 0 as z2 = hi wants. The
 * enumeration found the pattern with z3 = z4 = 0 in equilibrated units (w3 = 3e-7, a violation
 * of size one of row 3's terms) and its re-solve in the caller's units cut the system
 * [0.5 1e-7 1e-7; 1e-7 0 1e14; 0 -0.5 1] to rank 1 (relative to 1e14) and kept z4 = 0: the
 * point was dropped. Re-solved in the system's own units (polish.c), it is the solution; z3
 * within the rounding of the point's unit (z2 and z3 enter row 4 with 0.5 next to z1's 0.5 z1 = 1:
 * 1e-13 absolute), z4 to 1e-9 of itself (z4 = 0 leaves w3 = 3e-7, all of row 3's terms). */
Test(fuzz_cases, enumerated_point_re_solved_in_its_own_units)
{
    double M[16] = {0.5, 0.5, 1e-7, 0, 0, -0.5, 1e-7, 0.5, 1e-7, 0, 0, -0.5, 1e-7, 1e-7, 1e14, 1};
    double q[4] = {-1, -2, 1e-7, 0}, lo[4] = {0, -1, -INFINITY, -INFINITY}, hi[4] = {0, 0, 1, 1};
    nsdae_row_kind kind[4] = {NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_BOX, NSDAE_ROW_BOX, NSDAE_ROW_BOX};
    nsdae_mlcp p = {4, M, q, kind, lo, hi};
    double want[4] = {2, 0, -6e-21, -3e-21};
    nsdae_error err = {0};
    nsdae_lcp_solution_set *set = NULL;
    cr_assert_eq(nsdae_lcp_enumerate(&p, &set, &err), NSDAE_OK, "%s", err.message);
    int found = 0;
    for (int k = 0; k < set->count; k++) {
        const double *z = set->pieces[k].z;
        found |= fabs(z[0] - 2) <= 1e-12 && z[1] == 0 && fabs(z[2] - want[2]) <= 1e-13 &&
                 fabs(z[3] - want[3]) <= 1e-9 * 3e-21;
        if (set->pieces[k].is_point)
            cr_expect(nsdae_mlcp_row_violation(&p, z) <= 1e-9, "piece %d: %g", k, nsdae_mlcp_row_violation(&p, z));
    }
    cr_expect(found, "the solution (2, 0, -6e-21, -3e-21) is not listed (%d pieces)", set->count);
    nsdae_lcp_solution_set_free(set);
}

/* crash-ce27...: row 1 an equality, rows 2 and 3 boxes [-1, 0],
 *   0 = -z1 + z3 - 1,   w2 = -z1 - 0.5 z2 - z3 + 1,   w3 = 1e6 z3 + 1e-7.
 * z3 at lo gives w3 = -1e6 + 1e-7 < 0, at hi w3 = 1e-7 > 0: both break the box's sign laws, so
 * w3 = 0, z3 = -1e-13, 1e-13 inside its upper end. Row 1: z1 = z3 - 1 = -1 - 1e-13. Then
 * w2 = 2 - 0.5 z2 >= 2 > 0 on [-1, 0]: z2 = lo = -1. The only solution. The enumeration computes
 * z3 = lo + x as -1.0003e-13 (x carries the rounding of 1), whose w3 = -3e-11 is farther from 0
 * than z3 from hi: re-solved on the pattern it is nearest to, z3 went to hi and the point was
 * dropped. Re-solved on the pattern it came from (w3 = 0), it is the solution. */
Test(fuzz_cases, point_re_solved_on_the_pattern_it_came_from)
{
    double M[9] = {-1, -1, 0, 0, -0.5, 0, 1, -1, 1e6};
    double q[3] = {-1, 1, 1e-7}, lo[3] = {0, -1, -1}, hi[3] = {0, 0, 0};
    nsdae_row_kind kind[3] = {NSDAE_ROW_EQUALITY, NSDAE_ROW_BOX, NSDAE_ROW_BOX};
    nsdae_mlcp p = {3, M, q, kind, lo, hi};
    nsdae_error err = {0};
    nsdae_lcp_solution_set *set = NULL;
    cr_assert_eq(nsdae_lcp_enumerate(&p, &set, &err), NSDAE_OK, "%s", err.message);
    cr_expect_eq(set->count, 1);
    if (set->count == 1) {
        const double *z = set->pieces[0].z;
        cr_expect(fabs(z[2] + 1e-13) <= 1e-9 * 1e-13 && z[1] == -1 && fabs(z[0] + 1 + 1e-13) <= 4e-16,
                  "%.17g %.17g %.17g", z[0], z[1], z[2]);
    }
    nsdae_lcp_solution_set_free(set);
}

/* crash-732c...: row 1 a box [-1, 0], row 2 an equality,
 *   w1 = -1e-14 z1 + z2 - 3,   0 = 3 z2 - 1.
 * z2 = 1/3, so w1 = -1e-14 z1 - 8/3 < 0 on the whole box: z1 = hi = 0, the only solution. The point
 * (-1, 1/3) has z1 at lo with w1 = -8/3 < 0, a violation of most of row 1's terms (3 + 1/3); the
 * per-row check once measured z1's distance to hi in the unit "row 1's terms over z1's entry"
 * (3.3e14), called z1 = -1 at hi as well as at lo, and accepted it. */
Test(fuzz_cases, a_box_is_measured_in_its_width)
{
    double M[4] = {-1e-14, 0, 1, 3}, q[2] = {-3, -1}, lo[2] = {-1, 0}, hi[2] = {0, 0}, z[2], w[2];
    nsdae_row_kind kind[2] = {NSDAE_ROW_BOX, NSDAE_ROW_EQUALITY};
    nsdae_mlcp p = {2, M, q, kind, lo, hi};
    double wrong[2] = {-1, 1.0 / 3};
    cr_expect(nsdae_mlcp_row_violation(&p, wrong) > 0.5, "%g", nsdae_mlcp_row_violation(&p, wrong));
    nsdae_error err = {0};
    nsdae_minnorm_result res;
    cr_assert_eq(nsdae_lcp_minnorm(&p, NULL, z, w, &res, &err), NSDAE_OK, "%s", err.message);
    cr_expect(z[0] == 0 && fabs(z[1] - 1.0 / 3) <= 1e-15, "%.17g %.17g", z[0], z[1]);
}

/* MLCPs without solution whose enumeration lists a point (or a continuum's representative) that
 * passes every row on its own: the point's terms cancel, each row is within its tolerance, but no
 * single change of the point meets the rows at once (the harness's near_solution). Rows are
 * written here row by row (E equality, C complementarity, B box); why each has no solution:
 *  - crash-0246...: rows 1 and 3 are 3 z2 + 3 z3 + 1e-7 z4 with q = 3 and 0, so w3 = w1 - 3 = -3
 *    for every solution of row 1, and z3 in [-1, inf) would have to sit at hi = inf.
 *  - crash-13c5...: rows 2 to 4 are 5e7 (z1 + z2 + z3) + c z4 + q with (c, q) = (3, -1e-14),
 *    (-1e-6, 0), (-3, 0): rows 3 - 4 give z4 = 0, then rows 2 - 4 give 1e-14 = 0.
 *  - crash-499e...: row 1 (C) is w1 = 1e-7 (z1 + z2 + z3) + 1e-7 = 1e-7 by row 4, so z1 = 0; row 4
 *    then gives z2 + z3 = 0 and row 2 1e14 = 0.
 *  - crash-f5f0...: rows 3 and 4 say 2 (z1 + z2 + z3) = 0, so w2 = -2 < 0 on a complementarity row.
 *  - crash-4007... (q = 0): w5 = 3e-8 z1 - z3 >= 0 with z3 >= 0 and z1 in [-1, 0] gives z3 = 0,
 *    z1 = 0; then w4 = -3e-8 z2 < 0 for z2 in [0.5, 1.5].
 *  - crash-a807...: row 4 gives z3 = (z1 + z2) / 10, row 3 then z4 = -(0.3 + 1e-7) (z1 + z2) / 5e-9,
 *    so w2 = 1e-7 (z1 + z2 + z4) < 0 unless z1 = z2 = 0, where w1 = -1 < 0.
 *  - crash-3666... and crash-7632...: tests/fuzz/open/README.md (branch fuzzmst).
 *  - crash-54e9...: rows 1 to 3 (C) w1 = -2 z1 + 0.5 (z2 + z4) + 1e14 z3 + 2,
 *    w2 = 1e-7 (z1 + z4) - 3 z2 + 10 z3 - 2, w3 = 1e-7 (z1 + z2 + z3) - 2 z4 - 2, row 4 (E)
 *    0 = 3 z1 + 1e-7 z2 - 2 z4 - 2. Row 4 makes w3 = 1e-7 z3 - (3 - 1e-7) z1. z3 > 0 needs w3 = 0,
 *    z1 ~ 3.3e-8 z3 > 0, and then w1 = 0 needs 1.25 z1 ~ 1e14 z3: no. So z3 = 0, w3 >= 0 gives
 *    z1 = 0, z4 = 5e-8 z2 - 1 and w2 = -(3 - 5e-15) z2 - 2 - 1e-7 < 0. A least-squares polish of
 *    the overdetermined pattern z1 = z2 = 0 (row 2 a corner) once gave (0, 0, 0.2, -1).
 * Solved with solution counting, as the fuzz target does: without it crash-7632... is answered
 * with z3 = -1 - 5.4e-13, below its lower end by less than lcp/check.c's rounding floor (the floor
 * class of the open README, not fixed here). */
typedef struct no_solution_case {
    const char *name;
    int n;
    const char *kinds;       /* per row: E, C or B */
    double rows[5][5], q[5], lo[5], hi[5];
    int spread_above;        /* the data's spread (lcp.h) exceeds 2^26: NUMERICAL is allowed */
} no_solution_case;

static const no_solution_case no_solution_cases[] = {
    {"crash-0246", 4, "EEBE",
     {{0, 3, 3, 1e-7}, {0, 3, 3, 1e-7}, {0, 3, 3, 1e-7}, {3, 3, -1e-14, 3}},
     {3, 3, 0, 0}, {0, 0, -1, 0}, {0, 0, INFINITY, 0}, 1},
    {"crash-13c5", 4, "CEEE",
     {{5e7, 5e7, 5e7, 5e7}, {5e7, 5e7, 5e7, 3}, {5e7, 5e7, 5e7, -1e-6}, {5e7, 5e7, 5e7, -3}},
     {2, -1e-14, 0, 0}, {0}, {0}, 0},
    {"crash-499e", 4, "CECE",
     {{1e-7, 1e-7, 1e-7, 0}, {0, 1e-7, 1e-7, 0}, {0, 1e14, 1e-7, 1e-7}, {1e-7, 1e-7, 1e-7, 0}},
     {1e-7, 1e14, 0, 0}, {0}, {0}, 1},
    {"crash-f5f0", 4, "ECEE",
     {{2, 2, 2, 2}, {2, 2, 2, 0}, {2, 2, 2, 0}, {2, 2, 2, 0}},
     {0, -2, 0, 0}, {0}, {0}, 0},
    {"crash-4007", 5, "BBCCC",
     {{-1e-6, 10, 0, -1e-5, 0}, {-1e-6, 0, 1, 1, 0}, {10, 0, -1e-14, 0, 0}, {3, -3e-8, 1e-7, 0, 0},
      {3e-8, 0, -1, 0, 0}},
     {0}, {-1, 0.5}, {0, 1.5}, 1},
    {"crash-a807", 4, "CCEE",
     {{1e-7, 5e-9, -3, 0.5}, {1e-7, 1e-7, 0, 1e-7}, {1e-7, 1e-7, 3, 5e-9}, {1e-7, 1e-7, -1e-6, 0}},
     {-1, 0, 0, 0}, {0}, {0}, 0},
    {"crash-3666", 4, "BECC",
     {{-1, 1e-3, 2, 1}, {0, 1e-7, 1, 1}, {-1, 0, 1, 1}, {1e-7, 2, 1, 1}},
     {1, 0, 0, 0}, {-1}, {0}, 0},
    {"crash-54e9", 4, "CCCE",
     {{-2, 0.5, 1e14, 0.5}, {1e-7, -3, 10, 1e-7}, {1e-7, 1e-7, 1e-7, -2}, {3, 1e-7, 0, -2}},
     {2, -2, -2, -2}, {0}, {0}, 1},
    {"crash-7632", 4, "EEBE",
     {{1e-7, 10, 1e-7, 3}, {1e-7, 0, 1e6, -1e-6}, {2, 1e-7, 1e-7, -0.5}, {0, 1e-7, 1e-7, 2}},
     {0, 1e6, -1, 1}, {0, 0, -1, 0}, {0, 0, INFINITY, 0}, 1},
};

/* M (column-major) and the row kinds of a case written row by row, kinds as E, C or B */
static void rows_to_problem(int n, const char *kinds, const double rows[5][5], double *M, nsdae_row_kind *kind)
{
    for (int i = 0; i < n; i++) {
        kind[i] = kinds[i] == 'E' ? NSDAE_ROW_EQUALITY : kinds[i] == 'B' ? NSDAE_ROW_BOX : NSDAE_ROW_COMPLEMENTARITY;
        for (int j = 0; j < n; j++) M[i + j * n] = rows[i][j];
    }
}

/* A case written row by row as an MLCP (its arrays held here), and minimal norm (counting) on it. */
typedef struct row_case {
    double M[25];
    nsdae_row_kind kind[5];
    nsdae_mlcp p;
} row_case;

static nsdae_status minnorm_of_rows(row_case *rc, int n, const char *kinds, const double rows[5][5], const double *q,
                                    const double *lo, const double *hi, double *z, nsdae_error *err)
{
    double w[5];
    rows_to_problem(n, kinds, rows, rc->M, rc->kind);
    rc->p = (nsdae_mlcp){n, rc->M, q, rc->kind, lo, hi};
    nsdae_minnorm_result res;
    nsdae_minnorm_spec spec = {NULL, NULL, 0, NULL, 1};
    return nsdae_lcp_minnorm(&rc->p, &spec, z, w, &res, err);
}

Test(fuzz_cases, rows_that_each_pass_but_have_no_common_solution)
{
    for (size_t c = 0; c < sizeof no_solution_cases / sizeof no_solution_cases[0]; c++) {
        const no_solution_case *k = &no_solution_cases[c];
        double z[5];
        row_case rc;
        nsdae_error err = {0};
        nsdae_status st = minnorm_of_rows(&rc, k->n, k->kinds, k->rows, k->q, k->lo, k->hi, z, &err);
        cr_expect(st == NSDAE_NO_SOLUTION || (k->spread_above && st == NSDAE_NUMERICAL), "%s: status %d (%s)",
                  k->name, st, err.message);
    }
}

/* The spread (lcp/spread.c; the bound of lcp.h's contract) is the smallest dynamic range of
 * [M | q] over all row and column scalings. By hand: a diagonal problem whose rows are each one
 * scale (1e-10, 1e10) has spread 1 (each row divided by its scale); the full 2 x 2 block
 * [1 e; 1 1] (q = 0) keeps the invariant a11 a22 / (a12 a21) = 1/e under every scaling, so its
 * range is at least sqrt(1/e), which the scaling to e^(-1/4), e^(1/4) on the diagonals and
 * off-diagonals attains: e = 2^-50 spreads 2^25, e = 2^-54 2^27. */
Test(fuzz_cases, the_spread_is_the_range_in_the_best_units)
{
    double Md[4] = {1e-10, 0, 0, 1e10}, qd[2] = {1e-10, 1e10};
    nsdae_mlcp d = {2, Md, qd, NULL, NULL, NULL};
    cr_expect(!lcp_spread_exceeds(&d, 0.01));
    double Mb[4] = {1, 1, ldexp(1, -50), 1}, qb[2] = {0, 0};   /* column-major */
    nsdae_mlcp b = {2, Mb, qb, NULL, NULL, NULL};
    cr_expect(lcp_spread_exceeds(&b, 24.9));
    cr_expect(!lcp_spread_exceeds(&b, 25.1));
    Mb[2] = ldexp(1, -54);
    cr_expect(lcp_spread_exceeds(&b, 26.9));
    cr_expect(!lcp_spread_exceeds(&b, 27.1));
}

/* MLCPs whose (minimal-norm) solution sits exactly at a corner of one row: z_i at its end and
 * w_i = 0. Minimal norm found it and the check refused it, re-solving the point on its pattern
 * (check.c: a point far larger than its data) with that z_i free (lcp_active_side's tie), so the
 * pattern's minimal-norm point left the box. Each solution derived by hand (rows written row by
 * row as above):
 *  - crash-f729...: row 1 1e-7 z1 = z2; rows 2, 3 zero on boxes [0.5, 1.5] and [-0.5, 1.5] (any
 *    z2, z3 inside); w4 = 3 z1 > 0 gives z4 = 0. Smallest: z2 = 0.5, z1 = 5e6, z3 = 0.
 *  - crash-46fa...: w1 = -2e-8 z4 gives z4 = 0; w3 = 0.5 z2 - z3 >= 0 with z2 in [-1, 0], z3 >= 0
 *    gives z3 = 0, z2 = 0 = hi, where w2 = -1e-6 z1 + 3 <= 0 needs z1 >= 3e6 (w1 = 0: z1 free).
 *  - crash-ea91...: w2 = 1e-7 z2 gives z2 = 0; rows 3, 4 give z4 = -1e6, z3 = 1e6; w1 =
 *    1e-7 z1 - 1e9 >= 0 gives z1 > 0 and so w1 = 0, z1 = 1e16. Unique.
 *  - crash-e93f...: z3 > 0 would need w3 = 0, z1 ~ -3e-6, against row 4 (z1 ~ 6); with z3 = 0
 *    rows 1 and 4 give z4 = -3e7 z1 - 1, z1 = (3 - 1e-7 + 1e-7 z2) / 3.5, with z2 >= -1 (w2 = w1
 *    = 0) and w3 ~ 857142 - 1.97 z2 >= 0; |z|^2 ~ z4^2 grows with z2: z2 = -1.
 *  - crash-2753...: row 3 gives z1 = 1e7; w1 = 0 gives z2 = 10 z4; w4 = 3 z3 - 1e7 >= 0; z4 > 0
 *    would need w4 = 0 and w2 = 1 + 1e-3 z3 + z4 = 0 with z3 = 1e7 / 3: so z2 = z4 = 0 and
 *    z3 >= 1e7 / 3, smallest at 1e7 / 3. */
typedef struct corner_case {
    const char *name;
    const char *kinds;
    double rows[4][4], q[4], lo[4], hi[4], want[4];
} corner_case;

static const corner_case corner_cases[] = {
    {"crash-f729", "EBBC", {{1e-7, -1, 0, 0}, {0}, {0}, {3, 0, 0, 0}}, {0}, {0, 0.5, -0.5, 0},
     {0, 1.5, 1.5, 0}, {5e6, 0.5, 0, 0}},
    {"crash-46fa", "CBCC", {{0, 0, 0, -2e-8}, {-1e-6, 1e-3, 1e-7, 0}, {0, 0.5, -1, -1e-6}, {3, 0, 0, -1e-6}},
     {0, 3, 0, 1}, {0, -1, 0, 0}, {0, 0, 0, 0}, {3e6, 0, 0, 0}},
    {"crash-ea91", "CCEE", {{1e-7, 10, -1000, 0}, {0, 1e-7, 0, 0}, {0, -1000, 0, -1e-6}, {0, -0.5, 1, 1}},
     {0, 0, -1, 0}, {0}, {0}, {1e16, 0, 1e6, -1e6}},
    {"crash-e93f", "EBCE", {{3, 0, 1e-7, 1e-7}, {3, 0, 1e-7, 1e-7}, {1e6, -2, 1e-7, 2e-8}, {-0.5, 1e-7, 1e-7, 1e-7}},
     {1e-7, 1e-7, 3, 3}, {0, -1, 0, 0}, {0, INFINITY, 0, 0},
     {(3 - 2e-7) / 3.5, -1, 0, -3e7 * (3 - 2e-7) / 3.5 - 1}},
    {"crash-2753", "CCEC", {{1e-7, 1e-7, 0, -1e-6}, {1e-7, 0, 1e-3, 1}, {1e-7, 0, 0, 0}, {-1, 0, 3, 0}},
     {-1, 0, -1, 0}, {0}, {0}, {1e7, 0, 1e7 / 3, 0}},
};

Test(fuzz_cases, a_solution_at_a_corner_is_re_solved_at_that_corner)
{
    for (size_t c = 0; c < sizeof corner_cases / sizeof corner_cases[0]; c++) {
        const corner_case *k = &corner_cases[c];
        double M[16], z[4], w[4], scale = 0;
        nsdae_row_kind kind[4];
        for (int i = 0; i < 4; i++) {
            kind[i] = k->kinds[i] == 'E' ? NSDAE_ROW_EQUALITY : k->kinds[i] == 'B' ? NSDAE_ROW_BOX
                                                                                    : NSDAE_ROW_COMPLEMENTARITY;
            for (int j = 0; j < 4; j++) M[i + j * 4] = k->rows[i][j];
            scale = fmax(scale, fabs(k->want[i]));
        }
        nsdae_mlcp p = {4, M, k->q, kind, k->lo, k->hi};
        nsdae_error err = {0};
        nsdae_minnorm_result res;
        nsdae_minnorm_spec spec = {NULL, NULL, 0, NULL, 1};
        nsdae_status st = nsdae_lcp_minnorm(&p, &spec, z, w, &res, &err);
        cr_expect_eq(st, NSDAE_OK, "%s: status %d (%s)", k->name, st, err.message);
        if (st != NSDAE_OK)
            continue;
        for (int j = 0; j < 4; j++)
            cr_expect(fabs(z[j] - k->want[j]) <= 1e-9 * fabs(k->want[j]) + 1e-12 * scale, "%s: z%d = %.17g, want %.17g",
                      k->name, j + 1, z[j], k->want[j]);
    }
}

/* crash-4a99... (reduced to the three rows that matter): row 1 a box [-1, inf), row 2 an equality,
 * row 3 a box [-1, 0] whose variable enters no row,
 *   w1 = 2 z1 + 0.5 z2,   0 = 2 z1 + 1e-8 z2,   w3 = 1e-7 z1 + 1e-8 z2.
 * z1 inside its box: w1 = 0 minus row 2 gives (0.5 - 1e-8) z2 = 0, so z2 = z1 = 0, w3 = 0 and z3
 * is anywhere in [-1, 0]: the segment (0, 0, z3). z1 = lo = -1: z2 = 2e8, w1 = 1e8 - 2 > 0 (right
 * at lo), w3 = 2 - 1e-7 > 0, so z3 = lo: the point (-1, 2e8, -1). The minimal norm is 0, at z = 0.
 * The layer answered (0, 0, -1): its objective 1/2 t'Ht + g't + c0 in the reduced variables
 * (z1 = -1 + t1, z2 = 2e8 - 2e8 t1) carried c0 = 2e16 and valued z3 = -1 (1/2) as 0 like z = 0.
 * z2 = -2e8 z1 carries z1's rounding of its box end (an ulp of 1) times 2e8. */
Test(fuzz_cases, objective_not_lost_under_a_large_offset)
{
    double M[9] = {2, 2, 1e-7, 0.5, 1e-8, 1e-8, 0, 0, 0};
    double q[3] = {0, 0, 0}, lo[3] = {-1, 0, -1}, hi[3] = {INFINITY, 0, 0}, z[3], w[3];
    nsdae_row_kind kind[3] = {NSDAE_ROW_BOX, NSDAE_ROW_EQUALITY, NSDAE_ROW_BOX};
    nsdae_mlcp p = {3, M, q, kind, lo, hi};
    nsdae_minnorm_result res = minnorm_ok(&p, z, w);
    cr_expect(fabs(z[0]) <= 4 * DBL_EPSILON && fabs(z[1]) <= 2e8 * 4 * DBL_EPSILON && fabs(z[2]) <= 4 * DBL_EPSILON,
              "%.17g %.17g %.17g", z[0], z[1], z[2]);
    cr_expect_eq(res.nsol, -1);   /* the segment and the point */
}

/* crash-a4a2...: row 1 an equality, rows 2 and 3 boxes (-inf, 1],
 *   0 = -1e-14 (z1 + z2) + 3 z3 + 3,   w2 = -1e-14 z2 + 3 z3 + 3,   w3 = -1e-14 z1 + 3 (z2 + z3) + 3.
 * Row 1 gives 3 z3 + 3 = 1e-14 (z1 + z2), so w2 = 1e-14 z1 and w3 = (3 + 1e-14) z2. z2 = hi = 1
 * would need w2 <= 0 (z1 <= 0) and then z3 = -1 + 1e-14 (z1 + 1) / 3 < 1 is inside its box with
 * w3 = 3 + 1e-14 != 0: no. So z2 < 1, w2 = 0, z1 = 0; z3 < 1 again, w3 = 0, z2 = 0, z3 = -1.
 * The only solution is (0, 0, -1). The layer answered z1 = -0.125: in the reduced variables
 * (z3 = 1 - t3 from its upper end, z1 = 6e14 - 3e14 t3 - z2 from row 1) the objective's constant
 * is of order 1e29, whose rounding hides any norm below 1e13. */
Test(fuzz_cases, tiny_entries_do_not_hide_the_only_solution)
{
    double M[9] = {-1e-14, 0, -1e-14, -1e-14, -1e-14, 3, 3, 3, 3};
    double q[3] = {3, 3, 3}, lo[3] = {0, -INFINITY, -INFINITY}, hi[3] = {0, 1, 1}, z[3], w[3];
    nsdae_row_kind kind[3] = {NSDAE_ROW_EQUALITY, NSDAE_ROW_BOX, NSDAE_ROW_BOX};
    nsdae_mlcp p = {3, M, q, kind, lo, hi};
    minnorm_ok(&p, z, w);
    cr_expect(fabs(z[0]) <= 1e-12 && fabs(z[1]) <= 1e-12 && fabs(z[2] + 1) <= 1e-12, "%.17g %.17g %.17g", z[0],
              z[1], z[2]);
}

/* The problem of objective_not_lost_under_a_large_offset with z3 in [-1, 1]: the same derivation
 * gives the segment (0, 0, z3), z3 in [-1, 1], and the point (-1, 2e8, -1). The segment's
 * minimal-norm point z = 0 is inside it, so only its line can give it (its ends are the patterns
 * z3 = lo and z3 = hi). Its curvature along the line, 1, was compared with the 4e16 that
 * z2 = -2e8 z1 puts in the objective's Hessian and read as level: the line stayed at its first
 * point, z3 = -1 for minimal norm, z3 = 1 for the enumeration. */
Test(fuzz_cases, a_segment_is_represented_by_its_minimal_norm_point)
{
    double M[9] = {2, 2, 1e-7, 0.5, 1e-8, 1e-8, 0, 0, 0};
    double q[3] = {0, 0, 0}, lo[3] = {-1, 0, -1}, hi[3] = {INFINITY, 0, 1}, z[3], w[3];
    nsdae_row_kind kind[3] = {NSDAE_ROW_BOX, NSDAE_ROW_EQUALITY, NSDAE_ROW_BOX};
    nsdae_mlcp p = {3, M, q, kind, lo, hi};
    nsdae_error err = {0};
    minnorm_ok(&p, z, w);
    cr_expect(fabs(z[0]) <= 4 * DBL_EPSILON && fabs(z[1]) <= 2e8 * 4 * DBL_EPSILON && fabs(z[2]) <= 4 * DBL_EPSILON,
              "%.17g %.17g %.17g", z[0], z[1], z[2]);
    nsdae_lcp_solution_set *set = NULL;
    cr_assert_eq(nsdae_lcp_enumerate(&p, &set, &err), NSDAE_OK, "%s", err.message);
    int segment = 0, point = 0;
    for (int k = 0; k < set->count; k++) {
        const double *y = set->pieces[k].z;
        segment += !set->pieces[k].is_point && fabs(y[0]) <= 4 * DBL_EPSILON &&
                   fabs(y[1]) <= 2e8 * 4 * DBL_EPSILON && fabs(y[2]) <= 4 * DBL_EPSILON;
        point += set->pieces[k].is_point && y[0] == -1 && fabs(y[1] - 2e8) <= 1e-15 * 2e8 && y[2] == -1;
    }
    cr_expect(set->count == 2 && segment == 1 && point == 1, "%d pieces, segment through 0: %d, point: %d",
              set->count, segment, point);
    nsdae_lcp_solution_set_free(set);
}

/* The enumerated points of p: each must pass the layer's per-row check and lie within 1e-6 of
 * one of the k solutions, relative to that solution's largest component (a component far
 * smaller than the point's largest is known only to the point's rounding). */
static void expect_only_solutions(const nsdae_mlcp *p, const double *sol, int k)
{
    nsdae_error err = {0};
    nsdae_lcp_solution_set *set = NULL;
    cr_assert_eq(nsdae_lcp_enumerate(p, &set, &err), NSDAE_OK, "%s", err.message);
    cr_expect_gt(set->count, 0);
    for (int c = 0; c < set->count; c++) {
        const double *z = set->pieces[c].z;
        int near = 0;
        for (int s = 0; s < k && !near; s++) {
            const double *x = sol + (size_t)s * p->size;
            double big = 0;
            for (int i = 0; i < p->size; i++)
                big = fmax(big, fabs(x[i]));
            near = 1;
            for (int i = 0; i < p->size; i++)
                near &= fabs(z[i] - x[i]) <= 1e-6 * big;
        }
        cr_expect(near && nsdae_mlcp_row_violation(p, z) <= NSDAE_TOL_RESIDUAL,
                  "piece %d (%.17g, %.17g, %.17g, %.17g) is no solution", c, z[0], z[1], z[2], z[3]);
    }
    nsdae_lcp_solution_set_free(set);
}

/* p (4 x 4) has no solution: minimal norm, with solution counting as the fuzz target calls it,
 * must not answer one. */
static void expect_no_answer(const nsdae_mlcp *p)
{
    double z[4], w[4];
    nsdae_error err = {0};
    nsdae_minnorm_result res;
    nsdae_minnorm_spec spec = {NULL, NULL, 0, NULL, 1};
    nsdae_status st = nsdae_lcp_minnorm(p, &spec, z, w, &res, &err);
    cr_expect_neq(st, NSDAE_OK, "answered (%.17g, %.17g, %.17g, %.17g) for an MLCP without solution", z[0], z[1],
                  z[2], z[3]);
}

/* crash-4dc4...: row 1 complementarity, row 2 box [-1, 0], rows 3 and 4 boxes (-inf, 1],
 *   w1 = 0.5 (z1 + z2) + 1e14 z3 - 1e-6 z4 - 1,  w2 = -z2 + 1e-7 z3 - 2,
 *   w3 = 0.5 (z1 + z2) + 1e-7 z3 + 1e-7,       w4 = 0.5 z1 + 1e-7 z2 + 3 z3 - 3 z4.
 * w2 <= -1 on the box forces z2 = 0 (hi). If z1 > 0, w1 = 0 and w3 = 0 give z1 = -2e-7 (z3 + 1)
 * with 1e14 z3 ~ 1, so z1 < 0: no. So z1 = 0 and w3 = 1e-7 (z3 + 1): zero only at z3 = -1, where
 * w1 = -1e14 < 0, positive at z3 = hi = 1, where it must be <= 0: no solution. The point
 * (0, 0, 1/2, 1/2) leaves w3 = 1.5e-7 on an interior z3, all of row 3's terms; z1 = 0, forced by
 * w1 = 5e13, spread that term's rounding (64 N eps 5e13 = 3) over row 3. (0, -1.3e-7, 1, 1) has
 * z2 forced to hi by w2 = -2 but 1.3e-7 away from it, and w3 = 1.35e-7 > 0 at z3 = hi: half of
 * row 3's terms. */
Test(fuzz_cases, a_component_forced_to_its_end_lifts_no_floor)
{
    double M[16] = {0.5, 0, 0.5, 0.5, 0.5, -1, 0.5, 1e-7, 1e14, 1e-7, 1e-7, 3, -1e-6, 0, 0, -3};
    double q[4] = {-1, -2, 1e-7, 0};
    double lo[4] = {0, -1, -INFINITY, -INFINITY}, hi[4] = {INFINITY, 0, 1, 1};
    nsdae_row_kind kind[4] = {NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_BOX, NSDAE_ROW_BOX, NSDAE_ROW_BOX};
    nsdae_mlcp p = {4, M, q, kind, lo, hi};
    double bad[4] = {0, 0, 0.5, 0.5}, bad2[4] = {0, -1.3e-7, 1, 1};
    cr_expect(nsdae_mlcp_row_violation(&p, bad) > 0.5, "%g", nsdae_mlcp_row_violation(&p, bad));
    cr_expect(nsdae_mlcp_row_violation(&p, bad2) > 0.1, "%g", nsdae_mlcp_row_violation(&p, bad2));
    expect_no_answer(&p);
}

/* crash-a656...: rows 1 and 4 boxes (-inf, 1], rows 2 and 3 complementarity,
 *   w1 = 1e-7 (z2 + z4),  w2 = z1 + 1e-7 (z2 + z4) + 1e-7,  w3 = 1e-7 (z2 + z4) + 1e14,
 *   w4 = 1e-7 z3 + 1e14 z4 + 1e-7.
 * w3 > 0 gives z3 = 0; z4 = hi would make w4 > 0, so w4 = 0 and z4 = -1e-21. z2 = 0 leaves
 * w1 = -1e-28 < 0: z1 = hi = 1 (w2 = 1 > 0, consistent). z2 > 0 needs w2 = 0, so z1 < 1 is inside
 * its box, w1 = 0, z2 = 1e-21 and z1 = -1e-7. Two solutions, (-1e-7, 1e-21, 0, -1e-21) the
 * smaller. (0, 0, 0, -1e-21) is none: z1 inside its box with w1 = -1e-28, all of row 1's terms;
 * z2 = 0 forced by w2 = 1e-7 had lifted row 1 by z2's rounding in the unit of the point's
 * largest term (1e14 z4 = 1e-7 over z2's entries 1e-7: 5.7e-21). */
Test(fuzz_cases, a_rounded_zero_forced_by_its_row_lifts_no_other_row)
{
    double M[16] = {0, 1, 0, 0, 1e-7, 1e-7, 1e-7, 0, 0, 0, 0, 1e-7, 1e-7, 1e-7, 1e-7, 1e14};
    double q[4] = {0, 1e-7, 1e14, 1e-7}, z[4], w[4];
    double lo[4] = {-INFINITY, 0, 0, -INFINITY}, hi[4] = {1, INFINITY, INFINITY, 1};
    nsdae_row_kind kind[4] = {NSDAE_ROW_BOX, NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_BOX};
    nsdae_mlcp p = {4, M, q, kind, lo, hi};
    double bad[4] = {0, 0, 0, -1e-21}, sol[8] = {-1e-7, 1e-21, 0, -1e-21, 1, 0, 0, -1e-21};
    cr_expect(nsdae_mlcp_row_violation(&p, bad) > 0.5, "%g", nsdae_mlcp_row_violation(&p, bad));
    cr_expect(nsdae_mlcp_row_violation(&p, sol) <= NSDAE_TOL_RESIDUAL);
    nsdae_error err = {0};
    nsdae_minnorm_result res;
    cr_assert_eq(nsdae_lcp_minnorm(&p, NULL, z, w, &res, &err), NSDAE_OK, "%s", err.message);
    cr_expect(fabs(z[0] + 1e-7) <= 1e-16 && fabs(z[1] - 1e-21) <= 1e-30 && fabs(z[2]) <= 1e-30 &&
                  fabs(z[3] + 1e-21) <= 1e-30,
              "%.17g %.17g %.17g %.17g", z[0], z[1], z[2], z[3]);
    expect_only_solutions(&p, sol, 2);
}

/* crash-41b0...: rows 1 and 2 complementarity, 3 and 4 equalities,
 *   w1 = 1e-7 z1 + 5e-9 z2 - 3 z3 - 3 z4 - 1,  w2 = 1e-7 (z1 + z2 + z4) + 0.5,
 *   0 = 1e-7 (z1 + z2) + 3 z3 + 5e-9 z4,       0 = -1e-14 z1 + 1e-7 z2 - 1e-6 z3.
 * With z2 = 0: z3 = -1e-8 z1 (row 4), 7e-8 z1 + 5e-9 z4 = 0 (row 3), so z4 = -14 z1; z1 = 0 then
 * leaves w1 = -1 < 0, and z1 > 0 needs w1 = (42 + 1.3e-7) z1 - 1 = 0: solution A. With z2 > 0,
 * w2 = 0: z1 + z2 + z4 = -5e6; z1 > 0 too would need (rows 1 and 3) 42 z1 + 1.8e8 z2 = 1 and
 * 13 z1 + 6e7 z2 = 5e6, i.e. z1 = -5e6: so z1 = 0, z3 = z2 / 10, 0.3000001 z2 + 5e-9 z4 = 0:
 * solution B, with z4 ~ -5e6. The enumeration listed (2.2e-8, 0, 5.6e-10, -1/3) (w4 = -5.6e-16,
 * all of row 4's terms) under a floor lifted through column 2, whose z2 = 0 is forced by
 * w2 = 0.5. */
Test(fuzz_cases, the_enumeration_lists_no_point_under_a_forced_columns_floor)
{
    double M[16] = {1e-7, 1e-7, 1e-7, -1e-14, 5e-9, 1e-7, 1e-7, 1e-7, -3, 0, 3, -1e-6, -3, 1e-7, 5e-9, 0};
    double q[4] = {-1, 0.5, 0, 0}, z[4], w[4];
    nsdae_row_kind kind[4] = {NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_EQUALITY,
                              NSDAE_ROW_EQUALITY};
    nsdae_mlcp p = {4, M, q, kind, NULL, NULL};
    double a = 1 / (42 + 1.3e-7), z4b = -5e6 / (1 - 5e-9 / 0.3000001), z2b = -5e-9 * z4b / 0.3000001;
    double sol[8] = {a, 0, -1e-8 * a, -14 * a, 0, z2b, z2b / 10, z4b};
    nsdae_error err = {0};
    nsdae_minnorm_result res;
    cr_assert_eq(nsdae_lcp_minnorm(&p, NULL, z, w, &res, &err), NSDAE_OK, "%s", err.message);
    cr_expect(fabs(z[0] - a) <= 1e-9 * a && z[1] == 0 && fabs(z[2] + 1e-8 * a) <= 1e-9 * 1e-8 * a &&
                  fabs(z[3] + 14 * a) <= 1e-9 * a,
              "%.17g %.17g %.17g %.17g", z[0], z[1], z[2], z[3]);
    expect_only_solutions(&p, sol, 2);
}

/* crash-2abb...: rows 1 and 2 complementarity, 3 and 4 equalities,
 *   w1 = 1e-7 (z2 + z3) - 3 z4 - 1,  w2 = 1e-7 z2 + 1e14 z3 + z4,
 *   0 = -1000 z1 - 1e-6 z2 + 1e-7 z3,  0 = 1e-7 (z1 + z3) + 3 z2.
 * Row 3 gives z3 = 1e10 z1 + 10 z2, so z3 >= 0 for z1, z2 >= 0, and row 4 is then a sum of
 * nonnegative terms: z1 = z2 = z3 = 0. Row 2 gives w2 = z4 >= 0, and w1 = -3 z4 - 1 < 0 with
 * z1 = 0: no solution, and none for any problem whose entries differ from these by a relative
 * perturbation below one (the signs above do not change). Minimal norm answered
 * (4e-25, -2.1e-17, 3.3e-15, -1/3): z2 below its end by 2.1e-17, within the rounding allowed a
 * component off its end (64 N eps times the point's largest term, 3 z4 = 1, over column 2's
 * largest entry 3: 1.9e-14), and row 4, 3 z2 + 1e-7 z3 = -6.3e-17, within the floor that allowance
 * gives it (5.7e-14). Put at its end, z2 = 0 leaves row 4 with 1e-7 z3 = 3.3e-22, all of its
 * terms: a component beyond its end is checked at that end (check.c, pinned_end). */
Test(fuzz_cases, a_component_beyond_its_end_is_checked_at_that_end)
{
    double M[16] = {0, 0, -1000, 1e-7, 1e-7, 1e-7, -1e-6, 3, 1e-7, 1e14, 1e-7, 1e-7, -3, 1, 0, 0};
    double q[4] = {-1, 0, 0, 0};
    nsdae_row_kind kind[4] = {NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_EQUALITY,
                              NSDAE_ROW_EQUALITY};
    nsdae_mlcp p = {4, M, q, kind, NULL, NULL};
    /* z4 = -1/3 makes w1 = 0; z3 = 1 / 3e14 makes w2 = 0; z2 = -2.1e-17 is rounding-sized */
    double bad[4] = {0, -2.1e-17, 1 / 3e14, -1.0 / 3};
    cr_expect(nsdae_mlcp_row_violation(&p, bad) > 0.5, "%g", nsdae_mlcp_row_violation(&p, bad));
    expect_no_answer(&p);
}

/* The bead column (N = 100, step 1542): a pivoting solver leaves a component nonbasic at exactly
 * 0 on a row whose only term is a rounding residue of q. Here
 *   w1 = 2 z1 - 14.8,  w2 = 2 z2 - z3 - 8.4e-16,  w3 = -z2 + 2 z3 + 1.
 * z1 = 7.4 (w1 = 0 since z1 = 0 leaves w1 < 0); z3 = 0 (w3 = 1 - z2 > 0 for any small z2);
 * z2 = 0 leaves w2 = -8.4e-16 < 0, so w2 = 0 and z2 = 4.2e-16 (exact in binary: q2 / 2). The
 * point (7.4, 0, 0) violates row 2 by all of its terms; the old floor (64 N eps times the point's
 * largest term 14.8, spread over every row: 9.5e-13 on row 2) took that for rounding. The check
 * refuses it, and the repair on its own pattern (lcp_active_side: w2 < 0 with z2 at its end
 * breaks w2's law, so row 2 is solved for w2 = 0) gives the solution exactly. */
Test(fuzz_cases, a_nonbasic_zero_against_a_rounding_residue_is_repaired)
{
    double M[9] = {2, 0, 0, 0, 2, -1, 0, -1, 2}, q[3] = {-14.8, -8.4e-16, 1};
    nsdae_mlcp p = {3, M, q, NULL, NULL, NULL};
    double z[3] = {7.4, 0, 0}, w[3], sol[3] = {7.4, 4.2e-16, 0};
    cr_expect(nsdae_mlcp_row_violation(&p, z) > 0.5, "%g", nsdae_mlcp_row_violation(&p, z));
    cr_expect(nsdae_mlcp_row_violation(&p, sol) <= NSDAE_TOL_RESIDUAL);
    cr_assert(lcp_accept_or_polish(&p, NULL, z, w));
    cr_expect(z[0] == 7.4 && z[1] == 4.2e-16 && z[2] == 0, "%.17g %.17g %.17g", z[0], z[1], z[2]);
    nsdae_error err = {0};
    cr_assert_eq(nsdae_lcp_solve_siconos(&p, "lemke", z, w, &err), NSDAE_OK, "%s", err.message);
    cr_expect(fabs(z[0] - 7.4) <= 1e-15 * 7.4 && fabs(z[1] - 4.2e-16) <= 1e-6 * 4.2e-16 && z[2] == 0,
              "%.17g %.17g %.17g", z[0], z[1], z[2]);
}

/* crash-77d5...: rows 1 and 3 equalities, rows 2 and 4 complementarity,
 *   0 = 1e-7 (z1 + z2 + z3) + 1e-7,  w2 = 1e-7 (z2 + z3) + 1e14,
 *   0 = 1e-7 (z2 + z3 + z4),         w4 = 1e-7 (z1 + z3 + z4) + 1e14 z2.
 * z2 > 0 needs w2 = 0, z2 + z3 = -1e21, so z4 = 1e21 (row 3) and z1 = 1e21 - 1 (row 1); then
 * w4 = 0 (z4 > 0) reads 1e-7 (1e21 - 1 - z2) + 1e14 z2 = 0, z2 = -1 < 0: no. So z2 = 0, z1 = -1 - z3,
 * z4 = -z3 and w4 = 1e-7 z1. z4 = 0 gives z1 = -1, w4 < 0: no. So w4 = 0: z1 = 0, z3 = -1, z4 = 1,
 * the unique solution, with w2 = 1e14 - 1e-7. Its pattern (z2 = 0, w4 = 0) is the 3 x 3 block
 * 1e-7 [1 1 0; 0 1 1; 1 1 1] on z1, z3, z4: nonsingular. The fast path read it as a line (M's
 * 1e14 in column 2, whose z2 is 0, ruled its conditioning) and answered NO_SOLUTION. */
Test(fuzz_cases, a_pinned_column_does_not_decide_a_pattern_conditioning)
{
    double M[16] = {1e-7, 0, 0, 1e-7, 1e-7, 1e-7, 1e-7, 1e14, 1e-7, 1e-7, 1e-7, 1e-7, 0, 0, 1e-7, 1e-7};
    double q[4] = {1e-7, 1e14, 0, 0}, z[4], w[4];
    nsdae_row_kind kind[4] = {NSDAE_ROW_EQUALITY, NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_EQUALITY,
                              NSDAE_ROW_COMPLEMENTARITY};
    nsdae_mlcp p = {4, M, q, kind, NULL, NULL};
    const double want[4] = {0, 0, -1, 1};
    nsdae_minnorm_result res = minnorm_ok(&p, z, w);
    for (int i = 0; i < 4; i++)
        cr_expect(fabs(z[i] - want[i]) <= 1e-9, "z%d = %.17g, want %g", i + 1, z[i], want[i]);
    cr_expect_eq(res.nsol, 1);
}

/* crash-a9ab... and crash-a74e...: equality rows whose elimination (lcp/reduce.c, general case:
 * the rows' own variables are a singular block) is ill-conditioned, with exact zeros to find.
 * crash-a9ab...: 0 = -2 z1 - 1e-14 z2 + 3 z4 - 1, 0 = -2 z1 + 3e-8 z4, 0 = -2 z1, and
 * w4 = -2 z1 - 3 z4 _|_ z4 >= 0; z3 enters no row. Row 3 gives z1 = 0, row 2 then z4 = 0, row 1
 * z2 = -1e14, and w4 = 0: the solutions are (0, -1e14, z3, 0), of minimal norm at z3 = 0.
 * crash-a74e... (q = 0): row 1 a box z1 in [-1, 0] with w1 = 1e-7 z3 - 2 z4, rows 2 and 4 the
 * equalities 1e-7 z3 = z4 and 1e-7 z3 = 3 z4 (so z3 = z4 = 0), row 3 w3 = z3 _|_ z3 >= 0, row 5
 * 0 = z1 + 0.5 z2 + 1e-7 z3; z5 enters no row. So w = 0, z2 = -2 z1 with z1 anywhere in its box:
 * the segment (z1, -2 z1, 0, 0, z5), of minimal norm at 0. crash-5984... (q = 0): boxes
 * z1 <= 1 (w1 = 1e-7 (z1 + z2)) and z2 in [-0.5, 0.5] (w2 = 1e-7 z1), the equalities z1 = 1e-7 z2
 * and 1000 z1 = 3e-8 z2 (so z1 = z2 = 0), w5 = 1e-7 z1 _|_ z5 >= 0; z3, z4 enter no row. So w = 0
 * and the solutions are (0, 0, z3, z4, z5 >= 0), of minimal norm at 0; the SVD's null directions
 * of z3, z4 leaked 1.2e-12 into z1, z2 (equilibrated units). The SVD's particular point carried
 * z4 = 1.35e-8 (a9ab) and z3 = -7e-10 (a74e) in the equilibrated units, so every pattern was
 * inconsistent and the enumeration listed nothing; minimal norm answered (-0.2, 0.4, ...) for
 * crash-a74e.... */
typedef struct elimination_case {
    const char *name;
    int n;
    const char *kinds;
    double rows[5][5], q[5], lo[5], hi[5], want[5];
} elimination_case;

static const elimination_case elimination_cases[] = {
    {"crash-a9ab", 4, "EEEC",
     {{-2, -1e-14, 0, 3}, {-2, 0, 0, 3e-8}, {-2, 0, 0, 0}, {-2, 0, 0, -3}},
     {-1, 0, 0, 0}, {0}, {0}, {0, -1e14, 0, 0}},
    {"crash-a74e", 5, "BECEE",
     {{0, 0, 1e-7, -2, 0}, {0, 0, 1e-7, -1, 0}, {0, 0, 1, 0, 0}, {0, 0, 1e-7, -3, 0}, {1, 0.5, 1e-7, 0, 0}},
     {0}, {-1}, {0}, {0}},
    {"crash-5984", 5, "BBEEC",
     {{1e-7, 1e-7, 0, 0, 0}, {1e-7, 0, 0, 0, 0}, {-1, 1e-7, 0, 0, 0}, {-1000, 3e-8, 0, 0, 0}, {1e-7, 0, 0, 0, 0}},
     {0}, {-INFINITY, -0.5}, {1, 0.5}, {0}},
};

Test(fuzz_cases, an_ill_conditioned_elimination_keeps_its_exact_zeros)
{
    for (size_t c = 0; c < sizeof elimination_cases / sizeof elimination_cases[0]; c++) {
        const elimination_case *k = &elimination_cases[c];
        double z[5];
        row_case rc;
        nsdae_error err = {0};
        cr_assert_eq(minnorm_of_rows(&rc, k->n, k->kinds, k->rows, k->q, k->lo, k->hi, z, &err), NSDAE_OK,
                     "%s: %s", k->name, err.message);
        for (int i = 0; i < k->n; i++)
            cr_expect(fabs(z[i] - k->want[i]) <= 1e-9 * (1 + fabs(k->want[i])), "%s: z%d = %.17g, want %g", k->name,
                      i + 1, z[i], k->want[i]);
        nsdae_lcp_solution_set *set = NULL;
        cr_assert_eq(nsdae_lcp_enumerate(&rc.p, &set, &err), NSDAE_OK, "%s: %s", k->name, err.message);
        cr_expect_gt(set->count, 0, "%s: the enumeration lists no solution", k->name);
        nsdae_lcp_solution_set_free(set);
    }
}

/* The presolve's sign rule (lcp/decompose.c) on a tiny entry of the data itself, the first of
 * crash-be48...'s two causes (its row w4 = 1e-3 z2 + 3 z3 - 1e-14 z4 + 1 with z4 ~ 1e14), reduced
 * to three rows: w1 = z2 - 1 _|_ z1 >= 0, w2 = -1e-14 z2 + 3 z3 + 4 _|_ z2 >= 0, and the box
 * z3 in [-1, 0] with w3 = z3 + 2. w3 >= 1 > 0 puts z3 at lo = -1, so w2 = 1 - 1e-14 z2; w1 >= 0
 * needs z2 >= 1 > 0, so w2 = 0: z2 = 1e14, and w1 = 1e14 - 1 > 0 gives z1 = 0. The unique
 * solution (0, 1e14, -1). The sign rule took -1e-14 next to 3 for elimination rounding, read
 * w2 >= 1 for every z2 >= 0, fixed z2 = 0, and the root was empty (NO_SOLUTION). */
Test(fuzz_cases, a_tiny_entry_of_the_data_is_not_rounding)
{
    double M[9] = {0, 0, 0, 1, -1e-14, 0, 0, 3, 1};
    double q[3] = {-1, 4, 2}, lo[3] = {0, 0, -1}, hi[3] = {0, 0, 0}, z[3], w[3];
    nsdae_row_kind kind[3] = {NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_BOX};
    nsdae_mlcp p = {3, M, q, kind, lo, hi};
    minnorm_ok(&p, z, w);
    cr_expect(z[0] == 0 && z[2] == -1, "%g %g", z[0], z[2]);
    cr_expect(fabs(z[1] - 1e14) <= 1e-9 * 1e14, "%.17g", z[1]);
}

/* crash-f28b...: row 1 a box z1 in [-1, 1], row 2 complementarity, rows 3 and 4 equalities,
 *   w1 = 1e-7 z1 - 0.5 z2 + 1e14 z3 + 1e-7 z4 - 1e-14,  w2 = -0.5 z2 + 1e-7 (z3 + z4) + 1,
 *   0 = 1e-7 z1 + 3 z4 - 1,                           0 = -0.5 z1 + 1e-7 (z2 + z3) - 3 z4 - 2.
 * Row 3 gives z4 = (1 - 1e-7 z1) / 3, row 4 then S = z2 + z3 = 1e7 (3 + (0.5 - 1e-7) z1) >= 2.5e7.
 * z1 inside its box needs w1 = 0, so 1e14 z3 = 0.5 z2 + O(1e-7) and z3 ~ 5e-15 z2: z2 ~ S > 0 and
 * w2 = 0 would need z2 = 2 + 2e-7 (z3 + z4) ~ 2. z1 = hi = 1 needs w1 <= 0: z2 = 0 gives z3 = S and
 * w1 > 0; w2 = 0 gives z2 ~ 9, z3 = S - 9 > 0 and w1 > 0 again. So z1 = lo = -1 (w1 >= 0 holds
 * wherever z3 > 1e-20), z4 = (1 + 1e-7) / 3, S = 25000001, and either z2 = 0 (w2 > 0): A =
 * (-1, 0, 25000001, z4), or w2 = 0: z2 = (1 + 1e-7 (S + z4)) / (0.5 + 1e-7) ~ 7, z3 = S - z2:
 * B, of the smaller norm. The branch and bound's leaves came back from the reduced coordinates
 * with z3 1e-4 off, and their polish on M's equilibration (z3's column 1.42 in the box row, below
 * 1.5e-12 in the rows that vanish) cut z3's direction: NO_SOLUTION after 7 nodes. */
Test(fuzz_cases, a_pattern_polished_in_its_own_units)
{
    double M[16] = {1e-7, 0, 1e-7, -0.5, -0.5, -0.5, 0, 1e-7, 1e14, 1e-7, 0, 1e-7, 1e-7, 1e-7, 3, -3};
    double q[4] = {-1e-14, 1, -1, -2}, lo[4] = {-1, 0, 0, 0}, hi[4] = {1, 0, 0, 0}, z[4], w[4];
    nsdae_row_kind kind[4] = {NSDAE_ROW_BOX, NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_EQUALITY, NSDAE_ROW_EQUALITY};
    nsdae_mlcp p = {4, M, q, kind, lo, hi};
    double z4 = (1 + 1e-7) / 3, S = 25000001, z2 = (1 + 1e-7 * (S + z4)) / (0.5 + 1e-7);
    double want[4] = {-1, z2, S - z2, z4}, sol[8] = {-1, z2, S - z2, z4, -1, 0, S, z4};
    nsdae_minnorm_result res = minnorm_ok(&p, z, w);
    for (int i = 0; i < 4; i++)
        cr_expect(fabs(z[i] - want[i]) <= 1e-9 * fabs(want[i]), "z%d = %.17g, want %.17g", i + 1, z[i], want[i]);
    cr_expect_eq(res.nsol, 2);
    expect_only_solutions(&p, sol, 2);
}

/* crash-449f...: rows 1 and 3 complementarity, row 2 an equality,
 *   w1 = 3 z1 + 1e-7 z2 - 5e-9 z3 + 1e-7,  0 = -1e-14 z1 + 1e-7 z2 + 1e8 z3 - 1000,
 *   w3 = -1e-14 z1 - 1e-5 z2 + 1e-7.
 * z1 > 0 needs w1 = 0, 5e-9 z3 = 3 z1 + 1e-7 (z2 + 1) > 1e-7: z3 > 20; then row 2 gives
 * 1e-14 z1 >= 2e9 - 1000, z1 > 1e23, while w1 = 0 gives z3 >= 6e8 z1, and row 2 then
 * 1e-14 z1 >= 6e16 z1 - 1000: no. So z1 = 0. z3 = 0 would need z2 = 1e10 (row 2) and then
 * w3 < 0: z3 > 0, w3 = 0, z2 = 1e-7 / 1e-5 = 0.01 exactly, z3 = (1000 - 1e-9) / 1e8. The unique
 * solution (0, 0.01, 9.99999999999e-6). The enumeration also listed (0, 0.0099983215, 1e-5)
 * (w3 = 1.7e-11 on a row whose terms are 1e-7): the rounding allowed z2 is taken in the unit of
 * the point's largest term (1e8 z3 = 1000 over z2's largest entry 1e-5), so the check accepts it;
 * the enumeration now refines each point it keeps on its pattern's own equilibrated system. */
Test(fuzz_cases, an_enumerated_point_is_refined_on_its_pattern)
{
    double M[9] = {3, -1e-14, -1e-14, 1e-7, 1e-7, -1e-5, -5e-9, 1e8, 0};
    double q[3] = {1e-7, -1000, 1e-7}, z[3], w[3];
    nsdae_row_kind kind[3] = {NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_EQUALITY, NSDAE_ROW_COMPLEMENTARITY};
    nsdae_mlcp p = {3, M, q, kind, NULL, NULL};
    double sol[3] = {0, 0.01, (1000 - 1e-9) / 1e8};
    nsdae_minnorm_result res = minnorm_ok(&p, z, w);
    for (int i = 0; i < 3; i++)
        cr_expect(fabs(z[i] - sol[i]) <= 1e-12 * fabs(sol[i]), "z%d = %.17g, want %.17g", i + 1, z[i], sol[i]);
    cr_expect_eq(res.nsol, 1);
    nsdae_error err = {0};
    nsdae_lcp_solution_set *set = NULL;
    cr_assert_eq(nsdae_lcp_enumerate(&p, &set, &err), NSDAE_OK, "%s", err.message);
    cr_expect_gt(set->count, 0);
    for (int c = 0; c < set->count; c++)
        for (int i = 0; i < 3; i++)
            cr_expect(fabs(set->pieces[c].z[i] - sol[i]) <= 1e-12 * fabs(sol[i]), "piece %d: z%d = %.17g, want %.17g",
                      c, i + 1, set->pieces[c].z[i], sol[i]);
    nsdae_lcp_solution_set_free(set);
}

/* crash-d78e... (fuzzing; spread 2^24.9, within the contract's bound): z1, z2, z3 in (-inf, 1],
 * z4 >= 0 (C), column-major rows
 *   w1 = -1e-8 z2 - 1e-8 z3 - 3 z4 - 3,   w2 = w3 = -1e-8 z2 - 3 z3 - 3 z4 - 3,
 *   w4 = -1e-8 z1 + 1e6 z2 - 3 z3 - 3 z4 - 3.
 * z1 enters row 4 only: w1 < 0 puts z1 at hi = 1. With z2, z3 < 1 rows 2 = 3 vanish:
 * z3 = -1 - z4 - (1e-8 / 3) z2, so z4 > 0 only adds to the norm (z2 or z3 at hi = 1 gives
 * |z|^2 >= 3): z4 = 0, and
 * w4 >= 0 gives z2 >= 1e-8 / (1e6 + 1e-8). |z|^2 grows with z2, so the minimum is
 * (1, 1e-14, -1, 0) to 1e-22. Minimal norm answered z1 = 1.009765625, 1 % beyond hi, which the
 * check accepted: it measured z1's distance to its end in the unit of its row (terms 6 over the
 * entry 1e-8) only; a one-ended box is now measured in its end's size too. */
Test(fuzz_cases, a_one_ended_box_is_measured_in_its_end)
{
    double M[16] = {0, 0, 0, -1e-8, -1e-8, -1e-8, -1e-8, 1e6, -1e-8, -3, -3, -3, -3, -3, -3, -3};
    double q[4] = {-3, -3, -3, -3}, lo[4] = {-INFINITY, -INFINITY, -INFINITY, 0}, hi[4] = {1, 1, 1, 0}, z[4], w[4];
    nsdae_row_kind kind[4] = {NSDAE_ROW_BOX, NSDAE_ROW_BOX, NSDAE_ROW_BOX, NSDAE_ROW_COMPLEMENTARITY};
    nsdae_mlcp p = {4, M, q, kind, lo, hi};
    double sol[4] = {1, 1e-14, -1, 0};
    minnorm_ok(&p, z, w);
    for (int i = 0; i < 4; i++)
        cr_expect(fabs(z[i] - sol[i]) <= 1e-12, "z%d = %.17g, want %.17g", i + 1, z[i], sol[i]);
    double bad[4] = {1.009765625, 9.77e-15, -1, 0};
    cr_expect_gt(nsdae_mlcp_row_violation(&p, bad), NSDAE_TOL_RESIDUAL);
}

/* crash-9a61... (spread 2^0): rows 1, 2 complementarity, 3 to 5 boxes z3 in (-inf, 1],
 * z4 in [-1, inf), z5 in [-1, 0]:
 *   w1 = z1 - 3 z2 + 1e6 z3,  w2 = -1e-6 z2,  w3 = 1e6 z1 + 1e-7 z4,  w4 = w5 = 0.
 * w2 >= 0 with z2 >= 0 gives z2 = 0; z = 0 then gives w = 0 with every variable inside or at
 * the end of its set: a solution, so the minimal norm is 0. z4 = -0.5 (z1 = 5e-14, z3 = -5e-20)
 * is a solution too (|z|^2 = 0.25), which minimal norm once answered: the KKT Lemke's point of a
 * node was accepted by lcp_kkt_feasible's allowance at the data's scale (qp.c). */
Test(fuzz_cases, a_variable_in_one_tiny_term_is_left_at_zero)
{
    double M[25] = {1, 0, 1e6, 0, 0, -3, -1e-6, 0, 0, 0, 1e6, 0, 0, 0, 0, 0, 0, 1e-7, 0, 0, 0, 0, 0, 0, 0};
    double q[5] = {0}, lo[5] = {0, 0, -INFINITY, -1, -1}, hi[5] = {0, 0, 1, INFINITY, 0};
    nsdae_row_kind kind[5] = {NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_BOX, NSDAE_ROW_BOX,
                              NSDAE_ROW_BOX};
    nsdae_mlcp p = {5, M, q, kind, lo, hi};
    expect_answer_zero(&p);
}

/* crash-ba94... (spread 2^0): rows 1, 2 complementarity, 3 equality, 4 a box z4 in (-inf, 1]:
 *   w1 = 1e-7 z3,  w2 = 1e14 z3 + 1e-7,  w3 = 1e-7 (z2 + z3) + z4 = 0,  w4 = -z1 + 1e-7 z2.
 * w1 >= 0 needs z3 >= 0, so w2 > 0 and z2 = 0; then z4 = -1e-7 z3 < 1 and w4 = -z1 = 0. The
 * solutions are the ray (0, 0, s, -1e-7 s), s >= 0, minimal at z = 0. Minimal norm and the
 * enumeration refused ("linear algebra failed"): the node's implicit-equality QP (qp.c, clamp_qp)
 * failed at its target r->scale = 9.3e11 in the equilibrated units. */
Test(fuzz_cases, a_ray_from_zero_is_answered_at_zero)
{
    double M[16] = {0, 0, 0, -1, 0, 0, 1e-7, 1e-7, 1e-7, 1e14, 1e-7, 0, 0, 0, 1, 0};
    double q[4] = {0, 1e-7, 0, 0}, lo[4] = {0, 0, 0, -INFINITY}, hi[4] = {0, 0, 0, 1};
    nsdae_row_kind kind[4] = {NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_EQUALITY, NSDAE_ROW_BOX};
    nsdae_mlcp p = {4, M, q, kind, lo, hi};
    expect_answer_zero(&p);
}

/* crash-7092... (spread 2^5.8): as crash-ba94... with q = (0, 0, 1e-3, -3) and row 4
 * w4 = 1e-7 z2 - 3 (no z1):
 *   w1 = 1e-7 z3,  w2 = 1e14 z3,  w3 = 1e-7 (z2 + z3) + z4 + 1e-3 = 0,  w4 = 1e-7 z2 - 3.
 * z2 = 0 gives w4 = -3 < 0, so z4 = hi = 1 and z3 = -1.001e7 < 0, where w1 < 0: no solution.
 * So z2 > 0, w2 = 0, z3 = 0; z4 = 1 would need z2 = -1.001e7 < 0, so z4 < 1, w4 = 0: z2 = 3e7,
 * z4 = -3.001, and z1 (in no row, w1 = 0) is 0 at the minimum: z = (0, 3e7, 0, -3.001), the one
 * solution of least norm. Both calls refused; once that was mended, minimal norm said "no
 * solution": the KKT Lemke's point of a leaf had z2 = 0, violating its row 4 (w4 = 0) by all of
 * its terms, 0.75 in the equilibrated units, within lcp_kkt_feasible's allowance at the scale
 * 3.6e6 of another row. */
Test(fuzz_cases, a_row_of_size_one_beside_rows_of_size_1e12_is_held)
{
    double M[16] = {0, 0, 0, 0, 0, 0, 1e-7, 1e-7, 1e-7, 1e14, 1e-7, 0, 0, 0, 1, 0};
    double q[4] = {0, 0, 1e-3, -3}, lo[4] = {0, 0, 0, -INFINITY}, hi[4] = {0, 0, 0, 1}, z[4], w[4];
    nsdae_row_kind kind[4] = {NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_EQUALITY, NSDAE_ROW_BOX};
    nsdae_mlcp p = {4, M, q, kind, lo, hi};
    double sol[4] = {0, 3e7, 0, -3.001};
    minnorm_ok(&p, z, w);
    for (int i = 0; i < 4; i++)
        cr_expect(fabs(z[i] - sol[i]) <= 1e-9 * (1 + fabs(sol[i])), "z%d = %.17g, want %.17g", i + 1, z[i], sol[i]);
}

/* crash-0fa6...: row 1 complementarity, row 2 an equality, row 3 a box (-inf, 1], row 4 a zero
 * equality (z4 free):
 *   w1 = 1e-7 z1 - 1e-6 z2 - 3,  0 = 1e-7 (z1 + z2),  w3 = -1e-6 z1 - 3e8 z2 + 10 z4,  0 = 0.
 * Row 2 gives z2 = -z1, so w1 = 1.1e-6 z1 - 3: z1 = 0 leaves w1 < 0, so w1 = 0 and z1 = 3 / 1.1e-6.
 * z3 < 1 needs w3 = 0: z4 = -(3e8 - 1e-6) z1 / 10 = -8.2e13; z3 = 1 allows any z4 below that. z3
 * enters no row: the least norm has z3 = 0. Minimal norm said "no solution": lcp/check.c re-solves
 * a point this far beyond its data (8e13 next to 3) on its pattern, and the pattern's system lost
 * rank in the caller's units (singular values 1e-7 next to 3e8) and in the one-pass balance
 * (columns first: z2's 3e8 made its 1e-6 noise); balanced by Ruiz's iteration it is square. */
Test(fuzz_cases, a_far_solution_is_proved_on_its_balanced_pattern)
{
    double M[16] = {1e-7, 1e-7, -1e-6, 0, -1e-6, 1e-7, -3e8, 0, 0, 0, 0, 0, 0, 0, 10, 0};
    double q[4] = {-3, 0, 0, 0}, lo[4] = {0, 0, -INFINITY, 0}, hi[4] = {0, 0, 1, 0}, z[4], w[4];
    nsdae_row_kind kind[4] = {NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_EQUALITY, NSDAE_ROW_BOX, NSDAE_ROW_EQUALITY};
    nsdae_mlcp p = {4, M, q, kind, lo, hi};
    double z1 = 3 / 1.1e-6, sol[4] = {z1, -z1, 0, -(3e8 - 1e-6) * z1 / 10};
    cr_expect_leq(nsdae_mlcp_row_violation(&p, sol), NSDAE_TOL_RESIDUAL, "the solution derived above is refused");
    minnorm_ok(&p, z, w);
    for (int i = 0; i < 4; i++)
        cr_expect(fabs(z[i] - sol[i]) <= 1e-9 * fabs(sol[3]) && fabs(z[i] - sol[i]) <= 1e-9 * (1 + fabs(sol[i])),
                  "z%d = %.17g, want %.17g", i + 1, z[i], sol[i]);
}

/* The enumeration of p lists a piece at z = 0 (to 1e-12). */
static void expect_zero_listed(const nsdae_mlcp *p)
{
    nsdae_error err = {0};
    nsdae_lcp_solution_set *set = NULL;
    cr_assert_eq(nsdae_lcp_enumerate(p, &set, &err), NSDAE_OK, "%s", err.message);
    int at_zero = 0;
    for (int c = 0; c < set->count; c++) {
        double big = 0;
        for (int i = 0; i < p->size; i++)
            big = fmax(big, fabs(set->pieces[c].z[i]));
        at_zero |= big <= 1e-12;
    }
    cr_expect(at_zero, "the enumeration lists %d pieces, none at z = 0", set->count);
    nsdae_lcp_solution_set_free(set);
}

/* crash-1f14...: q = 0, row 1 a box (-inf, 1], rows 2 to 6 equalities:
 *   w1 = 1e-7 z1 - 1000 z2,  0 = 1e-7 z1 + 1e-11 z2,  0 = 1e-7 z1,  0 = z1,  0 = 0,  0 = -1e-6 z1.
 * z1 = z2 = 0 from rows 4 and 2, w1 = 0: every z with z1 = z2 = 0 solves (z3 to z6 enter no row),
 * and z = 0 is the least norm. The box shifts the equalities (z1 = 1 - v), whose particular point
 * left r0 = 4e-12 on the row of w1, which the equalities make constant: every node's QP held
 * w1 = 0 exactly as infeasible, and the enumeration listed nothing. */
Test(fuzz_cases, a_constant_row_within_the_residual_tolerance_is_zero)
{
    double M[36] = {0};
    double col1[6] = {1e-7, 1e-7, 1e-7, 1, 0, -1e-6}, col2[6] = {-1000, 1e-11, 0, 0, 0, 0};
    for (int i = 0; i < 6; i++)
        M[i] = col1[i], M[i + 6] = col2[i];
    double q[6] = {0}, lo[6] = {-INFINITY, 0, 0, 0, 0, 0}, hi[6] = {1, 0, 0, 0, 0, 0};
    nsdae_row_kind kind[6] = {NSDAE_ROW_BOX, NSDAE_ROW_EQUALITY, NSDAE_ROW_EQUALITY,
                              NSDAE_ROW_EQUALITY, NSDAE_ROW_EQUALITY, NSDAE_ROW_EQUALITY};
    nsdae_mlcp p = {6, M, q, kind, lo, hi};
    expect_answer_zero(&p);
    expect_zero_listed(&p);
}

/* crash-07a4...: rows 1 and 2 complementarity, row 3 an equality, row 4 a box (-inf, 1]:
 *   w1 = 1e-7 z3,  w2 = 1e14 z3,  0 = 1e-7 (z2 + z3) + z4 + 1e-7,  w4 = -z1 + 1e-7 z2.
 * z3 < 0 makes w1 < 0, so z3 >= 0. z3 > 0 gives z1 = z2 = 0 and z4 = -1e-7 (1 + z3); z3 = 0 leaves
 * z1, z2 >= 0 with w4 = 0 (z4 < 1): z1 = 1e-7 z2, z4 = -1e-7 (1 + z2). The least norm is
 * (0, 0, 0, -1e-7). Both calls refused: the leaf's QP in t held its pattern's equalities, which
 * agree only within the residual tolerance, as exact and found the piece empty; in its null-space
 * coordinates (piece.c) only the sign rows remain. */
Test(fuzz_cases, a_leaf_consistent_within_tolerance_is_solved_in_its_null_space)
{
    double M[16] = {0, 0, 0, -1, 0, 0, 1e-7, 1e-7, 1e-7, 1e14, 1e-7, 0, 0, 0, 1, 0};
    double q[4] = {0, 0, 1e-7, 0}, lo[4] = {0, 0, 0, -INFINITY}, hi[4] = {0, 0, 0, 1}, z[4], w[4];
    nsdae_row_kind kind[4] = {NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_EQUALITY, NSDAE_ROW_BOX};
    nsdae_mlcp p = {4, M, q, kind, lo, hi};
    double sol[4] = {0, 0, 0, -1e-7};
    minnorm_ok(&p, z, w);
    for (int i = 0; i < 4; i++)
        cr_expect(fabs(z[i] - sol[i]) <= 1e-9 * 1e-7, "z%d = %.17g, want %.17g", i + 1, z[i], sol[i]);
}

/* crash-74e9... (q = 0): row 1 an equality, rows 2 and 4 boxes [-1, 0], row 3 complementarity:
 *   0 = 1e-7 z1 + 1e6 z2,  w2 = 1e-7 z1 + z2,  w3 = -z1 + z2,  w4 = -z1 - z2.
 * z = 0 solves (z2 and z4 at their upper ends 0 with w2 = w4 = 0): the least norm is 0. z4 enters
 * no row. In M's equilibrated units z1 weighs 2.4e22 in the objective and z4 1, and minimal norm
 * answered z4 = -0.5, the middle of its box; minimised again on its own piece in the caller's
 * units (own_piece.c), z4 = 0. */
Test(fuzz_cases, the_answer_is_minimised_on_its_own_piece_in_the_callers_units)
{
    double M[16] = {1e-7, 1e-7, -1, -1, 1e6, 1, 1, -1, 0, 0, 0, 0, 0, 0, 0, 0};
    double q[4] = {0}, lo[4] = {0, -1, 0, -1}, hi[4] = {0, 0, 0, 0};
    nsdae_row_kind kind[4] = {NSDAE_ROW_EQUALITY, NSDAE_ROW_BOX, NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_BOX};
    nsdae_mlcp p = {4, M, q, kind, lo, hi};
    expect_answer_zero(&p);
}

/* crash-6da2... (all complementarity, entries 1e-3 but for the diagonal of rows 3 to 6):
 *   w1 = 1e-3 (z1 + ... + z6) - 1,            w2 = 1e-3 (z1 + z3 + z4 + z5 + z6),
 *   w3 = 1e-3 (z1 + z2 + z4 + z5 + z6) - z3,  w4 = 1e-3 (z2 + z3 + z5 + z6) - 3 z4 - 1,
 *   w5 = 1e-3 (z1 + z2 + z3 + z6) - z4 - z5 + 0.5,  w6 = 1e-3 (z1 + z2 + z3 + z5) - 3 z6.
 * z = (0, 1000, 0, 0, 0, 0) solves it (w = (0, 0, 1, 0, 1.5, 1)); there w3, w5, w6 > 0, so z3, z5,
 * z6 are exactly 0 in it. Minimal norm answered z3 = 1.1e-13 and z6 = 8.3e-14 (carried back from
 * the equilibrated units), whose 1e-3 entries left w2 = 2e-16 beside z2 = 1000: within the rows'
 * tolerance, yet no solution until those are zero (polish.c, lcp_snap_to_ends). */
Test(fuzz_cases, components_their_rows_pin_are_exactly_at_their_ends)
{
    const double rows[6][6] = {{1e-3, 1e-3, 1e-3, 1e-3, 1e-3, 1e-3}, {1e-3, 0, 1e-3, 1e-3, 1e-3, 1e-3},
                               {1e-3, 1e-3, -1, 1e-3, 1e-3, 1e-3},   {0, 1e-3, 1e-3, -3, 1e-3, 1e-3},
                               {1e-3, 1e-3, 1e-3, -1, -1, 1e-3},     {1e-3, 1e-3, 1e-3, 0, 1e-3, -3}};
    double M[36], q[6] = {-1, 0, 0, -1, 0.5, 0}, z[6], w[6];
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++)
            M[i + 6 * j] = rows[i][j];
    nsdae_mlcp p = {6, M, q, NULL, NULL, NULL};
    minnorm_ok(&p, z, w);
    cr_expect(fabs(z[1] - 1000) <= 1e-12 * 1000, "z2 = %.17g, want 1000", z[1]);
    cr_expect(z[2] == 0 && z[4] == 0 && z[5] == 0, "z3, z5, z6 = %g, %g, %g: w3, w5, w6 > 0 pin them at 0", z[2],
              z[4], z[5]);
}

/* crash-3fd1... (all complementarity):
 *   w1 = -1e-6 z4,  w2 = -1e-14 z1 + 1e-7 z2 + 1e-3 z4,  w3 = 1e-7 z2 - 1,  w4 = 3 z1 + 1e-7 z2 + 3 z3.
 * w1 >= 0 gives z4 = 0; w3 >= 0 gives z2 >= 1e7 > 0, so w2 = 0 and z1 = 1e7 z2; w4 > 0. z3 > 0
 * needs w3 = 0, z2 = 1e7. The least norm: z2 = 1e7, z1 = 1e14, z3 = z4 = 0 (tests/fuzz/open/README.md,
 * branch lcpfuzz3). Minimal norm said "no solution": the KKT Lemke found the node holding it
 * empty (a pivot of -6.4e-13 below its threshold). A search that finds no solution on few pairs
 * now runs again with each "empty" confirmed by the exact LP (minnorm.c). */
Test(fuzz_cases, no_solution_is_said_only_once_the_exact_lp_agrees)
{
    double M[16] = {0, -1e-14, 0, 3, 0, 1e-7, 1e-7, 1e-7, 0, 0, 0, 3, -1e-6, 1e-3, 0, 0};
    double q[4] = {0, 0, -1, 0}, z[4], w[4], sol[4] = {1e14, 1e7, 0, 0};
    nsdae_mlcp p = {4, M, q, NULL, NULL, NULL};
    minnorm_ok(&p, z, w);
    for (int i = 0; i < 4; i++)
        cr_expect(fabs(z[i] - sol[i]) <= 1e-9 * (1 + sol[i]), "z%d = %.17g, want %.17g", i + 1, z[i], sol[i]);
}

/* crash-8705...: row 1 an equality, row 2 a box [-1, 0], row 3 complementarity with a zero row:
 *   0 = -1e-14 z1 + z2,  w2 = 0.01 z1 + z2 + 1e-7,  w3 = 0.
 * z2 = 1e-14 z1. At z2 = hi = 0, z1 = 0 and w2 = 1e-7 > 0: no; at lo, z1 = -1e14 and w2 < 0: no.
 * So w2 = 0 inside the box: z1 = -1e-7 / (0.01 + 1e-14), z2 = 1e-14 z1 = -1e-19, and z3 = 0 for
 * the least norm (tests/fuzz/open/README.md: neither call found it). The leaf's point, carried
 * from the reduced coordinates (z2 = lo + x cannot hold 1e-19 next to lo = -1), failed the rows;
 * the leaf's own pattern solved in the caller's units (minnorm.c, leaf_point_ok) is the answer. */
Test(fuzz_cases, a_leaf_is_solved_on_its_own_pattern_in_the_callers_units)
{
    double M[9] = {-1e-14, 0.01, 0, 1, 1, 0, 0, 0, 0};
    double q[3] = {0, 1e-7, 0}, lo[3] = {0, -1, 0}, hi[3] = {0, 0, 0}, z[3], w[3];
    nsdae_row_kind kind[3] = {NSDAE_ROW_EQUALITY, NSDAE_ROW_BOX, NSDAE_ROW_COMPLEMENTARITY};
    nsdae_mlcp p = {3, M, q, kind, lo, hi};
    double z1 = -1e-7 / (0.01 + 1e-14), sol[3] = {z1, 1e-14 * z1, 0};
    minnorm_ok(&p, z, w);
    for (int i = 0; i < 3; i++)   /* normwise, as the layer's contract states accuracy */
        cr_expect(fabs(z[i] - sol[i]) <= 1e-9 * fabs(z1), "z%d = %.17g, want %.17g", i + 1, z[i], sol[i]);
    cr_expect(z[1] < 0 && z[1] > -1, "z2 = %g must lie inside its box", z[1]);
}

/* crash-5990...: row 1 an equality, rows 2 and 3 boxes z2 in [-1, 0], z3 in [0, inf):
 *   0 = 1e-7 z1 - 0.5 z2 + 1e6 z3 + 1e-7,  w2 = 0.01 z1 + 1e-7 z2 - 1,  w3 = z1 - 1e-5 z2 - z3 + 1e-7.
 * z2 inside its box needs w2 = 0, z1 = 100 - 1e-5 z2, and then row 1 z3 = (0.5 z2 - 1.01e-5) / 1e6 < 0.
 * z2 = -1 needs z1 >= 100.00001 (w2 >= 0), and row 1 gives z3 < 0. z2 = 0 gives z3 = -1e-13 (z1 + 1):
 * z3 > 0 needs z1 < -1 and w3 = 0, z1 = z3 - 1e-7 > -1: no; z3 = 0 gives z1 = -1, w3 = -1 + 1e-7 < 0:
 * no. No solution. Minimal norm refused ("a leaf piece ... dropped: not certain"): a leaf found
 * within the equilibrated units' tolerance whose point fails the rows; its pattern, decided exactly
 * on the caller's data (lp_exact.c), has no solution, so the verdict is certain. */
Test(fuzz_cases, a_dropped_leaf_is_certain_once_its_pattern_is_decided_exactly)
{
    double M[9] = {1e-7, 0.01, 1, -0.5, 1e-7, -1e-5, 1e6, 0, -1};
    double q[3] = {1e-7, -1, 1e-7}, lo[3] = {0, -1, 0}, hi[3] = {0, 0, INFINITY}, z[3], w[3];
    nsdae_row_kind kind[3] = {NSDAE_ROW_EQUALITY, NSDAE_ROW_BOX, NSDAE_ROW_BOX};
    nsdae_mlcp p = {3, M, q, kind, lo, hi};
    nsdae_error err = {0};
    nsdae_minnorm_result res;
    nsdae_minnorm_spec spec = {NULL, NULL, 0, NULL, 1};
    cr_expect_eq(nsdae_lcp_minnorm(&p, &spec, z, w, &res, &err), NSDAE_NO_SOLUTION, "%s", err.message);
}

/* crash-3b2d... (rows 1, 2, 4 complementarity, row 3 an equality):
 *   w1 = 1e6 z2 + 10 z3 + 3 z4,  w2 = 10 z1 - 1e-6 z4 + 1e-7,  0 = 1e-7 (z1 + z2 + z3) - 3 z4 + 2,
 *   w4 = 1e-7 (z1 + z3) + 2 z4 + 1.
 * tests/fuzz/open/README.md (branch lcpfuzz3) derives the unique solution: w4 = 0, w2 = 0 and
 * w1 = 0, so with s = z4: z1 = 1e-7 s - 1e-8, z3 = -1e7 (2 s + 1) - z1, z2 = 1e7 (5 s - 1), and
 * row 1 gives s (5e13 - 2e8 + 3 - 1e-6) = 1e13 + 1e8 - 1e-7: s = 0.2000028, z = (1.0000028e-8,
 * 140.0006, -14000056, 0.2000028). The fast path said "each of the 8 patterns is inconsistent";
 * its "no solution" is now decided by the branch and bound (workspace.c). */
Test(fuzz_cases, the_fast_paths_no_solution_is_decided_by_the_branch_and_bound)
{
    double M[16] = {0, 10, 1e-7, 1e-7, 1e6, 0, 1e-7, 0, 10, 0, 1e-7, 1e-7, 3, -1e-6, -3, 2};
    double q[4] = {0, 1e-7, 2, 1}, z[4], w[4];
    nsdae_row_kind kind[4] = {NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_EQUALITY,
                              NSDAE_ROW_COMPLEMENTARITY};
    nsdae_mlcp p = {4, M, q, kind, NULL, NULL};
    long double s = (1e13L + 1e8L - 1e-7L) / (5e13L - 2e8L + 3 - 1e-6L), z1 = 1e-7L * s - 1e-8L;
    double sol[4] = {(double)z1, (double)(1e7L * (5 * s - 1)), (double)(-1e7L * (2 * s + 1) - z1), (double)s};
    minnorm_ok(&p, z, w);
    for (int i = 0; i < 4; i++)
        cr_expect(fabs(z[i] - sol[i]) <= 1e-9 * 1.4e7, "z%d = %.17g, want %.17g", i + 1, z[i], sol[i]);
    cr_expect(z[0] > 0 && z[1] > 0 && z[3] > 0, "z1, z2, z4 = %g, %g, %g must be positive", z[0], z[1], z[3]);
}

/* crash-d981... (q = 0, four boxes (-inf, 1]):
 *   w1 = 1e6 z1 + 1e-7 (z3 + z4),  w2 = 1e6 (z1 + z2) + 1e-7 (z3 + z4),  w3 = z1 + 1e6 z2 + 1e-7 z3,
 *   w4 = 1e-7 (z1 + z2 + z3).
 * z = 0 solves (every z_i inside its box, every w_i = 0): the least norm is 0. Both calls missed
 * it: every pattern failed its sign tests in the equilibrated units. Where nothing was found, the
 * patterns are decided by the exact LP on the caller's data and a determined pattern's point is
 * taken (enumerate.c exact_points, minnorm.c exact_leaf). */
Test(fuzz_cases, where_no_pattern_passes_its_sign_tests_the_exact_lp_decides)
{
    double M[16] = {1e6, 1e6, 1, 1e-7, 0, 1e6, 1e6, 1e-7, 1e-7, 1e-7, 1e-7, 1e-7, 1e-7, 1e-7, 0, 0};
    double q[4] = {0}, lo[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY}, hi[4] = {1, 1, 1, 1};
    nsdae_row_kind kind[4] = {NSDAE_ROW_BOX, NSDAE_ROW_BOX, NSDAE_ROW_BOX, NSDAE_ROW_BOX};
    nsdae_mlcp p = {4, M, q, kind, lo, hi};
    expect_answer_zero(&p);
    expect_zero_listed(&p);
}

/* crash-7233... (q = 0): rows 1 to 4 and 6 equalities, row 5 a box z5 in (-inf, 1]; s = z3 + z4 + z5:
 *   w1 = 1e-7 (s + z6),  w2 = -z1 + 1e-7 s,  w3 = 1e6 z1 + 1e-7 s,  w4 = 2 z1 + z2 + 1e-7 s,
 *   w5 = 2 z1 + 1e-7 s + 10 z6,  w6 = 1e-7 (z2 + z3 + z5) + 3 z4 - z6.
 * Rows 2 and 3 give z1 = 0 and s = 0, row 4 z2 = 0, row 1 z6 = 0, row 6 (3 - 1e-7) z4 = 0; so
 * w5 = 0 and the solutions are the segment (0, 0, -t, 0, t, 0), t <= 1, minimal at t = 0, where
 * z = 0 solves at norm 0. The branch and bound answered its end t = 1 (|z|^2 = 2). */
Test(fuzz_cases, where_zero_solves_the_answer_is_zero)
{
    double M[36] = {0};
    double q[6] = {0}, lo[6] = {0, 0, 0, 0, -INFINITY, 0}, hi[6] = {0, 0, 0, 0, 1, 0};
    nsdae_row_kind kind[6] = {NSDAE_ROW_EQUALITY, NSDAE_ROW_EQUALITY, NSDAE_ROW_EQUALITY,
                              NSDAE_ROW_EQUALITY, NSDAE_ROW_BOX, NSDAE_ROW_EQUALITY};
    for (int j = 2; j < 5; j++)   /* 1e-7 s in rows 1 to 5 */
        for (int i = 0; i < 5; i++)
            M[i + 6 * j] = 1e-7;
    M[0 + 6 * 5] = 1e-7;                                   /* row 1: + 1e-7 z6 */
    M[1 + 6 * 0] = -1, M[2 + 6 * 0] = 1e6, M[3 + 6 * 0] = 2, M[4 + 6 * 0] = 2;   /* z1 */
    M[3 + 6 * 1] = 1, M[4 + 6 * 5] = 10;                   /* row 4: z2; row 5: 10 z6 */
    M[5 + 6 * 1] = 1e-7, M[5 + 6 * 2] = 1e-7, M[5 + 6 * 3] = 3, M[5 + 6 * 4] = 1e-7, M[5 + 6 * 5] = -1;
    nsdae_mlcp p = {6, M, q, kind, lo, hi};
    expect_answer_zero(&p);
}

/* crash-209b... (fast path: two complementarity rows and an equality):
 *   w1 = 3 z1 + 1e-7 (z2 + z3) + 3,  w2 = -1e-14 z1 + 1e-7 (z2 + z3) - 1e-14 = 0,
 *   w3 = 1e-7 (z1 + z2 + z3) - 1e-14.
 * w1 > 0 for z >= 0 near the solutions, so z1 = 0; row 2 gives z2 + z3 = 1e-7, so w3 = 0 and
 * z3 >= 0 is free: the solutions are (0, 1e-7 - t, t), t >= 0, of minimal norm at t = 5e-8.
 * The fast path merged its corner t = 0 and the line's minimiser as one point (they differ by
 * 1e-10 in its equilibrated units) and answered the corner, |z|^2 = 1e-14, twice the minimum. */
Test(fuzz_cases, of_two_points_merged_the_lower_objective_stands)
{
    double M[9] = {3, -1e-14, 1e-7, 1e-7, 1e-7, 1e-7, 1e-7, 1e-7, 1e-7};
    double q[3] = {3, -1e-14, -1e-14}, z[3], w[3];
    nsdae_row_kind kind[3] = {NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_EQUALITY, NSDAE_ROW_COMPLEMENTARITY};
    nsdae_mlcp p = {3, M, q, kind, NULL, NULL};
    minnorm_ok(&p, z, w);
    cr_expect(z[0] == 0, "z1 = %.17g", z[0]);
    cr_expect(fabs(z[1] - 5e-8) <= 1e-9 * 5e-8 && fabs(z[2] - 5e-8) <= 1e-9 * 5e-8, "z2 = %.17g, z3 = %.17g, want 5e-8",
              z[1], z[2]);
}

/* crash-eb99...: row 1 a box z1 in (-inf, 1], rows 2 to 4 complementarity, row 5 an equality;
 * a = -1000 z1 + 1e-7 (z5 + 1):
 *   w1 = a - 1000 z2,  w2 = a - 1000 z2 - 0.5 z3,  w3 = a - 1e-14 z3,  w4 = a + 0.5 z4,
 *   w5 = a + 1e-7 z4 = 0.
 * Row 5 gives a = -1e-7 z4, so w4 = (0.5 - 1e-7) z4 and z4 w4 = 0 gives z4 = 0, a = 0; then
 * w3 = -1e-14 z3 >= 0 gives z3 = 0, w2 = -1000 z2 >= 0 gives z2 = 0, and w1 = 0 leaves z1 free
 * in its box: the solutions are 1000 z1 = 1e-7 (1 + z5), z1 <= 1, of minimal norm at
 * z5 = -1e-20 / (1 + 1e-20), z1 = 1e-10: |z|^2 = 1e-20. The answer's own piece was read as empty
 * (rounding in its null space where z3 = z4 = 0) and z5 = 1.3e-8 stayed (|z|^2 = 1.7e-16). */
Test(fuzz_cases, the_own_piece_keeps_the_zeros_its_rows_fix)
{
    double M[25] = {-1000, -1000, -1000, -1000, -1000, -1000, -1000, 0, 0, 0, 0, -0.5, -1e-14, 0, 0,
                    0, 0, 0, 0.5, 1e-7, 1e-7, 1e-7, 1e-7, 1e-7, 1e-7};
    double q[5] = {1e-7, 1e-7, 1e-7, 1e-7, 1e-7}, lo[5] = {-INFINITY, 0, 0, 0, 0}, hi[5] = {1, 0, 0, 0, 0};
    double z[5], w[5];
    nsdae_row_kind kind[5] = {NSDAE_ROW_BOX, NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_COMPLEMENTARITY,
                              NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_EQUALITY};
    nsdae_mlcp p = {5, M, q, kind, lo, hi};
    minnorm_ok(&p, z, w);
    cr_expect(fabs(z[0] - 1e-10) <= 1e-6 * 1e-10, "z1 = %.17g, want 1e-10", z[0]);
    for (int i = 1; i < 5; i++)
        cr_expect(fabs(z[i]) <= 1e-15, "z%d = %.17g, want 0 (to 1e-15)", i + 1, z[i]);
}

/* crash-daba...: rows 1 and 4 equalities, row 2 a box z2 in [-1, inf), row 3 complementarity:
 *   w1 = 3 z1 + 1e-7 (z3 + z4 + 1) = 0,  w2 = w1 + 1e-7 z2,  w3 = 1e6 z1 + 1e-7 (z3 + z4),
 *   w4 = -2 z1 - 0.5 z2 + 1e-7 z3 + 5e-9 z4 + 1e-7 = 0.
 * w2 = 1e-7 z2 with z2 >= -1: z2 = 0 (at lo, w2 = -1e-7 < 0). With z3 = 0, row 1 gives
 * z1 = -1e-7 (z4 + 1) / 3 and row 4 z4 = -5e-7 / 2.15e-7 = -100/43, so z1 = 1e-7 * 19/43 and
 * w3 = 0.044 > 0; z3 > 0 would need w3 = 0, which rows 1 and 4 leave negative. The unique
 * solution (1e-7 * 19/43, 0, 0, -100/43) was answered as (4.4308e-8, -5.3e-10, 0, -2.32925):
 * every row within its tolerance, the point 0.16 % off, |z|^2 5.4254 against 5.4083. */
Test(fuzz_cases, an_ill_conditioned_unique_point_is_solved_on_its_own_pattern)
{
    double M[16] = {3, 3, 1e6, -2, 0, 1e-7, 0, -0.5, 1e-7, 1e-7, 1e-7, 1e-7, 1e-7, 1e-7, 1e-7, 5e-9};
    double q[4] = {1e-7, 1e-7, 0, 1e-7}, lo[4] = {0, -1, 0, 0}, hi[4] = {0, INFINITY, 0, 0}, z[4], w[4];
    nsdae_row_kind kind[4] = {NSDAE_ROW_EQUALITY, NSDAE_ROW_BOX, NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_EQUALITY};
    nsdae_mlcp p = {4, M, q, kind, lo, hi};
    minnorm_ok(&p, z, w);
    double want[4] = {1e-7 * 19 / 43, 0, 0, -100.0 / 43};
    cr_expect(fabs(z[0] - want[0]) <= 1e-9 * want[0], "z1 = %.17g, want %.17g", z[0], want[0]);
    cr_expect(fabs(z[1]) <= 1e-15 && fabs(z[2]) <= 1e-15, "z2 = %.17g, z3 = %.17g, want 0", z[1], z[2]);
    cr_expect(fabs(z[3] - want[3]) <= 1e-9 * fabs(want[3]), "z4 = %.17g, want %.17g", z[3], want[3]);
}

/* crash-214c...: rows 1 and 6 boxes (z1 in [-1, 0], z6 in [-1, 1]), 2 and 4 complementarity, 3 and
 * 5 equalities:
 *   w1 = -3 z2 - z3 - 1e-6 z4 + 1e6 z5 - z6 + 0.5,  w2 = 0.5 z1 + 0.001 z3 - 1e-6 z6 + 1,
 *   w3 = -1e-6 z1 - 0.5 z2 = 0,  w4 = 2 z1 + 10 z2 + 3 z3 + 0.5 z4 + 0.5,
 *   w5 = -1000 z1 - 2 z2 - 3 z4 + 3 z6 - 0.5 = 0,  w6 = z1 + 1e6 z2 + 0.5 z3 + 0.001 z5 + 2 z6 + 2.
 * z1 < 0 would make z2 = -2e-6 z1 > 0, so w2 = 0 and z1 = -2 - 0.002 z3 + ... >= -1 needs
 * z3 <= -500. With z1 = z2 = 0: row 5 gives z6 = z4 + 1/6; z4 = 0 leaves w4 = 3 z3 + 0.5 >= 0 and
 * (z6 inside its box, w6 = 0) z5 = -1000 (0.5 z3 + 7/3), whose norm falls as z3 falls down to
 * its end z3 = -1/6: z = (0, 0, -1/6, 0, -2250, 1/6), w1 = -2.25e9 (z1 at hi). z4 > 0 (w4 = 0)
 * makes |z5| = 1000 (23/12 z4 + 9/4) larger. Minimal norm said "no solution": its one feasible
 * leaf's point failed the rows, and the exact LP's search asked only the empty leaves. */
Test(fuzz_cases, the_exact_search_asks_a_leaf_whose_point_failed)
{
    double M[36] = {0, 0.5, -1e-6, 2, -1000, 1, -3, 0, -0.5, 10, -2, 1e6, -1, 0.001, 0, 3, 0, 0.5,
                    -1e-6, 0, 0, 0.5, -3, 0, 1e6, 0, 0, 0, 0, 0.001, -1, -1e-6, 0, 0, 3, 2};
    double q[6] = {0.5, 1, 0, 0.5, -0.5, 2}, lo[6] = {-1, 0, 0, 0, 0, -1}, hi[6] = {0, 0, 0, 0, 0, 1};
    double z[6], w[6];
    nsdae_row_kind kind[6] = {NSDAE_ROW_BOX, NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_EQUALITY,
                              NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_EQUALITY, NSDAE_ROW_BOX};
    nsdae_mlcp p = {6, M, q, kind, lo, hi};
    minnorm_ok(&p, z, w);
    /* to 1e-8: the rows hold to 1e-9 of their terms (the contract), and entries from 1e-6 to 1e6
     * leave the point itself a few times that off (z5 = -2249.9999946 is accepted) */
    double want[6] = {0, 0, -1.0 / 6, 0, -2250, 1.0 / 6};
    for (int i = 0; i < 6; i++)
        cr_expect(fabs(z[i] - want[i]) <= 1e-8 * (1 + fabs(want[i])), "z%d = %.17g, want %.17g", i + 1, z[i], want[i]);
}

/* crash-cf03...: rows 1, 3, 4 equalities, row 2 a box z2 in (-inf, 1]:
 *   w1 = 1e-7 z2 + 10 = 0,  w2 = -3 z1 + 10 z2 + 1e-7 z4,  w3 = 1e-7 z4 = 0,  w4 = -1e-6 z4 = 0.
 * z2 = -1e8 (inside its box, so w2 = 0), z4 = 0, z1 = 10 z2 / 3, and z3 enters no row: the
 * solutions are (-1e9/3, -1e8, z3, 0), minimal at z3 = 0. Its terms (1e9) are far beyond q's
 * (10), so lcp/check.c re-solves its pattern; rows 3 and 4 both fix z4, an overdetermined
 * system that the Ruiz-balanced re-solve refused, and minimal norm said "no solution". */
Test(fuzz_cases, an_overdetermined_consistent_pattern_proves_a_far_point)
{
    double M[16] = {0, -3, 0, 0, 1e-7, 10, 0, 0, 0, 0, 0, 0, 0, 1e-7, 1e-7, -1e-6};
    double q[4] = {10, 0, 0, 0}, lo[4] = {0, -INFINITY, 0, 0}, hi[4] = {0, 1, 0, 0}, z[4], w[4];
    nsdae_row_kind kind[4] = {NSDAE_ROW_EQUALITY, NSDAE_ROW_BOX, NSDAE_ROW_EQUALITY, NSDAE_ROW_EQUALITY};
    nsdae_mlcp p = {4, M, q, kind, lo, hi};
    minnorm_ok(&p, z, w);
    cr_expect(fabs(z[0] + 1e9 / 3) <= 1e-9 * 1e9 / 3, "z1 = %.17g, want -1e9/3", z[0]);
    cr_expect(fabs(z[1] + 1e8) <= 1e-9 * 1e8, "z2 = %.17g, want -1e8", z[1]);
    cr_expect(fabs(z[2]) <= 1e-6 && fabs(z[3]) <= 1e-12, "z3 = %.17g, z4 = %.17g, want 0", z[2], z[3]);
}

/* crash-4695...: row 1 an equality, row 2 complementarity, rows 3 to 6 boxes z3 in [-1, 0],
 * z4 in [0, 1], z5 in [-1, 1], z6 in [0.5, 2.5]:
 *   w1 = 1e-7 z1 - 1e-6 z2 + 5e7 z4 = 0,  w2 = -1000 z1 - 1e-6 z2,  w3 = -1e-6 z1,
 *   w4 = -1e-6 z1 - 2 z4,  w5 = -1e-6 z1 + 3 z3 - 2 z4,  w6 = -1e-6 z1 - 2 z4.
 * z6 >= 0.5 in every solution, and (0, 0, 0, 0, 0, 0.5) solves (w = 0: z4 and z6 at their
 * lower ends with w >= 0, z3 at hi with w3 = 0, z2 = 0 with w2 = 0), so it is the minimal-norm
 * solution, |z|^2 = 0.25. Where the box rows split into two pairs, a leaf's QP in reduced
 * coordinates failed every route; minimal norm and the enumeration both refused ("linear algebra
 * failed"). Each now minimises such a leaf's piece in the problem's own coordinates. */
Test(fuzz_cases, a_leaf_the_reduced_coordinates_fail_is_solved_in_its_own)
{
    double M[36] = {1e-7, -1000, -1e-6, -1e-6, -1e-6, -1e-6, -1e-6, -1e-6, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0,
                    5e7, 0, 0, -2, -2, -2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    double q[6] = {0}, lo[6] = {0, 0, -1, 0, -1, 0.5}, hi[6] = {0, 0, 0, 1, 1, 2.5}, z[6], w[6];
    nsdae_row_kind kind[6] = {NSDAE_ROW_EQUALITY, NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_BOX,
                              NSDAE_ROW_BOX, NSDAE_ROW_BOX, NSDAE_ROW_BOX};
    nsdae_mlcp p = {6, M, q, kind, lo, hi};
    minnorm_ok(&p, z, w);
    for (int i = 0; i < 5; i++)
        cr_expect(fabs(z[i]) <= 1e-12, "z%d = %.17g, want 0", i + 1, z[i]);
    cr_expect(fabs(z[5] - 0.5) <= 1e-15, "z6 = %.17g, want 0.5", z[5]);
    nsdae_lcp_solution_set *set = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_lcp_enumerate(&p, &set, &err), NSDAE_OK, "%s", err.message);
    double best = INFINITY;
    for (int k = 0; k < set->count; k++) {
        double s = 0;
        for (int i = 0; i < 6; i++)
            s += set->pieces[k].z[i] * set->pieces[k].z[i];
        best = fmin(best, s);
    }
    cr_expect(fabs(best - 0.25) <= 1e-12, "the enumeration's smallest |z|^2 %.17g, want 0.25", best);
    nsdae_lcp_solution_set_free(set);
}

/* crash-12e4...: row 1 a box z1 in [-1, 0], rows 2, 3 equalities, row 4 complementarity; with
 * s = z2 + z3 + z4:  w1 = -3 z1 + 0.5 z2 - 3 (z3 + z4) - 3,  w2 = 1e-7 z1 - 3 s - 3 = 0,
 * w3 = -3 s - 3 = 0,  w4 = 0.5 z1 - 3 s - 3.
 * Row 3 gives s = -1, row 2 then z1 = 0 (its end hi), so w1 = 3.5 z2 <= 0 needs z2 <= 0, and
 * w4 = 0 leaves z4 >= 0 free: the solutions are (0, z2, -1 - z2 - z4, z4), z2 <= 0 <= z4, of
 * minimal norm at (0, -0.5, -0.5, 0), |z|^2 = 0.5. Every leaf of the branch and bound was found
 * empty and the first Lemke incumbent, (0, 0, -1, 0) to rounding, was answered. */
Test(fuzz_cases, leaves_all_empty_beside_the_incumbent_are_searched_again)
{
    double M[16] = {-3, 1e-7, 0, 0.5, 0.5, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3};
    double q[4] = {-3, -3, -3, -3}, lo[4] = {-1, 0, 0, 0}, hi[4] = {0, 0, 0, 0}, z[4], w[4];
    nsdae_row_kind kind[4] = {NSDAE_ROW_BOX, NSDAE_ROW_EQUALITY, NSDAE_ROW_EQUALITY, NSDAE_ROW_COMPLEMENTARITY};
    nsdae_mlcp p = {4, M, q, kind, lo, hi};
    minnorm_ok(&p, z, w);
    double want[4] = {0, -0.5, -0.5, 0};
    for (int i = 0; i < 4; i++)
        cr_expect(fabs(z[i] - want[i]) <= 1e-9, "z%d = %.17g, want %.17g", i + 1, z[i], want[i]);
}

/* crash-032c... (q = 0): rows 1 and 3 boxes z1 in [-1, 0], z3 in (-inf, 1], rows 2, 4, 5
 * equalities: w1 = 1e-7 z3, w2 = -2 z3 = 0, w3 = -z3, w4 = -1e-6 z1 + z2 = 0, w5 = 1e-7 z2 - 3 z3 = 0.
 * z3 = 0, then z2 = 0 and z1 = 0; z4 and z5 enter no row: the solutions are the plane
 * (0, 0, 0, z4, z5), whose minimal-norm point is 0. The enumeration listed nothing: every
 * pattern failed its sign tests, and the exact LP's patterns were listed only where their rows
 * determine a point. */
Test(fuzz_cases, a_plane_the_rows_leave_free_is_listed)
{
    double M[25] = {0, 0, 0, -1e-6, 0, 0, 0, 0, 1, 1e-7, 1e-7, -2, -1, 0, -3};
    double q[5] = {0}, lo[5] = {-1, 0, -INFINITY, 0, 0}, hi[5] = {0, 0, 1, 0, 0};
    nsdae_row_kind kind[5] = {NSDAE_ROW_BOX, NSDAE_ROW_EQUALITY, NSDAE_ROW_BOX, NSDAE_ROW_EQUALITY, NSDAE_ROW_EQUALITY};
    nsdae_mlcp p = {5, M, q, kind, lo, hi};
    nsdae_lcp_solution_set *set = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_lcp_enumerate(&p, &set, &err), NSDAE_OK, "%s", err.message);
    int zero = 0;
    for (int k = 0; k < set->count; k++) {
        double s = 0;
        for (int i = 0; i < 5; i++)
            s += fabs(set->pieces[k].z[i]);
        zero |= s <= 1e-12;
    }
    cr_expect(zero, "no listed piece has its point at 0 (%d pieces)", set->count);
    nsdae_lcp_solution_set_free(set);
}

/* crash-4de6...: w1 = 1e-7 (row 1 complementarity), w2 = -1000 z2 - 1e11 (row 2, z2 in [0, 1]).
 * w1 > 0 gives z1 = 0, and w2 < 0 on the whole box gives z2 = 1 at hi: the one solution (0, 1).
 * The enumeration also listed the continuum "z2 free, w2 = 0" by (0, 0.5), whose row agrees in
 * the equilibrated units only to their residual tolerance: no solution at all. */
Test(fuzz_cases, a_listed_continuum_solves_the_rows)
{
    double M[4] = {0, 0, 0, -1000}, q[2] = {1e-7, -1e11}, lo[2] = {0, 0}, hi[2] = {0, 1};
    nsdae_row_kind kind[2] = {NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_BOX};
    nsdae_mlcp p = {2, M, q, kind, lo, hi};
    nsdae_lcp_solution_set *set = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_lcp_enumerate(&p, &set, &err), NSDAE_OK, "%s", err.message);
    cr_expect(set->count >= 1, "nothing listed");
    for (int k = 0; k < set->count; k++)
        cr_expect(fabs(set->pieces[k].z[0]) <= 1e-12 && fabs(set->pieces[k].z[1] - 1) <= 1e-12,
                  "piece %d (dimension %d) at (%.17g, %.17g), want (0, 1)", k, set->pieces[k].dimension,
                  set->pieces[k].z[0], set->pieces[k].z[1]);
    nsdae_lcp_solution_set_free(set);
}

/* crash-fec7... (fast path): rows 1 to 3 complementarity, row 4 an equality (z4 free):
 *   w1 = 1e-7 (z1 + z3) - 0.5,  w2 = 1e-7 z1 + 1e6 z4,  w3 = 0,  w4 = 1e-7 z1 + 5e7 z2 - 0.5 z3 = 0.
 * z1 = 0 needs z3 >= 5e6 (|z|^2 >= 2.5e13). With z1 > 0, z1 + z3 = 5e6 and z2 = (0.5 z3 -
 * 1e-7 z1) / 5e7; z2 = 0 fixes z3 = 2e-7 z1 (|z|^2 = 2.5e13 again), while z2 > 0 needs w2 = 0,
 * z4 = -1e-13 z1 (free: an equality's variable), and leaves z1 + z3 = 5e6 to minimise over:
 * z1 = z3 = 2.5e6, z2 = 0.025 - 5e-9, z4 = -2.5e-7, |z|^2 = 1.25e13. The fast path found that
 * point; lcp/check.c's far-point test (its terms 1.25e6 against q's 0.5) re-solved its pattern
 * to the equations' minimal-norm point, which has z2 < 0, and rejected it: the answer was
 * (5e6, 0, 1, 0), twice the norm. */
Test(fuzz_cases, a_continuums_minimiser_far_out_is_kept)
{
    double M[16] = {1e-7, 1e-7, 0, 1e-7, 0, 0, 0, 5e7, 1e-7, 0, 0, -0.5, 0, 1e6, 0, 0};
    double q[4] = {-0.5, 0, 0, 0}, z[4], w[4];
    nsdae_row_kind kind[4] = {NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_COMPLEMENTARITY,
                              NSDAE_ROW_EQUALITY};
    nsdae_mlcp p = {4, M, q, kind, NULL, NULL};
    minnorm_ok(&p, z, w);
    double want[4] = {2.5e6, 0.025 - 5e-9, 2.5e6, -2.5e-7};
    for (int i = 0; i < 4; i++)
        cr_expect(fabs(z[i] - want[i]) <= 1e-6 * fabs(want[i]), "z%d = %.17g, want %.17g", i + 1, z[i], want[i]);
}

/* crash-eca3...: rows 1, 3, 5, 6 complementarity, row 2 a box z2 in [-1, 0], row 4 an equality:
 *   w1 = 2 z1 + 2 z3 + 10 z4 - 1e-6,  w2 = -z2 + 0.5 z6,  w3 = -2 z1 + 1e6 z2 + 0.5 z4 - z5,
 *   w4 = z2 + 3e-8 z6 = 0,  w5 = 0,  w6 = z2 + 3 z5.
 * w5 = 0 leaves z5 >= 0 free; z6 >= 0 is minimal at 0, and then row 4 gives z2 = 0. z1 = 0
 * needs |z|^2 >= 1e-14 (z4 >= 1e-7, or z3 >= 5e-7 with z4 = 0). With z1 > 0 (w1 = 0): z3 = 0
 * (w3 >= 0) gives at best (2, 0, 0, 10) 1e-6 / 104, |z|^2 = 9.615e-15, z5 = 0; z3 > 0 needs
 * w3 = 0, z4 = 4 z1 + 2 z5, so 42 z1 + 2 z3 + 20 z5 = 1e-6 and |z|^2 = 17 z1^2 + 16 z1 z5 +
 * 5 z5^2 + z3^2, whose minimum (Lagrange: z3 = l, [34 16; 16 10] (z1, z5) = l (42, 20), so
 * z1 = 100 l / 84, z5 = 8 l / 84, l = 84e-6 / 4528) is z = (100, 0, 84, 416, 8, 0) 1e-6 / 4528,
 * |z|^2 = 9.275e-15, the minimum. Its leaf's point failed the caller's rows and the leaf was
 * dropped; the answer was the other piece's 9.615e-15. */
Test(fuzz_cases, a_leaf_whose_point_fails_is_minimised_in_its_own_coordinates)
{
    double M[36] = {2, 0, -2, 0, 0, 0, 0, -1, 1e6, 1, 0, 1, 2, 0, 0, 0, 0, 0,
                    10, 0, 0.5, 0, 0, 0, 0, 0, -1, 0, 0, 3, 0, 0.5, 0, 3e-8, 0, 0};
    double q[6] = {-1e-6, 0, 0, 0, 0, 0}, lo[6] = {0, -1, 0, 0, 0, 0}, hi[6] = {0, 0, 0, 0, 0, 0}, z[6], w[6];
    nsdae_row_kind kind[6] = {NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_BOX, NSDAE_ROW_COMPLEMENTARITY,
                              NSDAE_ROW_EQUALITY, NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_COMPLEMENTARITY};
    nsdae_mlcp p = {6, M, q, kind, lo, hi};
    minnorm_ok(&p, z, w);
    double want[6] = {100e-6 / 4528, 0, 84e-6 / 4528, 416e-6 / 4528, 8e-6 / 4528, 0};
    for (int i = 0; i < 6; i++)
        cr_expect(fabs(z[i] - want[i]) <= 1e-6 * 1e-7, "z%d = %.17g, want %.17g", i + 1, z[i], want[i]);
}

/* crash-9c18...: rows 1, 3, 6 boxes z1 in [-1, 1], z3 in [-1, 0], z6 in [-1, 1], rows 2 and 5
 * equalities, row 4 complementarity:
 *   w1 = -3 z2 + 3 z4 - 3 z6,  w2 = 0.5 (z1 + z5) = 0,  w3 = -1e-6 (z1 + z5) - 0.5 (z2 + z6) + 1e-11 z4,
 *   w4 = 2 (z1 + z5) + 10 (z2 + z6) + z4,  w5 = -1000 (z1 + z5) - 1e-6 (z2 + z6) = 0,
 *   w6 = -2 (z1 + z5) + 3 z4 + 2.
 * Rows 2 and 5 give z5 = -z1, z6 = -z2; then w4 = z4 gives z4 = 0, so w1 = w3 = 0 (z1, z3 free in
 * their boxes) and w6 = 2 > 0 puts z6 at lo: z2 = 1. The solutions (z1, 1, z3, 0, -z1, -1) are of
 * minimal norm at z1 = z3 = 0, |z|^2 = 2. The elimination of rows 2 and 5 (a block of condition
 * 2e9 after the box shifts) left r0 = 5.2e-9 and 3.2e-10 on the pairs of z1 and z3, exactly 0,
 * and the presolve's sign rule fixed both at their lower ends: (-1, 1, -1, 0, 1, -1), |z|^2 = 5. */
Test(fuzz_cases, the_presolve_does_not_fix_a_pair_on_elimination_rounding)
{
    double M[36] = {0, 0.5, -1e-6, 2, -1000, -2, -3, 0, -0.5, 10, -1e-6, 0, 0, 0, 0, 0, 0, 0,
                    3, 0, 1e-11, 1, 0, 3, 0, 0.5, -1e-6, 2, -1000, -2, -3, 0, -0.5, 10, -1e-6, 0};
    double q[6] = {0, 0, 0, 0, 0, 2}, lo[6] = {-1, 0, -1, 0, 0, -1}, hi[6] = {1, 0, 0, 0, 0, 1}, z[6], w[6];
    nsdae_row_kind kind[6] = {NSDAE_ROW_BOX, NSDAE_ROW_EQUALITY, NSDAE_ROW_BOX,
                              NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_EQUALITY, NSDAE_ROW_BOX};
    nsdae_mlcp p = {6, M, q, kind, lo, hi};
    minnorm_ok(&p, z, w);
    double want[6] = {0, 1, 0, 0, 0, -1};
    for (int i = 0; i < 6; i++)
        cr_expect(fabs(z[i] - want[i]) <= 1e-8, "z%d = %.17g, want %.17g", i + 1, z[i], want[i]);
}

/* crash-daa2...: rows 1, 3, 4 equalities, row 2 complementarity:
 *   w1 = -1e-6 z2 - 0.5 z3 + 1e-7 (z4 + 1) = 0,  w2 = 3 z1 + 0.5 z2 - 1e-5 z3 - z4 + 1e-7,
 *   w3 = -0.5 (z1 + z2) + 1e-7 (z3 + z4 + 1) = 0,  w4 = -0.5 (z1 + z2) + 1e-7 z4 = 0.
 * Rows 3 and 4 give z3 = -1; with z2 = 0 row 1 gives z4 = -5000001 and row 4 z1 = -1.0000002,
 * where w2 = 5000001 - 3.0000006 + 1.01e-5 > 0: a solution. The equality block has rank 3 with
 * its third singular value 1e-13 of the first; read as rank 2 it was "inconsistent" and the
 * enumeration listed nothing. Not empty: it lists a solution or refuses. */
Test(fuzz_cases, an_equality_block_read_as_inconsistent_is_checked_exactly)
{
    double M[16] = {0, 3, -0.5, -0.5, -1e-6, 0.5, -0.5, -0.5, -0.5, -1e-5, 1e-7, 0, 1e-7, -1, 1e-7, 1e-7};
    double q[4] = {1e-7, 1e-7, 1e-7, 0};
    nsdae_row_kind kind[4] = {NSDAE_ROW_EQUALITY, NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_EQUALITY, NSDAE_ROW_EQUALITY};
    nsdae_mlcp p = {4, M, q, kind, NULL, NULL};
    nsdae_lcp_solution_set *set = NULL;
    nsdae_error err = {0};
    nsdae_status st = nsdae_lcp_enumerate(&p, &set, &err);
    cr_expect(st == NSDAE_NUMERICAL || (st == NSDAE_OK && set->count > 0), "status %d, %d pieces: %s", st,
              set ? set->count : -1, err.message);
    nsdae_lcp_solution_set_free(set);
}

/* crash-cfa7...: rows 1, 2 boxes z1, z2 in [-1, 0], rows 3 and 5 equalities, row 4
 * complementarity; S = z3 + z4 + z5:
 *   w1 = z2 + 1e-7 (S + 1),  w2 = z1 + z2 + 1e-7 S,  w3 = z1 + 1e-7 S = 0,
 *   w4 = 0.001 z1 + z2 + 1e-7 S,  w5 = z1 + 1e-7 (z2 + S) = 0.
 * Rows 3 and 5 give z2 = 0 and z1 = -1e-7 S, so w2 = 0 and w1 = 1e-7 (S + 1). z1 inside its box
 * needs S = -1, z1 = 1e-7 > 0: no; z1 = 0 (hi) needs w1 = 1e-7 <= 0: no; z1 = -1 (lo): S = 1e7,
 * w1 > 0, and w4 = 0.999e-7 S > 0 gives z4 = 0: z3 + z5 = 1e7, of minimal norm at
 * (-1, 0, 5e6, 0, 5e6). Minimal norm said "no solution": every node of the reduced problem,
 * the root included, was empty to the exact LP on its rows, which carry the elimination's
 * rounding. */
Test(fuzz_cases, no_solution_is_said_only_once_the_callers_patterns_agree)
{
    double M[25] = {0, 1, 1, 0.001, 1, 1, 1, 0, 1, 1e-7, 1e-7, 1e-7, 1e-7, 1e-7, 1e-7,
                    1e-7, 1e-7, 1e-7, 1e-7, 1e-7, 1e-7, 1e-7, 1e-7, 1e-7, 1e-7};
    double q[5] = {1e-7, 0, 0, 0, 0}, lo[5] = {-1, -1, 0, 0, 0}, hi[5] = {0, 0, 0, 0, 0}, z[5], w[5];
    nsdae_row_kind kind[5] = {NSDAE_ROW_BOX, NSDAE_ROW_BOX, NSDAE_ROW_EQUALITY, NSDAE_ROW_COMPLEMENTARITY,
                              NSDAE_ROW_EQUALITY};
    nsdae_mlcp p = {5, M, q, kind, lo, hi};
    minnorm_ok(&p, z, w);
    double want[5] = {-1, 0, 5e6, 0, 5e6};
    for (int i = 0; i < 5; i++)
        cr_expect(fabs(z[i] - want[i]) <= 1e-8 * (1 + fabs(want[i])), "z%d = %.17g, want %.17g", i + 1, z[i], want[i]);
}

/* crash-6e08...: row 1 an equality, rows 2 and 5 complementarity, rows 3, 4 boxes z3 in [-1, 0],
 * z4 in [0.5, 2.5]:
 *   w1 = -1e-6 z1 - 1000 (z2 + z3) + 0.5 z5 = 0,  w2 = -1000 z1 + 0.5 z2 - 1,  w3 = -1000 z4 + 1e6,
 *   w4 = -1000 (z3 + z4 + z5) - 1000,  w5 = -1000 (z2 + z3 + z4) + 0.5 z5.
 * w3 > 0 on z4's box: z3 = -1. Then w4 = -1000 (z4 + z5) < 0 needs z4 = 2.5 at hi; w5 = 0 (z5 = 0
 * would need z2 <= -1.5) gives z5 = 2000 z2 + 3000, row 1 z1 = 2.5e9, and w2 = 0 (z2 = 0 leaves
 * w2 < 0) z2 = 5e12 + 2: the solution (2.5e9, 5e12 + 2, -1, 2.5, 1e16 + 7000), of a pattern whose
 * rows are singular to 1e-9 of their size. No point of it passes the far-point test, and the
 * enumeration listed nothing: it now refuses, as minimal norm does. */
Test(fuzz_cases, an_empty_list_beside_an_exactly_feasible_pattern_is_refused)
{
    double M[25] = {-1e-6, -1000, 0, 0, 0, -1000, 0.5, 0, 0, -1000, -1000, 0, 0, -1000, -1000,
                    0, 0, -1000, -1000, -1000, 0.5, 0, 0, -1000, 0.5};
    double q[5] = {0, -1, 1e6, -1000, 0}, lo[5] = {0, 0, -1, 0.5, 0}, hi[5] = {0, 0, 0, 2.5, 0};
    nsdae_row_kind kind[5] = {NSDAE_ROW_EQUALITY, NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_BOX, NSDAE_ROW_BOX,
                              NSDAE_ROW_COMPLEMENTARITY};
    nsdae_mlcp p = {5, M, q, kind, lo, hi};
    nsdae_lcp_solution_set *set = NULL;
    nsdae_error err = {0};
    nsdae_status st = nsdae_lcp_enumerate(&p, &set, &err);
    cr_expect(st == NSDAE_NUMERICAL || (st == NSDAE_OK && set->count > 0), "status %d, %d pieces", st,
              set ? set->count : -1);
    nsdae_lcp_solution_set_free(set);
    double z[5], w[5];
    nsdae_minnorm_spec spec = {NULL, NULL, 0, NULL, 0};
    st = nsdae_lcp_minnorm(&p, &spec, z, w, NULL, &err);
    cr_expect(st != NSDAE_NO_SOLUTION, "minimal norm says no solution");
}
