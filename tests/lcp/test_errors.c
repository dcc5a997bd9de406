/* Every bad-input class returns its status with a message; nothing aborts or prints. */
#include <criterion/criterion.h>
#include <math.h>
#include <nsdae/lcp.h>
#include <string.h>

static const double M2[4] = {2, 1, 1, 2}, q2[2] = {-1, -1};

/* Runs every entry point on p and checks that each returns `want` with a message that
 * contains `needle`. */
static void all_refuse(const nsdae_mlcp *p, nsdae_status want, const char *needle)
{
    double z[4], w[4];
    nsdae_error e;
    nsdae_lcp_solution_set *s = (void *)1;
    const char *what[6] = {"validate", "enumerate", "restart", "minnorm", "siconos enum", "siconos lemke"};
    for (int i = 0; i < 6; i++) {
        nsdae_error_clear(&e);
        nsdae_status st = NSDAE_OK;
        switch (i) {
        case 0: st = nsdae_mlcp_validate(p, &e); break;
        case 1: st = nsdae_lcp_enumerate(p, &s, &e); cr_assert_null(s); break;
        case 2: st = nsdae_lcp_enumerate_siconos_restart(p, &s, &e); cr_assert_null(s); break;
        case 3: st = nsdae_lcp_minnorm(p, NULL, z, w, NULL, &e); break;
        case 4: st = nsdae_lcp_solve_siconos(p, "enum", z, w, &e); break;
        case 5: st = nsdae_lcp_solve_siconos(p, "lemke", z, w, &e); break;
        }
        cr_assert_eq(st, want, "%s: status %d, want %d (%s)", what[i], st, want, e.message);
        cr_assert_eq(e.status, want, "%s", what[i]);
        cr_assert(strstr(e.message, needle), "%s: message \"%s\" lacks \"%s\"", what[i], e.message, needle);
    }
}

Test(errors, null_problem)
{
    nsdae_error e;
    cr_assert_eq(nsdae_mlcp_validate(NULL, &e), NSDAE_INVALID_INPUT);
    cr_assert(strstr(e.message, "NULL"));
    double z[1], w[1];
    cr_assert_eq(nsdae_lcp_minnorm(NULL, NULL, z, w, NULL, NULL), NSDAE_INVALID_INPUT);   /* err may be NULL */
}

Test(errors, sizes)
{
    nsdae_mlcp p = {0, M2, q2, NULL, NULL, NULL};
    all_refuse(&p, NSDAE_INVALID_INPUT, "size 0");
    p.size = -3;
    all_refuse(&p, NSDAE_INVALID_INPUT, "size -3");
}

Test(errors, null_arrays)
{
    nsdae_mlcp p = {2, NULL, q2, NULL, NULL, NULL};
    all_refuse(&p, NSDAE_INVALID_INPUT, "M is NULL");
    p.M = M2;
    p.q = NULL;
    all_refuse(&p, NSDAE_INVALID_INPUT, "q is NULL");
    nsdae_row_kind k[2] = {NSDAE_ROW_BOX, NSDAE_ROW_COMPLEMENTARITY};
    nsdae_mlcp b = {2, M2, q2, k, NULL, NULL};
    all_refuse(&b, NSDAE_INVALID_INPUT, "lo or hi is NULL");
    double z[2], w[2];
    nsdae_error e;
    nsdae_mlcp ok = {2, M2, q2, NULL, NULL, NULL};
    cr_assert_eq(nsdae_lcp_minnorm(&ok, NULL, NULL, w, NULL, &e), NSDAE_INVALID_INPUT);
    cr_assert_eq(nsdae_lcp_solve_siconos(&ok, "enum", z, NULL, &e), NSDAE_INVALID_INPUT);
    cr_assert_eq(nsdae_lcp_solve_siconos(&ok, NULL, z, w, &e), NSDAE_INVALID_INPUT);
    cr_assert_eq(nsdae_lcp_enumerate(&ok, NULL, &e), NSDAE_INVALID_INPUT);
}

Test(errors, nan_and_inf)
{
    double M[4] = {2, 1, NAN, 2}, q[2] = {-1, -1};
    nsdae_mlcp p = {2, M, q, NULL, NULL, NULL};
    all_refuse(&p, NSDAE_INVALID_INPUT, "M(0,1)");
    M[2] = INFINITY;
    all_refuse(&p, NSDAE_INVALID_INPUT, "M(0,1)");
    M[2] = 1;
    q[1] = -INFINITY;
    all_refuse(&p, NSDAE_INVALID_INPUT, "q[1]");
    q[1] = NAN;
    all_refuse(&p, NSDAE_INVALID_INPUT, "q[1]");
}

