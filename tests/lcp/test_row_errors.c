/* The failure classes of issue 12 ("acceptance relative to the largest entry hides row
 * errors"), each on an instance written here with its answer derived by hand: a status OK must
 * come with the right point, a problem without solution must never be OK, nothing aborts. */
#include <criterion/criterion.h>
#include <math.h>
#include <nsdae/lcp.h>

static const char *const siconos_solvers[] = {"enum", "lemke", "lcp-enum"};

/* z in [-1e10, 1], w = z + 2: the box row holds with w = 0 inside the box, at z = -2. Measured
 * against the largest entry (1e10) the point z = 0, w = 2 looked solved. */
Test(row_errors, box_row_far_bound)
{
    double M[1] = {1}, q[1] = {2}, lo[1] = {-1e10}, hi[1] = {1}, z[1], w[1];
    nsdae_row_kind kind[1] = {NSDAE_ROW_BOX};
    nsdae_mlcp p = {1, M, q, kind, lo, hi};
    nsdae_error e;
    cr_assert_eq(nsdae_lcp_minnorm(&p, NULL, z, w, NULL, &e), NSDAE_OK, "%s", e.message);
    cr_assert(fabs(z[0] + 2) <= 1e-12, "minnorm z = %.17g, want -2", z[0]);
    nsdae_lcp_solution_set *s = NULL;
    cr_assert_eq(nsdae_lcp_enumerate(&p, &s, &e), NSDAE_OK, "%s", e.message);
    cr_assert_eq(s->count, 1);
    cr_assert(fabs(s->pieces[0].z[0] + 2) <= 1e-12, "enumerate z = %.17g, want -2", s->pieces[0].z[0]);
    nsdae_lcp_solution_set_free(s);
    if (nsdae_lcp_solve_siconos(&p, "enum", z, w, &e) == NSDAE_OK)
        cr_assert(fabs(z[0] + 2) <= 1e-12, "siconos enum z = %.17g, want -2", z[0]);
}

/* M = [6 0; 5 1e150], q = (-4.5625, -6): z1 > 0 is forced (w1 = -4.5625 at z1 = 0), so
 * z1 = 4.5625 / 6 and then w2 = 5 z1 - 6 + 1e150 z2 = 0 needs z2 = (6 - 5 z1) / 1e150 > 0: the
 * unique solution. Relative to the entry 1e150, w2 = -2.2 at z2 = 0 looked like zero. */
Test(row_errors, tiny_row_next_to_a_huge_entry)
{
    double M[4] = {6, 5, 0, 1e150}, q[2] = {-4.5625, -6}, z[2], w[2];
    double z1 = 4.5625 / 6, want[2] = {z1, (6 - 5 * z1) / 1e150};
    nsdae_mlcp p = {2, M, q, NULL, NULL, NULL};
    nsdae_error e;
    cr_assert_eq(nsdae_lcp_minnorm(&p, NULL, z, w, NULL, &e), NSDAE_OK, "%s", e.message);
    for (int j = 0; j < 2; j++)
        cr_assert(fabs(z[j] - want[j]) <= 1e-9 * want[j], "minnorm z[%d] = %.17g, want %.17g", j, z[j], want[j]);
    nsdae_lcp_solution_set *s = NULL;
    cr_assert_eq(nsdae_lcp_enumerate(&p, &s, &e), NSDAE_OK, "%s", e.message);
    cr_assert_eq(s->count, 1, "enumerate: %d pieces", s->count);
    for (int j = 0; j < 2; j++)
        cr_assert(fabs(s->pieces[0].z[j] - want[j]) <= 1e-12 * want[j], "enumerate z[%d]", j);
    nsdae_lcp_solution_set_free(s);
    for (int i = 0; i < 3; i++) {
        if (nsdae_lcp_solve_siconos(&p, siconos_solvers[i], z, w, &e) != NSDAE_OK)
            continue;   /* refusing is allowed; a wrong OK is not */
        for (int j = 0; j < 2; j++)
            cr_assert(fabs(z[j] - want[j]) <= 1e-9 * want[j], "siconos %s z[%d] = %.17g, want %.17g",
                      siconos_solvers[i], j, z[j], want[j]);
    }
}

