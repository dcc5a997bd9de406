/* The hand-checked MLCPs of the brief and the Siconos notes: every number here is analytic. */
#include <criterion/criterion.h>
#include <math.h>
#include <nsdae/lcp.h>
#include <stdlib.h>
#include <string.h>

#define TOL 1e-10

static int has_point(const nsdae_lcp_solution_set *s, const double *z)
{
    for (int i = 0; i < s->count; i++) {
        double d = 0;
        for (int j = 0; j < s->size; j++)
            d = fmax(d, fabs(s->pieces[i].z[j] - z[j]));
        if (d < 1e-9)
            return 1;
    }
    return 0;
}

static nsdae_lcp_solution_set *enumerate_ok(const nsdae_mlcp *p)
{
    nsdae_lcp_solution_set *s = NULL;
    nsdae_error e = {0};
    cr_assert_eq(nsdae_lcp_enumerate(p, &s, &e), NSDAE_OK, "%s", e.message);
    cr_assert_not_null(s);
    return s;
}

/* ---- M = [1 1; 1 1], q = (-1, -1): the segment z1 + z2 = 1, z >= 0 ----------------------- */
static const double seg_M[4] = {1, 1, 1, 1}, seg_q[2] = {-1, -1};

Test(oracles, segment_is_one_continuum)
{
    nsdae_mlcp p = {2, seg_M, seg_q, NULL, NULL, NULL};
    nsdae_lcp_solution_set *s = enumerate_ok(&p);
    cr_assert_eq(s->count, 1);
    cr_assert_eq(s->has_continuum, 1);
    cr_assert_eq(s->pieces[0].is_point, 0);
    cr_assert_eq(s->pieces[0].dimension, 1);
    cr_assert_float_eq(s->pieces[0].z[0], 0.5, TOL);   /* minimal-norm point of the segment */
    cr_assert_float_eq(s->pieces[0].z[1], 0.5, TOL);
    nsdae_lcp_solution_set_free(s);
}

Test(oracles, segment_minnorm_interior_and_count)
{
    nsdae_mlcp p = {2, seg_M, seg_q, NULL, NULL, NULL};
    double z[2], w[2];
    nsdae_minnorm_result r;
    nsdae_minnorm_spec spec = {.count_solutions = 1};
    nsdae_error e = {0};
    cr_assert_eq(nsdae_lcp_minnorm(&p, &spec, z, w, &r, &e), NSDAE_OK, "%s", e.message);
    cr_assert_float_eq(z[0], 0.5, TOL);
    cr_assert_float_eq(z[1], 0.5, TOL);
    cr_assert_float_eq(r.objective, 0.25, TOL);
    cr_assert_eq(r.nsol, -1);
    cr_assert_eq(r.unique, 1);
    /* Reference point (1, 0) is itself a solution: objective 0 there. */
    double zref[2] = {1, 0};
    nsdae_minnorm_spec s2 = {.z_ref = zref};
    cr_assert_eq(nsdae_lcp_minnorm(&p, &s2, z, w, &r, &e), NSDAE_OK, "%s", e.message);
    cr_assert_float_eq(z[0], 1, TOL);
    cr_assert_float_eq(r.objective, 0, TOL);
    /* Objective on z1 only with reference 0.3: the minimiser (0.3, 0.7) is interior. */
    int sel[1] = {0};
    double zr[2] = {0.3, 0};
    nsdae_minnorm_spec s3 = {.z_ref = zr, .select = sel, .k = 1};
    cr_assert_eq(nsdae_lcp_minnorm(&p, &s3, z, w, &r, &e), NSDAE_OK, "%s", e.message);
    cr_assert_float_eq(z[0], 0.3, TOL);
    cr_assert_float_eq(z[1], 0.7, TOL);
    cr_assert_eq(r.unique, 1);
}

/* The solution set is the ray {(1, s): s >= 0} (w1 = z1 - 1, w2 = 0 for every z). With the
 * objective on z1 only it is flat along the ray: the minimal value is attained by a continuum
 * of z, so the minimiser is not unique; with the full objective it is (1, 0). */