Test(errors, box_bounds)
{
    nsdae_row_kind k[2] = {NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_BOX};
    double lo[2] = {0, 1}, hi[2] = {0, -1};
    nsdae_mlcp p = {2, M2, q2, k, lo, hi};
    all_refuse(&p, NSDAE_INVALID_INPUT, "box row 1 has lo 1 > hi -1");
    lo[1] = NAN;
    all_refuse(&p, NSDAE_INVALID_INPUT, "NaN bound");
    lo[1] = INFINITY;
    hi[1] = INFINITY;
    all_refuse(&p, NSDAE_INVALID_INPUT, "empty range");
    lo[1] = -INFINITY;
    hi[1] = -INFINITY;
    all_refuse(&p, NSDAE_INVALID_INPUT, "empty range");
}

Test(errors, unknown_kind)
{
    nsdae_row_kind k[2] = {NSDAE_ROW_COMPLEMENTARITY, (nsdae_row_kind)7};
    nsdae_mlcp p = {2, M2, q2, k, NULL, NULL};
    all_refuse(&p, NSDAE_INVALID_INPUT, "row 1 has unknown kind 7");
}

Test(errors, unknown_solver_and_lemke_on_mlcp)
{
    nsdae_mlcp p = {2, M2, q2, NULL, NULL, NULL};
    double z[2], w[2];
    nsdae_error e;
    cr_assert_eq(nsdae_lcp_solve_siconos(&p, "path", z, w, &e), NSDAE_INVALID_INPUT);
    cr_assert(strstr(e.message, "unknown solver \"path\""));
    nsdae_row_kind k[2] = {NSDAE_ROW_EQUALITY, NSDAE_ROW_COMPLEMENTARITY};
    nsdae_mlcp m = {2, M2, q2, k, NULL, NULL};
    cr_assert_eq(nsdae_lcp_solve_siconos(&m, "lemke", z, w, &e), NSDAE_INVALID_INPUT);
    cr_assert(strstr(e.message, "pure LCP"));
    cr_assert_eq(nsdae_lcp_solve_siconos(&m, "lcp-enum", z, w, &e), NSDAE_INVALID_INPUT);
}

Test(errors, singular_equality_block_for_siconos_restart)
{
    /* equality row 0 does not involve u = z0 at all */
    double M[9] = {0, 0, 0, 1, 1, 0, 0, 0, 1}, q[3] = {-1, -1, -1};
    nsdae_row_kind k[3] = {NSDAE_ROW_EQUALITY, NSDAE_ROW_COMPLEMENTARITY, NSDAE_ROW_COMPLEMENTARITY};
    nsdae_mlcp p = {3, M, q, k, NULL, NULL};
    nsdae_lcp_solution_set *s = NULL;
    nsdae_error e;
    cr_assert_eq(nsdae_lcp_enumerate_siconos_restart(&p, &s, &e), NSDAE_NUMERICAL);
    cr_assert(strstr(e.message, "singular"), "%s", e.message);
    cr_assert_null(s);
    /* the own enumerator handles it: v1 = 1 from the equality row, u free?  w0 = v1 - 1 = 0,
     * w1 = v1 - 1 >= 0 _|_ v1 -> v1 = 1, w2 = v2 - 1 -> v2 = 1, u arbitrary: a line. */
    cr_assert_eq(nsdae_lcp_enumerate(&p, &s, &e), NSDAE_OK, "%s", e.message);
    cr_assert_eq(s->count, 1);
    cr_assert_eq(s->has_continuum, 1);
    cr_assert_eq(s->pieces[0].dimension, 1);
    cr_assert_float_eq(s->pieces[0].z[0], 0, 1e-10);
    nsdae_lcp_solution_set_free(s);
}

