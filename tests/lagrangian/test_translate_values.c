/* The translated M(q), F(t, q, v), g(q), G(q) evaluated at several states against values derived
 * by hand from the model text (not from the translator): a ball, the cup-and-ball with
 * overridden parameters, and a cart-pendulum whose mass matrix is full and depends on q, whose
 * forces depend on velocities and time, and whose equations are written in the opposite order
 * of the coordinates (so they must be matched to the coordinates, not taken in order). */
#include "lag_helpers.h"

#include <math.h>

#define TOL 1e-14

static void expect_close(double got, double want, const char *what, int k)
{
    cr_expect(fabs(got - want) <= TOL * (1.0 + fabs(want)), "%s[%d] = %.17g, expected %.17g", what, k, got, want);
}

static void expect_all(const double *got, const double *want, int n, const char *what)
{
    for (int k = 0; k < n; k++) expect_close(got[k], want[k], what, k);
}

Test(lagrangian_values, bouncing_ball)
{
    nsdae_lagrangian *s = lag_example("bouncing_ball", NULL, 0);
    cr_assert_eq(s->ndof, 1);
    cr_assert_eq(s->ncontacts, 1);
    cr_expect_eq(s->mass_constant, 1);
    cr_expect_str_eq(s->q_names[0], "q");
    cr_expect_str_eq(s->c_names[0], "lambda");
    cr_expect_eq(s->q0[0], 1.0);
    cr_expect_eq(s->v0[0], 0.0);
    cr_expect_eq(s->restitution[0], 0.9);
    cr_expect_eq(s->stop_time, 10.0);
    cr_expect_eq(s->step, 0.005);
    const double qs[] = {1.0, 0.3, 0.0, -2.0}, vs[] = {0.0, -4.0, 2.5, 7.0};
    for (int k = 0; k < 4; k++) {
        double M, F, g, G;
        cr_assert_eq(s->mass(&qs[k], &M, s->ctx), 0);
        cr_assert_eq(s->forces(0.1 * k, &qs[k], &vs[k], &F, s->ctx), 0);
        cr_assert_eq(s->gaps(&qs[k], &g, s->ctx), 0);
        cr_assert_eq(s->gap_jacobian(&qs[k], &G, s->ctx), 0);
        expect_close(M, 1.0, "M", k);
        expect_close(F, -9.81, "F", k); /* -m g */
        expect_close(g, qs[k], "g", k);
        expect_close(G, 1.0, "G", k);
    }
    nsdae_lagrangian_destroy(s);
}

Test(lagrangian_values, cup_and_ball_with_overrides)
{
    const nsdae_param_value p[] = {{"m", 2.0}, {"g", 3.0}, {"L", 1.5}, {"e", 1.0}, {"x0", 0.2}, {"vy0", 4.0}};
    nsdae_lagrangian *s = lag_example("cup_and_ball", p, 6);
    cr_assert_eq(s->ndof, 2);
    cr_assert_eq(s->ncontacts, 1);
    cr_expect_eq(s->mass_constant, 1);
    cr_expect_str_eq(s->q_names[0], "x");
    cr_expect_str_eq(s->q_names[1], "y");
    cr_expect_str_eq(s->c_names[0], "rope");
    cr_expect_eq(s->restitution[0], 1.0);
    const double q0[] = {0.2, -0.7}, v0[] = {1.0, 4.0};
    expect_all(s->q0, q0, 2, "q0");
    expect_all(s->v0, v0, 2, "v0");
    const double pts[][2] = {{0.3, -0.4}, {0.6, -0.8}, {-1.2, 0.5}, {0.0, 0.0}};
    for (int k = 0; k < 4; k++) {
        const double *q = pts[k], v[2] = {0.5 * k, -1.0};
        double M[4], F[2], g, G[2];
        cr_assert_eq(s->mass(q, M, s->ctx), 0);
        cr_assert_eq(s->forces(k, q, v, F, s->ctx), 0);
        cr_assert_eq(s->gaps(q, &g, s->ctx), 0);
        cr_assert_eq(s->gap_jacobian(q, G, s->ctx), 0);
        const double Mw[4] = {2.0, 0.0, 0.0, 2.0}, Fw[2] = {0.0, -6.0}; /* m I, (0, -m g) */
        const double gw = 2.25 - (q[0] * q[0] + q[1] * q[1]), Gw[2] = {-2.0 * q[0], -2.0 * q[1]};
        expect_all(M, Mw, 4, "M");
        expect_all(F, Fw, 2, "F");
        expect_close(g, gw, "g", k);
        expect_all(G, Gw, 2, "G");
    }
    nsdae_lagrangian_destroy(s);
}

/* Cart (x, mass Mc) with a pendulum (angle th from the downward vertical, mass m, length l):
 *   M(q) = [[Mc + m, m l cos th], [m l cos th, m l^2]]
 *   F    = [m l sin(th) th'^2 - c x' + a sin(3t), -m g l sin th]
 * contacts: a wall at x = 0 (gap x, gradient (1, 0)), and the bob above a floor at depth 1
 * (gap 1 - l cos th, gradient (0, l sin th)). */