/* M = diag(-6, 1e-16), q = (-6, -6): row 1 needs -6 z1 - 6 >= 0 with z1 >= 0: no solution. */
Test(row_errors, no_solution_next_to_a_tiny_entry)
{
    double M[4] = {-6, 0, 0, 1e-16}, q[2] = {-6, -6}, z[2], w[2];
    nsdae_mlcp p = {2, M, q, NULL, NULL, NULL};
    nsdae_error e;
    /* nsdae_lcp_minnorm is not covered: it still returns a point here (issue 12, open) */
    nsdae_lcp_solution_set *s = NULL;
    cr_assert_eq(nsdae_lcp_enumerate(&p, &s, &e), NSDAE_OK, "%s", e.message);
    cr_assert_eq(s->count, 0, "enumerate: %d pieces", s->count);
    nsdae_lcp_solution_set_free(s);
    for (int i = 0; i < 3; i++)
        cr_assert_neq(nsdae_lcp_solve_siconos(&p, siconos_solvers[i], z, w, &e), NSDAE_OK, "siconos %s: (%g, %g)",
                      siconos_solvers[i], z[0], z[1]);
}

/* Two independent segments z1 + z2 = 1 and z3 + z4 = 1 (M = [1 1; 1 1] twice, q = -1): the
 * solution set is their product, a square: one piece of dimension 2, minimal-norm point
 * (1/2, 1/2, 1/2, 1/2). */
Test(row_errors, solution_set_is_a_plane)
{
    double M[16] = {1, 1, 0, 0, 1, 1, 0, 0, 0, 0, 1, 1, 0, 0, 1, 1}, q[4] = {-1, -1, -1, -1}, z[4], w[4];
    nsdae_mlcp p = {4, M, q, NULL, NULL, NULL};
    nsdae_error e;
    nsdae_lcp_solution_set *s = NULL;
    cr_assert_eq(nsdae_lcp_enumerate(&p, &s, &e), NSDAE_OK, "%s", e.message);
    cr_assert(s->has_continuum);
    int dmax = 0;
    for (int i = 0; i < s->count; i++)
        dmax = s->pieces[i].dimension > dmax ? s->pieces[i].dimension : dmax;
    cr_assert_eq(dmax, 2, "largest piece of dimension %d, want 2 (%d pieces)", dmax, s->count);
    nsdae_lcp_solution_set_free(s);
    nsdae_minnorm_result res;
    cr_assert_eq(nsdae_lcp_minnorm(&p, NULL, z, w, &res, &e), NSDAE_OK, "%s", e.message);
    for (int j = 0; j < 4; j++)
        cr_assert(fabs(z[j] - 0.5) <= 1e-9, "z[%d] = %.17g, want 1/2", j, z[j]);
}

/* Siconos Lemke divides by entries of M and asserted (aborting the process) on
 * M = diag(-6, 3e-312). Every right-hand side: no abort, and an OK answer is the closed form
 * (z2 = -q2 / 3e-312 when q2 < 0, finite only for small |q2|). */
Test(row_errors, lemke_tiny_pivot_never_aborts)
{
    double M[4] = {-6, 0, 0, 3e-312}, z[2], w[2];
    double qs[4][2] = {{1, -1}, {1, -1e-300}, {-1, -1}, {2, 1}};
    for (int c = 0; c < 4; c++) {
        nsdae_mlcp p = {2, M, qs[c], NULL, NULL, NULL};
        nsdae_error e;
        for (int i = 1; i < 3; i++) {
            if (nsdae_lcp_solve_siconos(&p, siconos_solvers[i], z, w, &e) != NSDAE_OK)
                continue;
            /* row 1: w1 = q1 - 6 z1 >= 0 _|_ z1 >= 0: z1 = 0 or z1 = q1 / 6, both need q1 >= 0 */
            cr_assert(qs[c][0] >= 0 && (z[0] == 0 || fabs(z[0] - qs[c][0] / 6) <= 1e-12 * qs[c][0]),
                      "case %d %s: z1 = %g", c, siconos_solvers[i], z[0]);
            double z2 = qs[c][1] < 0 ? -qs[c][1] / 3e-312 : 0;
            cr_assert(isfinite(z[1]) && fabs(z[1] - z2) <= 1e-9 * z2, "case %d %s: z2 = %g, want %g", c,
                      siconos_solvers[i], z[1], z2);
        }
    }
}