Test(errors, inconsistent_equalities)
{
    /* two equality rows u1 + u2 = 1 and u1 + u2 = 2 */
    double M[4] = {1, 1, 1, 1}, q[2] = {-1, -2};
    nsdae_row_kind k[2] = {NSDAE_ROW_EQUALITY, NSDAE_ROW_EQUALITY};
    nsdae_mlcp p = {2, M, q, k, NULL, NULL};
    double z[2], w[2];
    nsdae_error e;
    cr_assert_eq(nsdae_lcp_minnorm(&p, NULL, z, w, NULL, &e), NSDAE_NO_SOLUTION);
    cr_assert(strstr(e.message, "inconsistent"), "%s", e.message);
    nsdae_lcp_solution_set *s = NULL;
    cr_assert_eq(nsdae_lcp_enumerate(&p, &s, &e), NSDAE_OK);
    cr_assert_eq(s->count, 0);
    nsdae_lcp_solution_set_free(s);
    cr_assert_eq(nsdae_lcp_solve_siconos(&p, "enum", z, w, &e), NSDAE_NO_SOLUTION);
}

Test(errors, m_too_large_for_enumerate)
{
    enum { N = NSDAE_LCP_ENUM_MAX_M + 1 };
    static double M[N * N], q[N];
    for (int i = 0; i < N; i++) {
        M[i + i * N] = 1;
        q[i] = -1;
    }
    nsdae_mlcp p = {N, M, q, NULL, NULL, NULL};
    nsdae_lcp_solution_set *s = NULL;
    nsdae_error e;
    cr_assert_eq(nsdae_lcp_enumerate(&p, &s, &e), NSDAE_LIMIT);
    cr_assert(strstr(e.message, "exceed"), "%s", e.message);
    cr_assert_eq(nsdae_lcp_enumerate_siconos_restart(&p, &s, &e), NSDAE_LIMIT);
    /* a box row counts twice: 14 two-sided boxes are 28 > 26 complementarity rows */
    enum { B = 14 };
    static double Mb[B * B], qb[B], lo[B], hi[B];
    static nsdae_row_kind kb[B];
    for (int i = 0; i < B; i++) {
        Mb[i + i * B] = 1;
        kb[i] = NSDAE_ROW_BOX;
        lo[i] = -1;
        hi[i] = 1;
    }
    nsdae_mlcp pb = {B, Mb, qb, kb, lo, hi};
    cr_assert_eq(nsdae_lcp_enumerate(&pb, &s, &e), NSDAE_LIMIT);
    /* the selection itself has no such limit: identity is a P-matrix, z = 1 */
    double z[N], w[N];
    cr_assert_eq(nsdae_lcp_minnorm(&p, NULL, z, w, NULL, &e), NSDAE_OK, "%s", e.message);
    cr_assert_float_eq(z[N - 1], 1, 1e-12);
}

Test(errors, bad_minnorm_spec)
{
    nsdae_mlcp p = {2, M2, q2, NULL, NULL, NULL};
    double z[2], w[2];
    nsdae_error e;
    int sel_out[1] = {2}, sel_rep[2] = {1, 1}, sel[2] = {0, 1};
    nsdae_minnorm_spec s1 = {.select = sel_out, .k = 1};
    cr_assert_eq(nsdae_lcp_minnorm(&p, &s1, z, w, NULL, &e), NSDAE_INVALID_INPUT);
    cr_assert(strstr(e.message, "select[0] = 2"), "%s", e.message);
    nsdae_minnorm_spec s2 = {.select = sel_rep, .k = 2};
    cr_assert_eq(nsdae_lcp_minnorm(&p, &s2, z, w, NULL, &e), NSDAE_INVALID_INPUT);
    cr_assert(strstr(e.message, "repeats"), "%s", e.message);
    double Qbad[4] = {1, 2, 2, 1};   /* indefinite */
    nsdae_minnorm_spec s3 = {.select = sel, .k = 2, .Q = Qbad};
    cr_assert_eq(nsdae_lcp_minnorm(&p, &s3, z, w, NULL, &e), NSDAE_INVALID_INPUT);
    cr_assert(strstr(e.message, "positive definite"), "%s", e.message);
    double zref[2] = {0, NAN};
    nsdae_minnorm_spec s4 = {.z_ref = zref};
    cr_assert_eq(nsdae_lcp_minnorm(&p, &s4, z, w, NULL, &e), NSDAE_INVALID_INPUT);
    cr_assert(strstr(e.message, "z_ref[1]"), "%s", e.message);
    nsdae_minnorm_spec s5 = {.k = 3, .select = sel};
    cr_assert_eq(nsdae_lcp_minnorm(&p, &s5, z, w, NULL, &e), NSDAE_INVALID_INPUT);
}