static const char *cart_pendulum =
    "model cart_pendulum\n"
    "  parameter Mc = 2;\n"
    "  parameter m = 0.5;\n"
    "  parameter l = 0.8;\n"
    "  parameter g = 9.81;\n"
    "  parameter c = 0.3;\n"
    "  parameter a = 0.2;\n"
    "  var x(start = 0.1, dstart = 0.2);\n"
    "  var th(start = 0.4, dstart = -1);\n"
    "  var wall;\n"
    "  var floor;\n"
    "equation\n"
    "  m*l*cos(th)*der(der(x)) + m*l^2*der(der(th)) = -m*g*l*sin(th) + l*sin(th)*floor;\n"
    "  (Mc + m)*der(der(x)) + m*l*cos(th)*der(der(th)) = m*l*sin(th)*der(th)^2 - c*der(x) + a*sin(3*time) + wall;\n"
    "  0 <= x _|_ wall >= 0 restitution 0.5;\n"
    "  0 <= 1 - l*cos(th) _|_ floor >= 0;\n"
    "experiment stop = 3, step = 0.01;\n"
    "end cart_pendulum;\n";

Test(lagrangian_values, cart_pendulum_full_mass_matrix)
{
    nsdae_lagrangian *s = NULL;
    nsdae_error err = {0};
    cr_assert_eq(lag_translate_text(cart_pendulum, &s, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(s->ndof, 2);
    cr_assert_eq(s->ncontacts, 2);
    cr_expect_eq(s->mass_constant, 0);
    cr_expect_str_eq(s->q_names[0], "x");
    cr_expect_str_eq(s->q_names[1], "th");
    cr_expect_str_eq(s->c_names[0], "wall");
    cr_expect_str_eq(s->c_names[1], "floor");
    cr_expect_eq(s->restitution[0], 0.5);
    cr_expect_eq(s->restitution[1], 0.0); /* no restitution: plastic */
    cr_expect_eq(s->q0[0], 0.1);
    cr_expect_eq(s->q0[1], 0.4);
    cr_expect_eq(s->v0[0], 0.2);
    cr_expect_eq(s->v0[1], -1.0);
    cr_expect_eq(s->stop_time, 3.0);
    cr_expect_eq(s->step, 0.01);
    const double Mc = 2.0, m = 0.5, l = 0.8, g = 9.81, c = 0.3, a = 0.2;
    const double pts[][5] = {/* x, th, x', th', t */
                             {0.3, 0.7, 0.5, -1.2, 1.5},
                             {-0.1, -2.0, 0.0, 3.0, 0.0},
                             {1.0, 3.1, -2.0, 0.1, 7.25}};
    for (int k = 0; k < 3; k++) {
        const double *p = pts[k], q[2] = {p[0], p[1]}, v[2] = {p[2], p[3]}, t = p[4];
        double M[4], F[2], gap[2], G[4];
        cr_assert_eq(s->mass(q, M, s->ctx), 0);
        cr_assert_eq(s->forces(t, q, v, F, s->ctx), 0);
        cr_assert_eq(s->gaps(q, gap, s->ctx), 0);
        cr_assert_eq(s->gap_jacobian(q, G, s->ctx), 0);
        const double ct = cos(q[1]), st = sin(q[1]);
        const double Mw[4] = {Mc + m, m * l * ct, m * l * ct, m * l * l};
        const double Fw[2] = {m * l * st * v[1] * v[1] - c * v[0] + a * sin(3.0 * t), -m * g * l * st};
        const double gw[2] = {q[0], 1.0 - l * ct};
        const double Gw[4] = {1.0, 0.0, 0.0, l * st}; /* column-major G[c + j*nc] */
        expect_all(M, Mw, 4, "M");
        expect_all(F, Fw, 2, "F");
        expect_all(gap, gw, 2, "g");
        expect_all(G, Gw, 4, "G");
    }
    nsdae_lagrangian_destroy(s);
}

/* The force Jacobian's pattern (lagrangian.h): F_0 = m l sin(th) th'^2 - c x' + a sin(3t) reads th,
 * x', th'; F_1 = -m g l sin th reads th. Columns (x, th, x', th'): {}, {0, 1}, {0}, {0}, with the
 * derivatives by hand: m l cos(th) th'^2, -m g l cos th, -c, 2 m l sin(th) th'. The ball's forces
 * read no state: an empty pattern. */
Test(lagrangian_values, force_jacobian_pattern)
{
    nsdae_lagrangian *s = NULL;
    nsdae_error err = {0};
    cr_assert_eq(lag_translate_text(cart_pendulum, &s, &err), NSDAE_OK, "%s", err.message);
    cr_assert(s->force_colptr && s->force_rows && s->force_jacobian_values);
    const int colptr[] = {0, 0, 2, 3, 4}, rows[] = {0, 1, 0, 0};
    for (int k = 0; k < 5; k++) cr_expect_eq(s->force_colptr[k], colptr[k], "force_colptr[%d]", k);
    for (int e = 0; e < 4; e++) cr_expect_eq(s->force_rows[e], rows[e], "force_rows[%d]", e);
    const double m = 0.5, l = 0.8, g = 9.81, c = 0.3, q[2] = {0.3, 0.7}, v[2] = {0.5, -1.2};
    double val[4];
    cr_assert_eq(s->force_jacobian_values(1.5, q, v, val, s->ctx), 0);
    const double want[4] = {m * l * cos(q[1]) * v[1] * v[1], -m * g * l * cos(q[1]), -c, 2 * m * l * sin(q[1]) * v[1]};
    expect_all(val, want, 4, "dF");
    nsdae_lagrangian_destroy(s);
    s = lag_example("bouncing_ball", NULL, 0);
    cr_assert(s->force_colptr && s->force_jacobian_values);
    cr_expect_eq(s->force_colptr[0] + s->force_colptr[1] + s->force_colptr[2], 0, "F = -m g reads no state");
    nsdae_lagrangian_destroy(s);
}

/* The bead-by-bead file (the example before arrays, now a fixture) and the array form. */
Test(lagrangian_values, bead_column_structure)
{
    const struct { const char *path, *first, *last; } files[] = {
        {NSDAE_SOURCE_DIR "/tests/examples/models/bead_column_scalar.nsm", "ground_z1", "z9_z10"},
        {NSDAE_SOURCE_DIR "/examples/bead_column.nsm", "lambda[1]", "lambda[10]"},
    };
    for (int f = 0; f < 2; f++) {
        nsdae_lagrangian *s = lag_file(files[f].path, NULL, 0);
        cr_assert_eq(s->ndof, 10);
        cr_assert_eq(s->ncontacts, 10);
        cr_expect_eq(s->mass_constant, 1);
        cr_expect_str_eq(s->c_names[0], files[f].first);
        cr_expect_str_eq(s->c_names[9], files[f].last);
        double q[10], g[10], G[100], M[100];
        for (int i = 0; i < 10; i++) {
            expect_close(s->q0[i], 0.35 + 0.45 * i, "q0", i); /* r + gap0 + i (2r + gap0) */
            q[i] = 0.1 * i * i - 0.3;
        }
        cr_assert_eq(s->gaps(q, g, s->ctx), 0);
        cr_assert_eq(s->gap_jacobian(q, G, s->ctx), 0);
        cr_assert_eq(s->mass(q, M, s->ctx), 0);
        for (int c = 0; c < 10; c++) {
            expect_close(g[c], c == 0 ? q[0] - 0.1 : q[c] - q[c - 1] - 0.2, "g", c);
            expect_close(s->restitution[c], 0.9, "e", c);
            for (int j = 0; j < 10; j++) {
                double want = j == c ? 1.0 : (c > 0 && j == c - 1) ? -1.0 : 0.0;
                expect_close(G[c + 10 * j], want, "G", c + 10 * j);
                expect_close(M[c + 10 * j], c == j ? 1.0 : 0.0, "M", c + 10 * j);
            }
        }
        nsdae_lagrangian_destroy(s);
    }
}

/* Two coupled masses, M = [[2, 1], [1, 3]]: both pairings of equations and coordinates are
 * perfect matchings of the acceleration pattern, in either source order; only one gives the
 * symmetric M, and it must be found whatever the order of the equations. */
Test(lagrangian_values, coupled_masses_in_either_order)
{
    const char *eqx = "  2*der(der(x)) + der(der(y)) = -x + l;\n", *eqy = "  der(der(x)) + 3*der(der(y)) = -4*y;\n";
    for (int order = 0; order < 2; order++) {
        char src[512];
        snprintf(src, sizeof src,
                 "model coupled\n  var x(start = 1);\n  var y(start = 2);\n  var l;\nequation\n%s%s"
                 "  0 <= x _|_ l >= 0;\nend coupled;\n", order ? eqy : eqx, order ? eqx : eqy);
        nsdae_lagrangian *s = NULL;
        nsdae_error err = {0};
        cr_assert_eq(lag_translate_text(src, &s, &err), NSDAE_OK, "order %d: %s", order, err.message);
        double q[2] = {0.5, -0.25}, v[2] = {0, 0}, M[4], F[2], G[2];
        cr_assert_eq(s->mass(q, M, s->ctx), 0);
        cr_assert_eq(s->forces(0.0, q, v, F, s->ctx), 0);
        cr_assert_eq(s->gap_jacobian(q, G, s->ctx), 0);
        const double Mw[4] = {2.0, 1.0, 1.0, 3.0}, Fw[2] = {-0.5, 1.0}, Gw[2] = {1.0, 0.0};
        expect_all(M, Mw, 4, "M");
        expect_all(F, Fw, 2, "F");
        expect_all(G, Gw, 2, "G");
        nsdae_lagrangian_destroy(s);
    }
}