Test(oracles, flat_objective_is_not_unique)
{
    double M[4] = {1, 0, 0, 0}, q[2] = {-1, 0};
    nsdae_mlcp p = {2, M, q, NULL, NULL, NULL};
    int sel[1] = {0};
    nsdae_minnorm_spec spec = {.select = sel, .k = 1, .count_solutions = 1};
    double z[2], w[2];
    nsdae_minnorm_result r;
    nsdae_error e = {0};
    cr_assert_eq(nsdae_lcp_minnorm(&p, &spec, z, w, &r, &e), NSDAE_OK, "%s", e.message);
    cr_assert_float_eq(r.objective, 0.5, TOL);
    cr_assert_float_eq(z[0], 1, TOL);
    cr_assert_eq(r.unique, 0);
    cr_assert_eq(r.nsol, -1);
    /* full objective: unique minimiser (1, 0) */
    cr_assert_eq(nsdae_lcp_minnorm(&p, NULL, z, w, &r, &e), NSDAE_OK, "%s", e.message);
    cr_assert_float_eq(z[1], 0, TOL);
    cr_assert_eq(r.unique, 1);
}

/* ---- M = [1 3; 3 1], q = (-1, -2): exactly three solutions ------------------------------- */
static const double three_M[4] = {1, 3, 3, 1}, three_q[2] = {-1, -2};
static const double three_sol[3][2] = {{0.625, 0.125}, {0, 2}, {1, 0}};

Test(oracles, three_solutions)
{
    nsdae_mlcp p = {2, three_M, three_q, NULL, NULL, NULL};
    nsdae_lcp_solution_set *s = enumerate_ok(&p);
    cr_assert_eq(s->count, 3);
    cr_assert_eq(s->has_continuum, 0);
    for (int i = 0; i < 3; i++)
        cr_assert(has_point(s, three_sol[i]), "missing solution %d", i);
    nsdae_lcp_solution_set_free(s);

    nsdae_error e = {0};
    cr_assert_eq(nsdae_lcp_enumerate_siconos_restart(&p, &s, &e), NSDAE_OK, "%s", e.message);
    cr_assert_eq(s->count, 3);
    for (int i = 0; i < 3; i++)
        cr_assert(has_point(s, three_sol[i]), "siconos restart misses solution %d", i);
    nsdae_lcp_solution_set_free(s);

    double z[2], w[2];
    nsdae_minnorm_result r;
    nsdae_minnorm_spec spec = {.count_solutions = 1};
    cr_assert_eq(nsdae_lcp_minnorm(&p, &spec, z, w, &r, &e), NSDAE_OK, "%s", e.message);
    cr_assert_float_eq(z[0], 0.625, TOL);
    cr_assert_float_eq(z[1], 0.125, TOL);
    cr_assert_eq(r.nsol, 3);
    cr_assert_eq(r.unique, 1);
    /* nearest to (0.9, 0.1) is (1, 0) */
    double zref[2] = {0.9, 0.1};
    nsdae_minnorm_spec s2 = {.z_ref = zref};
    cr_assert_eq(nsdae_lcp_minnorm(&p, &s2, z, w, &r, &e), NSDAE_OK, "%s", e.message);
    cr_assert_float_eq(z[0], 1, TOL);
    cr_assert_float_eq(z[1], 0, TOL);
    cr_assert_float_eq(r.objective, 0.01, TOL);
}

Test(oracles, three_solutions_tie_is_not_unique)
{
    /* A reference point equidistant from two solutions and farther from the third:
     * (2.5, 2) lies on the bisector 2x - 4y + 3 = 0 of (1, 0) and (0, 2), at squared distance
     * 6.25 from both (objective 3.125) and 7.03 from (0.625, 0.125). */
    nsdae_mlcp p = {2, three_M, three_q, NULL, NULL, NULL};
    double zref[2] = {2.5, 2};
    nsdae_minnorm_spec spec = {.z_ref = zref};
    double z[2], w[2];
    nsdae_minnorm_result r;
    nsdae_error e = {0};
    cr_assert_eq(nsdae_lcp_minnorm(&p, &spec, z, w, &r, &e), NSDAE_OK, "%s", e.message);
    cr_assert_float_eq(r.objective, 3.125, TOL);
    cr_assert_eq(r.unique, 0);
}

