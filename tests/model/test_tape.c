/* Expression tape (nsdae/tape.h) and the pools that extend a read-only base. Expected values are
 * closed forms worked by hand, finite differences with a tolerance derived from the step, and node
 * counts of hand-built DAGs. */
#include <criterion/criterion.h>
#include <nsdae/tape.h>

#include <float.h>
#include <math.h>
#include <string.h>

#define X(p, k, a, b) nsdae_expr_binary((p), NSDAE_EXPR_##k, (a), (b))
#define U(p, k, a) nsdae_expr_unary((p), NSDAE_EXPR_##k, (a))

static nsdae_expr_pool *new_pool(void)
{
    nsdae_expr_pool *p = NULL;
    cr_assert_eq(nsdae_expr_pool_create(&p, NULL), NSDAE_OK);
    return p;
}

static nsdae_tape *compile(nsdae_expr_pool *p, const nsdae_expr *const *e, int n, const nsdae_leaf *in, int nin,
                           const nsdae_leaf *wrt, int nwrt)
{
    nsdae_tape_spec spec = {e, n, in, nin, 0, wrt, nwrt};
    nsdae_tape *t = NULL;
    nsdae_error err;
    cr_assert_eq(nsdae_tape_create(p, &spec, &t, &err), NSDAE_OK, "%s", err.message);
    return t;
}

/* f0 = x^3 y + sin(x), f1 = exp(x y)/(1 + y^2), f2 = der(x) * y at x = 0.7, y = -1.3, der(x) = 2.
 *   df0/dx = 3x^2 y + cos x          df0/dy = x^3
 *   df1/dx = y e^{xy}/(1+y^2)        df1/dy = e^{xy} (x (1+y^2) - 2y)/(1+y^2)^2
 *   df2/dder(x) = y                  df2/dy = der(x)                                             */
Test(tape, values_and_jacobian_match_closed_forms)
{
    nsdae_expr_pool *p = new_pool();
    const nsdae_expr *x = nsdae_expr_var(p, 0, 0), *y = nsdae_expr_var(p, 1, 0), *dx = nsdae_expr_var(p, 0, 1);
    const nsdae_expr *one = nsdae_expr_const(p, 1.0);
    const nsdae_expr *e[3] = {
        X(p, ADD, X(p, MUL, X(p, POW, x, nsdae_expr_const(p, 3.0)), y), U(p, SIN, x)),
        X(p, DIV, U(p, EXP, X(p, MUL, x, y)), X(p, ADD, one, X(p, MUL, y, y))),
        X(p, MUL, dx, y),
    };
    nsdae_leaf in[] = {{0, 0}, {1, 0}, {0, 1}};
    nsdae_tape *t = compile(p, e, 3, in, 3, in, 3);
    const double xv = 0.7, yv = -1.3, dxv = 2.0, q = 1 + yv * yv, ex = exp(xv * yv);
    double xin[] = {xv, yv, dxv}, v[3], J[9];
    nsdae_tape_point at = {xin, NULL, 0.0};
    cr_assert_eq(nsdae_tape_eval(t, &at, v, J, NULL), NSDAE_OK);
    cr_expect_float_eq(v[0], xv * xv * xv * yv + sin(xv), 1e-15);
    cr_expect_float_eq(v[1], ex / q, 1e-15);
    cr_expect_float_eq(v[2], dxv * yv, 1e-15);
    const double want[9] = {3 * xv * xv * yv + cos(xv), yv * ex / q, 0.0,
                            xv * xv * xv, ex * (xv * q - 2 * yv) / (q * q), dxv,
                            0.0, 0.0, yv};
    for (int k = 0; k < 9; k++) cr_expect_float_eq(J[k], want[k], 1e-14, "J[%d] = %.17g, want %.17g", k, J[k], want[k]);
    /* values alone: same numbers, and only the value part of the program runs */
    double v2[3];
    cr_assert_eq(nsdae_tape_eval(t, &at, v2, NULL, NULL), NSDAE_OK);
    for (int k = 0; k < 3; k++) cr_expect_eq(v2[k], v[k]);
    nsdae_tape_destroy(t);
    nsdae_expr_pool_destroy(p);
}

/* Central differences: error <= h^2/6 max|f'''| (truncation) + 2 eps max|f| / (2h) (rounding).
 * With |f| and |f'''| bounded by 50 near the point (checked by hand for this batch: the largest
 * third derivative, 6y/x^4 of y/x, is 1.25 here), h = 1e-5 gives 50 (1e-10/6 + 2.2e-16/1e-5) ~ 2e-9;
 * the tolerance is 4 times that. */
