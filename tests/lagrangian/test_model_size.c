/* Model size (issue 12, Must work 3 and 4): the Lagrangian translation of a bead column keeps the
 * structure the model text implies, and its values are the closed form's.
 *
 * The bead column (examples/bead_column.nsm) written out by hand: bead i (1-based) at height z_i,
 * mass m, gaps g_1 = z_1 - r and g_i = z_i - z_(i-1) - 2r, hence
 *   M = m I,  F_i = -m g,  G row 1 = e_1^T,  G row i = e_i^T - e_(i-1)^T,
 * so G has exactly 1 + 2 (N - 1) = 2N - 1 structural nonzeros, and the gaps are linear (G is
 * evaluated once by the stepper). The start puts every gap at gap0. What the public system shows
 * of the storage is G's compressed pattern and M's (its lower triangle: the diagonal, N values);
 * the translation's own rows (the multiplier coefficients) are internal, and
 * validation/bench/bench_lag_size prints their cost against N (a dense translation is not failed by this test, only made slow and large: 160 MB at N = 2000).
 * A banded coupled mass matrix and a one-sided coupling check the sparse pairing and the sparse
 * symmetry check on entries far from the diagonal. */
#include "lag_helpers.h"

#include <math.h>
#include <stdlib.h>

static nsdae_lagrangian *column(int n, double m, double r, double g, double gap0)
{
    const nsdae_param_value p[] = {{"N", n}, {"m", m}, {"r", r}, {"g", g}, {"gap0", gap0}};
    return lag_example("bead_column", p, 5);
}

Test(lagrangian_model_size, column_of_2000_has_the_pattern_of_the_text)
{
    const int n = 2000;
    const double m = 1.5, r = 0.1, g = 9.81, gap0 = 0.25;
    nsdae_lagrangian *s = column(n, m, r, g, gap0);
    cr_assert_eq(s->ndof, n);
    cr_assert_eq(s->ncontacts, n);
    cr_expect_eq(s->mass_constant, 1);
    cr_expect_eq(s->gaps_linear, 1);
    cr_assert_not_null(s->gap_rowptr);
    cr_assert_eq(s->gap_rowptr[0], 0);
    cr_assert_eq(s->gap_rowptr[n], 2 * n - 1, "G has %d structural nonzeros, the text implies %d", s->gap_rowptr[n],
                 2 * n - 1);
    double *val = malloc((size_t)(2 * n) * sizeof *val), *gv = malloc((size_t)n * sizeof *gv);
    double *F = malloc((size_t)n * sizeof *F), *M = malloc((size_t)n * n * sizeof *M);
    cr_assert(val && gv && F && M);
    cr_assert_eq(s->gap_jacobian_values(s->q0, val, s->ctx), 0);
    cr_assert_eq(s->gaps(s->q0, gv, s->ctx), 0);
    cr_assert_eq(s->forces(0.0, s->q0, s->v0, F, s->ctx), 0);
    cr_assert_eq(s->mass(s->q0, M, s->ctx), 0);
    for (int c = 0; c < n; c++) {
        const int *cols = s->gap_cols + s->gap_rowptr[c];
        const double *v = val + s->gap_rowptr[c];
        if (c == 0) {
            cr_assert_eq(s->gap_rowptr[1], 1);
            cr_expect(cols[0] == 0 && v[0] == 1.0, "G row 0: column %d value %g", cols[0], v[0]);
        } else {
            cr_assert_eq(s->gap_rowptr[c + 1] - s->gap_rowptr[c], 2, "G row %d", c);
            cr_expect(cols[0] == c - 1 && v[0] == -1.0 && cols[1] == c && v[1] == 1.0,
                      "G row %d: (%d, %g) (%d, %g)", c, cols[0], v[0], cols[1], v[1]);
        }
        /* heights r + gap0 + (i - 1)(2r + gap0): every gap is gap0 up to the rounding of the sums */
        cr_expect(fabs(gv[c] - gap0) <= 1e-12 * (1.0 + fabs(s->q0[c])), "g[%d] = %.17g", c, gv[c]);
        cr_expect_eq(F[c], -m * g, "F[%d] = %.17g", c, F[c]);
    }
    size_t off = 0; /* M = m I on every entry */
    for (size_t k = 0; k < (size_t)n * n; k++) off += M[k] != (k % (size_t)(n + 1) == 0 ? m : 0.0);
    cr_expect_eq(off, 0, "%zu entries of M differ from m I", off);
    /* and M's pattern is its diagonal: n values, the stepper's whole mass matrix */
    cr_assert_not_null(s->mass_colptr);
    cr_assert_eq(s->mass_colptr[n], n, "M has %d structural nonzeros below its diagonal, m I has %d",
                 s->mass_colptr[n], n);
    cr_assert_eq(s->mass_values(s->q0, val, s->ctx), 0);
    for (int j = 0; j < n; j++) {
        cr_assert_eq(s->mass_colptr[j], j);
        cr_expect(s->mass_rows[j] == j && val[j] == m, "M column %d: row %d value %g", j, s->mass_rows[j], val[j]);
    }
    free(val); free(gv); free(F); free(M);
    nsdae_lagrangian_destroy(s);
}