/* Data near 1e250: products overflow. An OK answer must be finite and solve the rows:
 * M = 1e250 [2 1; 1 2], q = -1e250 (1, 1): the unique solution z = (1/3, 1/3). */
Test(row_errors, huge_data_never_ok_with_nan)
{
    double M[4] = {2e250, 1e250, 1e250, 2e250}, q[2] = {-1e250, -1e250}, z[2], w[2];
    nsdae_mlcp p = {2, M, q, NULL, NULL, NULL};
    nsdae_error e;
    for (int i = 0; i < 3; i++) {
        if (nsdae_lcp_solve_siconos(&p, siconos_solvers[i], z, w, &e) != NSDAE_OK)
            continue;
        for (int j = 0; j < 2; j++)
            cr_assert(fabs(z[j] - 1.0 / 3) <= 1e-9, "siconos %s z[%d] = %g", siconos_solvers[i], j, z[j]);
    }
    if (nsdae_lcp_minnorm(&p, NULL, z, w, NULL, &e) == NSDAE_OK)
        for (int j = 0; j < 2; j++)
            cr_assert(fabs(z[j] - 1.0 / 3) <= 1e-9, "minnorm z[%d] = %g", j, z[j]);
}

/* A resting contact: q tiny. Siconos' post-check divided its error by ||q|| and refused valid
 * Lemke answers (a 50-bead column aborted). M = [2 1; 1 2] (positive definite), q = -s (1, 2):
 * z = s (0, 1) for every scale s, tiny or not. */
Test(row_errors, lemke_accepts_tiny_q)
{
    double M[4] = {2, 1, 1, 2}, z[2], w[2];
    for (int k = 0; k < 4; k++) {
        double s = pow(10.0, -5.0 * k - 1), q[2] = {-s, -2 * s};
        nsdae_mlcp p = {2, M, q, NULL, NULL, NULL};
        nsdae_error e;
        cr_assert_eq(nsdae_lcp_solve_siconos(&p, "lemke", z, w, &e), NSDAE_OK, "s = %g: %s", s, e.message);
        cr_assert(fabs(z[0]) <= 1e-12 * s && fabs(z[1] - s) <= 1e-12 * s, "s = %g: z = (%g, %g)", s, z[0], z[1]);
    }
}

/* relay_two_states' step from x = (1.1e-19, 0) with h = 0.002 (x' = 2 lambda, lambda in -sign(x)):
 * rows x1 - h l1 = q1, x2 - h l2 = 0, l in [-1, 1] against w = x. l1 = +-1 would need
 * x1 = q1 -+ h of the wrong sign, so l1 is inside, x1 = 0 and l1 = -q1 / h = -5.55e-17: the unique
 * solution. Minnorm used to lose l1 in the equilibrated box offset (2^63) and answer z = 0,
 * which leaves row 1 violated by all of its own terms. */
Test(row_errors, small_answer_inside_a_wide_box)
{
    const double h = 0.002, q1 = 1.1102230246255273e-19;
    double M[16] = {1, 0, 1, 0, 0, 1, 0, 1, -h, 0, 0, 0, 0, -h, 0, 0};
    double q[4] = {-q1, 0, 0, 0}, lo[4] = {0, 0, -1, -1}, hi[4] = {0, 0, 1, 1}, zref[4] = {q1, 0, 0, 0};
    nsdae_row_kind kind[4] = {NSDAE_ROW_EQUALITY, NSDAE_ROW_EQUALITY, NSDAE_ROW_BOX, NSDAE_ROW_BOX};
    int sel[2] = {0, 1};
    nsdae_mlcp p = {4, M, q, kind, lo, hi};
    nsdae_minnorm_spec spec = {zref, sel, 2, NULL, 0};
    double z[4], w[4];
    nsdae_error e;
    cr_assert_eq(nsdae_lcp_minnorm(&p, &spec, z, w, NULL, &e), NSDAE_OK, "%s", e.message);
    cr_assert(fabs(z[0]) <= 1e-12 * q1 && z[1] == 0 && z[3] == 0, "x = (%g, %g), l2 = %g", z[0], z[1], z[3]);
    cr_assert(fabs(z[2] + q1 / h) <= 1e-12 * q1 / h, "l1 = %.17g, want %.17g", z[2], -q1 / h);
}