Test(tape, jacobian_matches_finite_differences)
{
    nsdae_expr_pool *p = new_pool();
    const nsdae_expr *x = nsdae_expr_var(p, 0, 0), *y = nsdae_expr_var(p, 1, 0), *t = nsdae_expr_time(p);
    const nsdae_expr *e[4] = {
        X(p, POW, x, y),                                                      /* variable exponent */
        X(p, MUL, U(p, SQRT, X(p, ADD, X(p, MUL, x, x), y)), U(p, LOG, x)),
        X(p, SUB, U(p, COS, X(p, MUL, x, t)), X(p, DIV, y, x)),
        X(p, ADD, X(p, MAX, x, y), U(p, ABS, X(p, SUB, y, nsdae_expr_const(p, 3.0)))), /* smooth here */
    };
    nsdae_leaf in[] = {{0, 0}, {1, 0}};
    nsdae_tape *tp = compile(p, e, 4, in, 2, in, 2);
    double pt[2] = {1.4, 0.8}, J[8], vp[4], vm[4];
    nsdae_tape_point at = {pt, NULL, 0.3};
    cr_assert_eq(nsdae_tape_eval(tp, &at, NULL, J, NULL), NSDAE_OK);
    const double h = 1e-5, tol = 50 * (h * h / 6 + DBL_EPSILON / h) * 4;
    for (int j = 0; j < 2; j++) {
        double xp[2] = {pt[0], pt[1]}, xm[2] = {pt[0], pt[1]};
        xp[j] += h;
        xm[j] -= h;
        nsdae_tape_point ap = {xp, NULL, 0.3}, am = {xm, NULL, 0.3};
        cr_assert_eq(nsdae_tape_eval(tp, &ap, vp, NULL, NULL), NSDAE_OK);
        cr_assert_eq(nsdae_tape_eval(tp, &am, vm, NULL, NULL), NSDAE_OK);
        for (int i = 0; i < 4; i++) {
            double fd = (vp[i] - vm[i]) / (2 * h);
            cr_expect(fabs(J[i + 4 * j] - fd) <= tol, "d f%d / d x%d: tape %.15g, differences %.15g", i, j,
                      J[i + 4 * j], fd);
        }
    }
    nsdae_tape_destroy(tp);
    nsdae_expr_pool_destroy(p);
}

/* s = sin(x) shared by three values: x, sin(x), 1, s + 1, 3, 3*s are the 6 nodes, 2 of them
 * constants; s is one instruction. */
Test(tape, shared_subexpressions_are_one_node)
{
    nsdae_expr_pool *p = new_pool();
    const nsdae_expr *x = nsdae_expr_var(p, 0, 0), *s = U(p, SIN, x);
    const nsdae_expr *e[4] = {s, X(p, ADD, s, nsdae_expr_const(p, 1.0)), X(p, MUL, nsdae_expr_const(p, 3.0), s), s};
    nsdae_leaf in[] = {{0, 0}};
    nsdae_tape *t = compile(p, e, 4, in, 1, NULL, 0);
    nsdae_tape_info info;
    nsdae_tape_get_info(t, &info);
    cr_expect_eq(info.nodes, 6);
    cr_expect_eq(info.value_nodes, 6);
    cr_expect_eq(info.constants, 2);
    double xv = 0.4, v[4];
    nsdae_tape_point at = {&xv, NULL, 0.0};
    cr_assert_eq(nsdae_tape_eval(t, &at, v, NULL, NULL), NSDAE_OK);
    cr_expect_float_eq(v[1], sin(0.4) + 1, 1e-15);
    cr_expect_float_eq(v[2], 3 * sin(0.4), 1e-15);
    cr_expect_eq(v[0], v[3]);
    nsdae_tape_destroy(t);
    /* With the Jacobian: d/dx = cos(x), cos(x), 3 cos(x), cos(x). The derivatives add the nodes
     * cos(x) and 3*cos(x) only (1 and 3 are already there, d(s+1) = ds = cos x): 8 nodes. */
    t = compile(p, e, 4, in, 1, in, 1);
    nsdae_tape_get_info(t, &info);
    cr_expect_eq(info.nodes, 8);
    cr_expect_eq(info.value_nodes, 6);
    double J[4];
    cr_assert_eq(nsdae_tape_eval(t, &at, NULL, J, NULL), NSDAE_OK);
    cr_expect_float_eq(J[0], cos(0.4), 1e-15);
    cr_expect_float_eq(J[2], 3 * cos(0.4), 1e-15);
    nsdae_tape_destroy(t);
    nsdae_expr_pool_destroy(p);
}