/* A small column with other parameters, at states away from the start: M, F, g and the dense G
 * against the closed form on every entry. */
Test(lagrangian_model_size, small_column_equals_the_closed_form)
{
    enum { N = 6 };
    const double m = 2.0, r = 0.05, g = 3.0, gap0 = 0.1;
    nsdae_lagrangian *s = column(N, m, r, g, gap0);
    cr_assert_eq(s->ndof, N);
    cr_assert_eq(s->ncontacts, N);
    for (int k = 0; k < 3; k++) {
        double q[N], v[N], M[N * N], F[N], gv[N], G[N * N];
        for (int i = 0; i < N; i++) {
            q[i] = 0.3 * i - 0.17 * k + 0.01 * i * i;
            v[i] = 0.5 - 0.2 * i + k;
        }
        cr_assert_eq(s->mass(q, M, s->ctx), 0);
        cr_assert_eq(s->forces(0.1 * k, q, v, F, s->ctx), 0);
        cr_assert_eq(s->gaps(q, gv, s->ctx), 0);
        cr_assert_eq(s->gap_jacobian(q, G, s->ctx), 0);
        for (int i = 0; i < N; i++) {
            const double want_g = i == 0 ? q[0] - r : q[i] - q[i - 1] - 2 * r;
            cr_expect(fabs(gv[i] - want_g) <= 1e-15, "g[%d] = %.17g, expected %.17g", i, gv[i], want_g);
            cr_expect_eq(F[i], -m * g, "F[%d]", i);
            for (int j = 0; j < N; j++) {
                cr_expect_eq(M[i + j * N], i == j ? m : 0.0, "M[%d][%d] = %g", i, j, M[i + j * N]);
                /* G column-major G[c + j*ncontacts] = d g_c / d z_j */
                const double want = j == i ? 1.0 : (i > 0 && j == i - 1) ? -1.0 : 0.0;
                cr_expect_eq(G[i + j * N], want, "G[%d][%d] = %g", i, j, G[i + j * N]);
            }
        }
    }
    nsdae_lagrangian_destroy(s);
}

/* Five masses with the banded mass matrix tridiag(1, 3, 1) (positive definite: 3 - 2 cos > 0),
 * written in the reverse order of the coordinates, so that the equations must be paired with
 * the coordinates by the assignment, not taken in order; a contact on x1. */