/* ---- M = [-1], q = (1): z = 0 and z = 1 ---------------------------------------------------- */
Test(oracles, scalar_two_solutions)
{
    double M[1] = {-1}, q[1] = {1};
    nsdae_mlcp p = {1, M, q, NULL, NULL, NULL};
    nsdae_lcp_solution_set *s = enumerate_ok(&p);
    cr_assert_eq(s->count, 2);
    double a[1] = {0}, b[1] = {1};
    cr_assert(has_point(s, a));
    cr_assert(has_point(s, b));
    nsdae_lcp_solution_set_free(s);
    double z[1], w[1];
    nsdae_minnorm_result r;
    nsdae_minnorm_spec spec = {.count_solutions = 1};
    nsdae_error e = {0};
    cr_assert_eq(nsdae_lcp_minnorm(&p, &spec, z, w, &r, &e), NSDAE_OK, "%s", e.message);
    cr_assert_float_eq(z[0], 0, TOL);
    cr_assert_float_eq(w[0], 1, TOL);
    cr_assert_eq(r.nsol, 2);
    double zref[1] = {0.8};
    nsdae_minnorm_spec s2 = {.z_ref = zref};
    cr_assert_eq(nsdae_lcp_minnorm(&p, &s2, z, w, &r, &e), NSDAE_OK, "%s", e.message);
    cr_assert_float_eq(z[0], 1, TOL);
}

/* ---- MLCP, 1 equality + 2 complementarity rows: u = 1/3, v = (1/3, 0) ---------------------- */
static const double mlcp_M[9] = {2, 1, 0, 1, 2, 1, 0, 1, 2}, mlcp_q[3] = {-1, -1, 1};
static const nsdae_row_kind mlcp_kind[3] = {NSDAE_ROW_EQUALITY, NSDAE_ROW_COMPLEMENTARITY,
                                            NSDAE_ROW_COMPLEMENTARITY};

Test(oracles, mlcp_unique)
{
    nsdae_mlcp p = {3, mlcp_M, mlcp_q, mlcp_kind, NULL, NULL};
    double expect[3] = {1.0 / 3, 1.0 / 3, 0};
    nsdae_lcp_solution_set *s = enumerate_ok(&p);
    cr_assert_eq(s->count, 1);
    cr_assert(has_point(s, expect));
    nsdae_lcp_solution_set_free(s);
    nsdae_error e = {0};
    cr_assert_eq(nsdae_lcp_enumerate_siconos_restart(&p, &s, &e), NSDAE_OK, "%s", e.message);
    cr_assert_eq(s->count, 1);
    cr_assert(has_point(s, expect));
    nsdae_lcp_solution_set_free(s);
    double z[3], w[3];
    cr_assert_eq(nsdae_lcp_solve_siconos(&p, "enum", z, w, &e), NSDAE_OK, "%s", e.message);
    for (int i = 0; i < 3; i++)
        cr_assert_float_eq(z[i], expect[i], TOL);
    cr_assert_float_eq(w[2], 4.0 / 3, TOL);
    nsdae_minnorm_result r;
    nsdae_minnorm_spec spec = {.count_solutions = 1};
    cr_assert_eq(nsdae_lcp_minnorm(&p, &spec, z, w, &r, &e), NSDAE_OK, "%s", e.message);
    for (int i = 0; i < 3; i++)
        cr_assert_float_eq(z[i], expect[i], TOL);
    cr_assert_eq(r.nsol, 1);
    cr_assert_eq(r.unique, 1);
}

/* The notes' MLCP with 4 solutions (1;0;0), (1;2;0), (1;0;1), (1;2;1): ENUM returns the
 * largest, the selection the smallest. Rows given interleaved to exercise the reordering. */