/* e_0 = x, e_{k+1} = e_k + x: e_N = (N + 1) x and d e_N / dx = N + 1, with N = 100 000 nested
 * additions (far deeper than a recursive walk survives with ASan's frames). */
Test(tape, deep_expression_without_recursion)
{
    enum { N = 100000 };
    nsdae_expr_pool *p = new_pool();
    const nsdae_expr *x = nsdae_expr_var(p, 0, 0), *e = x;
    for (int k = 0; k < N; k++) e = X(p, ADD, e, x);
    cr_assert_not_null(e);
    nsdae_leaf in[] = {{0, 0}};
    nsdae_tape *t = compile(p, &e, 1, in, 1, in, 1);
    double xv = 0.5, v, J;
    nsdae_tape_point at = {&xv, NULL, 0.0};
    cr_assert_eq(nsdae_tape_eval(t, &at, &v, &J, NULL), NSDAE_OK);
    cr_expect_float_eq(v, (N + 1) * 0.5, 1e-9);
    cr_expect_float_eq(J, N + 1.0, 1e-9);
    nsdae_eval_env env = {NULL, 0, &xv, 1, 0, 0.0};
    cr_expect_float_eq(nsdae_expr_eval(e, &env), (N + 1) * 0.5, 1e-9);
    nsdae_tape_destroy(t);
    nsdae_expr_pool_destroy(p);
}

Test(tape, outlives_its_pool)
{
    nsdae_expr_pool *p = new_pool();
    const nsdae_expr *x = nsdae_expr_var(p, 3, 1);
    const nsdae_expr *e = X(p, MUL, x, X(p, ADD, nsdae_expr_time(p), nsdae_expr_param(p, 1)));
    nsdae_leaf in[] = {{3, 1}};
    nsdae_tape_spec spec = {&e, 1, in, 1, 2, NULL, 0};
    nsdae_tape *t = NULL;
    cr_assert_eq(nsdae_tape_create(NULL, &spec, &t, NULL), NSDAE_OK);
    nsdae_expr_pool_destroy(p);
    double xv = 2.0, par[2] = {100.0, 0.25}, v;
    nsdae_tape_point at = {&xv, par, 1.5};
    cr_assert_eq(nsdae_tape_eval(t, &at, &v, NULL, NULL), NSDAE_OK);
    cr_expect_float_eq(v, 2.0 * (1.5 + 0.25), 1e-15);
    nsdae_tape_destroy(t);
}

Test(tape, unknown_leaves_and_bad_specs_are_refused)
{
    nsdae_expr_pool *p = new_pool();
    const nsdae_expr *x = nsdae_expr_var(p, 0, 0), *y = nsdae_expr_var(p, 1, 0);
    const nsdae_expr *e = X(p, MUL, x, y), *ep = X(p, ADD, x, nsdae_expr_param(p, 2));
    nsdae_leaf only_x[] = {{0, 0}}, xy[] = {{0, 0}, {1, 0}}, twice[] = {{0, 0}, {0, 0}}, dy[] = {{1, 1}};
    nsdae_tape *t = NULL;
    nsdae_error err;
    nsdae_tape_spec s1 = {&e, 1, only_x, 1, 0, NULL, 0};
    cr_expect_eq(nsdae_tape_create(p, &s1, &t, &err), NSDAE_INVALID_INPUT);
    cr_expect(strstr(err.message, "unknown variable 1") != NULL, "%s", err.message);
    cr_expect_null(t);
    nsdae_tape_spec s2 = {&ep, 1, only_x, 1, 2, NULL, 0};
    cr_expect_eq(nsdae_tape_create(p, &s2, &t, &err), NSDAE_INVALID_INPUT);
    cr_expect(strstr(err.message, "unknown parameter 2") != NULL, "%s", err.message);
    nsdae_tape_spec s3 = {&e, 1, xy, 2, 0, dy, 1};
    cr_expect_eq(nsdae_tape_create(p, &s3, &t, &err), NSDAE_INVALID_INPUT);
    cr_expect(strstr(err.message, "not one of the inputs") != NULL, "%s", err.message);
    nsdae_tape_spec s4 = {&x, 1, twice, 2, 0, NULL, 0};
    cr_expect_eq(nsdae_tape_create(p, &s4, &t, &err), NSDAE_INVALID_INPUT);
    nsdae_tape_spec s5 = {&e, 1, xy, 2, 0, xy, 2};
    cr_expect_eq(nsdae_tape_create(NULL, &s5, &t, &err), NSDAE_INVALID_INPUT); /* a Jacobian needs a pool */
    cr_expect_null(t);
    nsdae_expr_pool_destroy(p);
}