Test(lagrangian_model_size, banded_mass_written_backwards)
{
    const char *src = "model band\n  var x1(start = 1);\n  var x2(start = 2);\n  var x3(start = 3);\n"
                      "  var x4(start = 4);\n  var x5(start = 5);\n  var l;\nequation\n"
                      "  3*der(der(x5)) + der(der(x4)) = -1;\n"
                      "  der(der(x3)) + 3*der(der(x4)) + der(der(x5)) = -1;\n"
                      "  der(der(x2)) + 3*der(der(x3)) + der(der(x4)) = -1;\n"
                      "  der(der(x1)) + 3*der(der(x2)) + der(der(x3)) = -1;\n"
                      "  3*der(der(x1)) + der(der(x2)) = -1 + l;\n"
                      "  0 <= x1 _|_ l >= 0;\nend band;\n";
    nsdae_lagrangian *s = NULL;
    nsdae_error err = {0};
    cr_assert_eq(lag_translate_text(src, &s, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(s->ndof, 5);
    cr_expect_eq(s->mass_constant, 1);
    double M[25], G[5];
    cr_assert_eq(s->mass(s->q0, M, s->ctx), 0);
    cr_assert_eq(s->gap_jacobian(s->q0, G, s->ctx), 0);
    const char *names[5] = {"x1", "x2", "x3", "x4", "x5"};
    for (int i = 0; i < 5; i++) {
        cr_expect_str_eq(s->q_names[i], names[i]);
        cr_expect_eq(G[i], i == 0 ? 1.0 : 0.0, "G[%d]", i);
        for (int j = 0; j < 5; j++)
            cr_expect_eq(M[i + 5 * j], i == j ? 3.0 : abs(i - j) == 1 ? 1.0 : 0.0, "M[%d][%d] = %g", i, j,
                         M[i + 5 * j]);
    }
    /* the lower triangle's pattern: column j has rows j (3) and j + 1 (1), the last only its diagonal */
    double mv[9];
    cr_assert_not_null(s->mass_colptr);
    cr_assert_eq(s->mass_colptr[5], 9);
    cr_assert_eq(s->mass_values(s->q0, mv, s->ctx), 0);
    for (int j = 0; j < 5; j++) {
        const int e = s->mass_colptr[j];
        cr_assert_eq(s->mass_colptr[j + 1] - e, j < 4 ? 2 : 1, "column %d", j);
        cr_expect(s->mass_rows[e] == j && mv[e] == 3.0, "M column %d: (%d, %g)", j, s->mass_rows[e], mv[e]);
        if (j < 4)
            cr_expect(s->mass_rows[e + 1] == j + 1 && mv[e + 1] == 1.0, "M column %d: (%d, %g)", j,
                      s->mass_rows[e + 1], mv[e + 1]);
    }
    nsdae_lagrangian_destroy(s);
}

/* A coupling written on one side only, far from the diagonal (x1's equation reads der(der(x3)),
 * x3's does not read der(der(x1))): refused, naming the pair, from whichever side it is written. */
Test(lagrangian_model_size, one_sided_coupling_is_refused)
{
    const char *upper = "model c\n  var x1(start = 1);\n  var x2(start = 2);\n  var x3(start = 3);\n  var l;\n"
                        "equation\n  2*der(der(x1)) + 0.5*der(der(x3)) = l;\n  2*der(der(x2)) = -1;\n"
                        "  2*der(der(x3)) = -1;\n  0 <= x1 _|_ l >= 0;\nend c;\n";
    const char *lower = "model c\n  var x1(start = 1);\n  var x2(start = 2);\n  var x3(start = 3);\n  var l;\n"
                        "equation\n  2*der(der(x1)) = l;\n  2*der(der(x2)) = -1;\n"
                        "  0.5*der(der(x1)) + 2*der(der(x3)) = -1;\n  0 <= x1 _|_ l >= 0;\nend c;\n";
    const char *want[2] = {
        "the coefficient of der(der(x3)) in this equation of 'x1' is '0.5', that of der(der(x1)) in the "
        "equation of 'x3' (9:3) is '0'",
        "the coefficient of der(der(x3)) in this equation of 'x1' is '0', that of der(der(x1)) in the "
        "equation of 'x3' (9:3) is '0.5'"};
    const char *src[2] = {upper, lower};
    for (int k = 0; k < 2; k++) {
        nsdae_lagrangian *s = NULL;
        nsdae_error err = {0};
        cr_expect_eq(lag_translate_text(src[k], &s, &err), NSDAE_UNSUPPORTED);
        cr_expect_null(s);
        cr_expect(strstr(err.message, "t.nsm:7:3: ") != NULL, "%s", err.message);
        cr_expect(strstr(err.message, want[k]) != NULL, "%s\nexpected: %s", err.message, want[k]);
    }
}