Test(oracles, notes_four_solutions_interleaved)
{
    /* original order (u, v1, v2): M = [1 0 0; 1 -1 0; 0 0 -1], q = (-1, 1, 1). Here the rows
     * and columns are permuted to (v1, u, v2). */
    double M[9] = {-1, 0, 0, /* col v1 */ 1, 1, 0, /* col u */ 0, 0, -1 /* col v2 */};
    double q[3] = {1, -1, 1};
    nsdae_row_kind k[3] = {NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_EQUALITY, NSDAE_ROW_COMPLEMENTARITY};
    nsdae_mlcp p = {3, M, q, k, NULL, NULL};
    nsdae_lcp_solution_set *s = enumerate_ok(&p);
    cr_assert_eq(s->count, 4);
    double sols[4][3] = {{0, 1, 0}, {2, 1, 0}, {0, 1, 1}, {2, 1, 1}};
    for (int i = 0; i < 4; i++)
        cr_assert(has_point(s, sols[i]));
    nsdae_lcp_solution_set_free(s);
    nsdae_error e = {0};
    cr_assert_eq(nsdae_lcp_enumerate_siconos_restart(&p, &s, &e), NSDAE_OK, "%s", e.message);
    cr_assert_eq(s->count, 4);
    for (int i = 0; i < 4; i++)
        cr_assert(has_point(s, sols[i]));
    nsdae_lcp_solution_set_free(s);
    double z[3], w[3];
    nsdae_minnorm_result r;
    nsdae_minnorm_spec spec = {.count_solutions = 1};
    cr_assert_eq(nsdae_lcp_minnorm(&p, &spec, z, w, &r, &e), NSDAE_OK, "%s", e.message);
    cr_assert_float_eq(z[0], 0, TOL);
    cr_assert_float_eq(z[1], 1, TOL);
    cr_assert_float_eq(z[2], 0, TOL);
    cr_assert_eq(r.nsol, 4);
    cr_assert_eq(nsdae_lcp_solve_siconos(&p, "enum", z, w, &e), NSDAE_OK, "%s", e.message);
    cr_assert(has_point(&(nsdae_lcp_solution_set){.size = 3, .count = 4,
                                                   .pieces = (nsdae_lcp_piece[]){{1, 0, sols[0]},
                                                                                 {1, 0, sols[1]},
                                                                                 {1, 0, sols[2]},
                                                                                 {1, 0, sols[3]}}},
                        z));
}

/* ---- box rows ------------------------------------------------------------------------------ */
/* Relay: x = 3 + lambda (equality row u - lambda - 3 = 0 in u = x), -u in N_[-1,1](lambda):
 * lambda interior needs u = 0, i.e. lambda = -3: outside; so lambda = -1, u = 2 (w = u >= 0). */
Test(box, relay_with_equality)
{
    double M[4] = {1, 1, -1, 0}, q[2] = {-3, 0}, lo[2] = {0, -1}, hi[2] = {0, 1};
    nsdae_row_kind k[2] = {NSDAE_ROW_EQUALITY, NSDAE_ROW_BOX};
    nsdae_mlcp p = {2, M, q, k, lo, hi};
    double z[2], w[2];
    nsdae_error e = {0};
    nsdae_minnorm_result r;
    nsdae_minnorm_spec spec = {.count_solutions = 1};
    cr_assert_eq(nsdae_lcp_minnorm(&p, &spec, z, w, &r, &e), NSDAE_OK, "%s", e.message);
    cr_assert_float_eq(z[0], 2, TOL);
    cr_assert_float_eq(z[1], -1, TOL);
    cr_assert_float_eq(w[1], 2, TOL);
    cr_assert_eq(r.nsol, 1);
    cr_assert_eq(nsdae_lcp_solve_siconos(&p, "enum", z, w, &e), NSDAE_OK, "%s", e.message);
    cr_assert_float_eq(z[1], -1, TOL);
    nsdae_lcp_solution_set *s = enumerate_ok(&p);
    cr_assert_eq(s->count, 1);
    nsdae_lcp_solution_set_free(s);
    /* u - lambda + 0.5 = 0: lambda = 0.5 is interior, so u = w = 0 */
    q[0] = 0.5;
    cr_assert_eq(nsdae_lcp_minnorm(&p, NULL, z, w, &r, &e), NSDAE_OK, "%s", e.message);
    cr_assert_float_eq(z[0], 0, TOL);
    cr_assert_float_eq(z[1], 0.5, TOL);
    /* at the upper bound: u - lambda + 3 = 0 -> lambda = 1, u = -2 (w <= 0 at hi) */
    q[0] = 3;
    cr_assert_eq(nsdae_lcp_minnorm(&p, NULL, z, w, &r, &e), NSDAE_OK, "%s", e.message);
    cr_assert_float_eq(z[1], 1, TOL);
    cr_assert_float_eq(z[0], -2, TOL);
}