/* NaN policy: a non-finite input the batch reads is refused and nothing is written; one it does
 * not read is ignored; a domain error inside gives NaN with status OK. */
Test(tape, nan_inputs_and_domain_errors)
{
    nsdae_expr_pool *p = new_pool();
    const nsdae_expr *x = nsdae_expr_var(p, 0, 0);
    const nsdae_expr *e[2] = {X(p, MUL, x, nsdae_expr_time(p)), U(p, LOG, x)};
    nsdae_leaf in[] = {{0, 0}, {5, 0}}; /* variable 5 is an input no expression reads */
    nsdae_tape *t = compile(p, e, 2, in, 2, in, 1);
    double v[2] = {7, 7}, J[2] = {7, 7};
    nsdae_error err;
    double bad_x[2] = {NAN, 1.0};
    nsdae_tape_point at = {bad_x, NULL, 2.0};
    cr_expect_eq(nsdae_tape_eval(t, &at, v, J, &err), NSDAE_INVALID_INPUT);
    cr_expect(strstr(err.message, "input 0 (variable 0, order 0)") != NULL, "%s", err.message);
    cr_expect(v[0] == 7 && v[1] == 7 && J[0] == 7 && J[1] == 7, "nothing written");
    double t_ok[2] = {2.0, 1.0};
    nsdae_tape_point at_t = {t_ok, NULL, INFINITY};
    cr_expect_eq(nsdae_tape_eval(t, &at_t, v, NULL, &err), NSDAE_INVALID_INPUT);
    cr_expect(strstr(err.message, "time") != NULL, "%s", err.message);
    double unread_nan[2] = {2.0, NAN};
    nsdae_tape_point at2 = {unread_nan, NULL, 3.0};
    cr_expect_eq(nsdae_tape_eval(t, &at2, v, J, &err), NSDAE_OK, "%s", err.message);
    cr_expect_float_eq(v[0], 6.0, 1e-15);
    cr_expect_float_eq(J[1], 0.5, 1e-15); /* d log x / dx */
    double neg[2] = {-1.0, 0.0};
    nsdae_tape_point at3 = {neg, NULL, 3.0};
    cr_expect_eq(nsdae_tape_eval(t, &at3, v, NULL, &err), NSDAE_OK);
    cr_expect_float_eq(v[0], -3.0, 1e-15);
    cr_expect(isnan(v[1]), "log(-1) is NaN");
    nsdae_tape_destroy(t);
    nsdae_expr_pool_destroy(p);
}

/* ---- pools over a read-only base --------------------------------------------------------- */

Test(pool_over, finds_base_nodes_and_leaves_the_base_alone)
{
    nsdae_expr_pool *base = new_pool();
    const nsdae_expr *x = nsdae_expr_var(base, 0, 0), *sx = U(base, SIN, x);
    size_t nbase = nsdae_expr_pool_size(base);
    nsdae_expr_pool *ext = NULL;
    cr_assert_eq(nsdae_expr_pool_create_over(base, &ext, NULL), NSDAE_OK);
    cr_expect_eq(U(ext, SIN, nsdae_expr_var(ext, 0, 0)), sx, "equal nodes are the base's");
    const nsdae_expr *c = U(ext, COS, x);
    cr_expect_geq((size_t)c->id, nbase, "new ids come after the base's");
    cr_expect_eq(U(ext, COS, x), c);
    cr_expect_eq(nsdae_expr_pool_size(base), nbase, "base unchanged");
    cr_expect_eq(nsdae_expr_pool_size(ext), nbase + 1);
    /* a base that grows under its extension would reuse ids: the extension refuses to build */
    U(base, EXP, x);
    cr_expect_null(U(ext, LOG, x));
    cr_expect(nsdae_expr_pool_failed(ext));
    nsdae_expr_pool_destroy(ext);
    nsdae_expr_pool_destroy(base);
}