/* Box row alone: w = z - 5 with z in [0, 2] -> z = 2, w = -3; one-sided and free variants. */
Test(box, one_sided_and_free)
{
    double M[1] = {1}, q[1] = {-5}, lo[1] = {0}, hi[1] = {2};
    nsdae_row_kind k[1] = {NSDAE_ROW_BOX};
    nsdae_mlcp p = {1, M, q, k, lo, hi};
    double z[1], w[1];
    nsdae_error e = {0};
    cr_assert_eq(nsdae_lcp_minnorm(&p, NULL, z, w, NULL, &e), NSDAE_OK, "%s", e.message);
    cr_assert_float_eq(z[0], 2, TOL);
    cr_assert_float_eq(w[0], -3, TOL);
    hi[0] = INFINITY;   /* z >= 0: z = 5 */
    cr_assert_eq(nsdae_lcp_minnorm(&p, NULL, z, w, NULL, &e), NSDAE_OK, "%s", e.message);
    cr_assert_float_eq(z[0], 5, TOL);
    lo[0] = -INFINITY;
    hi[0] = 1;          /* z <= 1: z = 1, w = -4 */
    cr_assert_eq(nsdae_lcp_minnorm(&p, NULL, z, w, NULL, &e), NSDAE_OK, "%s", e.message);
    cr_assert_float_eq(z[0], 1, TOL);
    hi[0] = INFINITY;   /* free: an equality row, z = 5 */
    cr_assert_eq(nsdae_lcp_minnorm(&p, NULL, z, w, NULL, &e), NSDAE_OK, "%s", e.message);
    cr_assert_float_eq(z[0], 5, TOL);
    lo[0] = hi[0] = 0.25;   /* fixed: z = 0.25, w = -4.75 */
    cr_assert_eq(nsdae_lcp_minnorm(&p, NULL, z, w, NULL, &e), NSDAE_OK, "%s", e.message);
    cr_assert_float_eq(z[0], 0.25, TOL);
    cr_assert_float_eq(w[0], -4.75, TOL);
    nsdae_lcp_solution_set *s = enumerate_ok(&p);
    cr_assert_eq(s->count, 1);
    nsdae_lcp_solution_set_free(s);
}

/* ---- Siconos single solves ------------------------------------------------------------------ */
Test(siconos, each_solver_on_the_three_solution_lcp)
{
    nsdae_mlcp p = {2, three_M, three_q, NULL, NULL, NULL};
    const char *names[3] = {"enum", "lemke", "lcp-enum"};
    nsdae_lcp_solution_set set = {.size = 2, .count = 3,
                                  .pieces = (nsdae_lcp_piece[]){{1, 0, (double *)three_sol[0]},
                                                                {1, 0, (double *)three_sol[1]},
                                                                {1, 0, (double *)three_sol[2]}}};
    for (int i = 0; i < 3; i++) {
        double z[2], w[2];
        nsdae_error e = {0};
        cr_assert_eq(nsdae_lcp_solve_siconos(&p, names[i], z, w, &e), NSDAE_OK, "%s: %s", names[i], e.message);
        cr_assert(has_point(&set, z), "%s returned a non-solution", names[i]);
    }
}

Test(siconos, no_solution_is_a_status)
{
    /* w = -z - 1 >= 0 is impossible for z >= 0 */
    double M[1] = {-1}, q[1] = {-1};
    nsdae_mlcp p = {1, M, q, NULL, NULL, NULL};
    const char *names[3] = {"enum", "lemke", "lcp-enum"};
    for (int i = 0; i < 3; i++) {
        double z[1], w[1];
        nsdae_error e = {0};
        cr_assert_eq(nsdae_lcp_solve_siconos(&p, names[i], z, w, &e), NSDAE_NO_SOLUTION, "%s", names[i]);
        cr_assert_neq(e.message[0], '\0');
    }
    nsdae_error e = {0};
    double z[1], w[1];
    cr_assert_eq(nsdae_lcp_minnorm(&p, NULL, z, w, NULL, &e), NSDAE_NO_SOLUTION);
    cr_assert_neq(e.message[0], '\0');
    nsdae_lcp_solution_set *s = enumerate_ok(&p);
    cr_assert_eq(s->count, 0);
    nsdae_lcp_solution_set_free(s);
}
