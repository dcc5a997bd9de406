/* Translation IR -> MLCS: matrices against hand-derived ones, solution sets of the relaxations at
 * given states (closed form), phases, forcing, and the refusals with their messages. */
#include <criterion/criterion.h>
#include <nsdae/model.h>
#include <nsdae/translate.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static nsdae_model *parse(const char *src)
{
    nsdae_model *m = NULL;
    nsdae_error err;
    nsdae_status st = nsdae_model_parse_string(src, strlen(src), "t.nsm", &m, &err);
    cr_assert_eq(st, NSDAE_OK, "%s", err.message);
    return m;
}

static nsdae_mlcs *translate(const char *src, nsdae_translate_info **info)
{
    nsdae_model *m = parse(src);
    nsdae_mlcs *s = NULL;
    nsdae_error err;
    nsdae_status st = nsdae_translate_mlcs(m, &s, info, &err);
    cr_assert_eq(st, NSDAE_OK, "%s", err.message);
    nsdae_model_destroy(m); /* the MLCS must not depend on the model */
    return s;
}

static void refused(const char *src, nsdae_status want, const char *what)
{
    nsdae_model *m = parse(src);
    nsdae_mlcs *s = NULL;
    nsdae_error err;
    nsdae_status st = nsdae_translate_mlcs(m, &s, NULL, &err);
    cr_expect_eq(st, want, "status %d, message %s", st, err.message);
    cr_expect_null(s);
    cr_expect(strstr(err.message, what) != NULL, "message '%s' lacks '%s'", err.message, what);
    nsdae_model_destroy(m);
}

static int yidx(const nsdae_mlcs *s, const char *name)
{
    for (int i = 0; i < s->ny; i++)
        if (strcmp(s->y_names[i], name) == 0) return i;
    cr_assert_fail("no unknown %s", name);
    return -1;
}

static int lidx(const nsdae_mlcs *s, const char *name)
{
    for (int i = 0; i < s->nl; i++)
        if (strcmp(s->l_names[i], name) == 0) return i;
    cr_assert_fail("no multiplier %s", name);
    return -1;
}

#define AT(M, i, j, rows) ((M)[(i) + (size_t)(j) * (rows)])

/* The admissible values of lambda_i for a row whose w depends on lambda_i alone
 * (w = q + d lambda): the interval [*a, *b] (b may be INFINITY). Returns 0 if empty. */
static int admissible(const nsdae_mlcs *s, int i, const double *y, double *a, double *b)
{
    const nsdae_mlcs_phase *ph = &s->phases[0];
    double q = ph->c[i], d = AT(ph->D, i, i, s->nl);
    for (int j = 0; j < s->ny; j++) q += AT(ph->C, i, j, s->nl) * y[j];
    for (int k = 0; k < s->nl; k++) cr_assert(k == i || AT(ph->D, i, k, s->nl) == 0.0, "coupled row");
    double lo = s->kind[i] == NSDAE_ROW_BOX ? s->lo[i] : 0.0, hi = s->kind[i] == NSDAE_ROW_BOX ? s->hi[i] : INFINITY;
    /* lo <= l <= hi; w >= 0 at l = lo, w = 0 inside, w <= 0 at hi */
    if (d == 0.0) {
        if (q > 0) { *a = *b = lo; }
        else if (q < 0) { if (!isfinite(hi)) return 0; *a = *b = hi; }
        else { *a = lo; *b = hi; }
        return 1;
    }
    cr_assert(d > 0, "monotone rows only");
    double l = -q / d; /* w = 0 */
    if (l <= lo) l = lo;
    if (l >= hi) l = hi;
    *a = *b = l;
    return 1;
}

/* ---- Rocca et al.: the state-guarded if gives exactly (16)-(17) ---------------------------------- */

#define ROCCA(B1, B2, X1, X2) \
    "model r\n parameter B1 = " #B1 ";\n parameter B2 = " #B2 ";\n var x1(start = " #X1 ");\n var x2(start = " #X2 ");\n var z;\n" \
    "equation\n der(x1) = 1 + B1*z;\n der(x2) = B2*z;\n if x1 > 0 then\n  0 = 1 + x1 - x2;\n else\n  0 = -1 - x1 - x2;\n end if;\n" \
    "experiment stop = 10, step = 0.01;\nend r;\n"

Test(translate, rocca_matrices_match_seed_17)
{
    nsdae_translate_info *info;
    nsdae_mlcs *s = translate(ROCCA(-0.5, 1, -5, 4), &info);
    cr_assert_eq(s->ny, 3);
    cr_assert_eq(s->nl, 2);
    cr_assert_eq(s->nphases, 1);
    int x1 = yidx(s, "x1"), x2 = yidx(s, "x2"), z = yidx(s, "z");
    int n = lidx(s, "minus(x1)"), st = lidx(s, "step(x1)");
    const nsdae_mlcs_phase *ph = &s->phases[0];
    /* E = diag(1, 1, 0) */
    cr_expect_eq(AT(ph->E, 0, x1, 3), 1.0);
    cr_expect_eq(AT(ph->E, 1, x2, 3), 1.0);
    for (int j = 0; j < 3; j++) cr_expect_eq(AT(ph->E, 2, j, 3), 0.0);
    cr_expect_eq(AT(ph->A, 0, z, 3), -0.5);
    cr_expect_eq(AT(ph->A, 1, z, 3), 1.0);
    cr_expect_eq(ph->b[0], 1.0);
    /* third row, by hand: 0 = x1 - x2 - 1 + 2 minus(x1) + 2 step(x1); with seed (17)'s
     * lambda1 = 2 minus(x1) and lambda2 = 2 - 2 step(x1): 0 = x1 - x2 + 1 + lambda1 - lambda2 */
    cr_expect_eq(AT(ph->A, 2, x1, 3), 1.0);
    cr_expect_eq(AT(ph->A, 2, x2, 3), -1.0);
    cr_expect_eq(AT(ph->A, 2, z, 3), 0.0);
    cr_expect_eq(AT(ph->B, 2, n, 3), 2.0);
    cr_expect_eq(AT(ph->B, 2, st, 3), 2.0);
    cr_expect_eq(ph->b[2], -1.0);
    /* 0 <= x1 + minus _|_ minus >= 0;  step in [0, 1] with w = -x1 */
    cr_expect_eq(s->kind[n], NSDAE_ROW_COMPLEMENTARITY);
    cr_expect_eq(AT(ph->C, n, x1, 2), 1.0);
    cr_expect_eq(AT(ph->D, n, n, 2), 1.0);
    cr_expect_eq(s->kind[st], NSDAE_ROW_BOX);
    cr_expect_eq(s->lo[st], 0.0);
    cr_expect_eq(s->hi[st], 1.0);
    cr_expect_eq(AT(ph->C, st, x1, 2), -1.0);
    cr_expect_eq(AT(ph->D, st, st, 2), 0.0);
    cr_expect_eq(s->y0[x1], -5.0);
    cr_expect_eq(s->y0[x2], 4.0);
    cr_expect_eq(s->stop_time, 10.0);
    cr_expect_eq(s->step, 0.01);
    cr_expect_eq(info->y_role[x1], NSDAE_ROLE_DIFFERENTIAL);
    cr_expect_eq(info->y_role[z], NSDAE_ROLE_ALGEBRAIC);
    cr_expect_eq(info->n_complementarity, 1);
    cr_expect_eq(info->n_box, 1);
    nsdae_translate_info_free(info);
    nsdae_mlcs_destroy(s);
}

/* The algebraic constraint's solution set in x2 for given x1: {1 + x1} for x1 > 0, {-1 - x1} for
 * x1 < 0, and the filled graph [-1, 1] at x1 = 0 (Rocca et al., Fig. 1). */
Test(translate, rocca_solution_set_of_the_switched_constraint)
{
    nsdae_mlcs *s = translate(ROCCA(-0.5, 1, -5, 4), NULL);
    const nsdae_mlcs_phase *ph = &s->phases[0];
    int x1 = yidx(s, "x1"), x2 = yidx(s, "x2"), n = lidx(s, "minus(x1)"), st = lidx(s, "step(x1)");
    double cases[][3] = {{2.0, 3.0, 3.0}, {-2.0, 1.0, 1.0}, {0.0, -1.0, 1.0}, {0.5, 1.5, 1.5}};
    for (int c = 0; c < 4; c++) {
        double y[3] = {0, 0, 0};
        y[x1] = cases[c][0];
        double na, nb, sa, sb;
        cr_assert(admissible(s, n, y, &na, &nb));
        cr_assert(admissible(s, st, y, &sa, &sb));
        cr_expect_eq(na, nb, "minus(x1) is unique");
        /* 0 = A[2,x1] x1 + A[2,x2] x2 + B n + B s + b  ->  x2 range over s in [sa, sb] */
        double base = AT(ph->A, 2, x1, 3) * y[x1] + AT(ph->B, 2, n, 3) * na + ph->b[2];
        double lo = (base + AT(ph->B, 2, st, 3) * sa) / -AT(ph->A, 2, x2, 3);
        double hi = (base + AT(ph->B, 2, st, 3) * sb) / -AT(ph->A, 2, x2, 3);
        cr_expect_float_eq(fmin(lo, hi), cases[c][1], 1e-15, "x1 = %g", cases[c][0]);
        cr_expect_float_eq(fmax(lo, hi), cases[c][2], 1e-15, "x1 = %g", cases[c][0]);
    }
    nsdae_mlcs_destroy(s);
}

/* The range of x2 allowed by the algebraic row (the row without E entries) at state x1, each
 * multiplier over its admissible interval (rows decoupled, as in these models). */
static void x2_range(const nsdae_mlcs *s, double x1v, double *lo, double *hi)
{
    const nsdae_mlcs_phase *ph = &s->phases[0];
    int ny = s->ny, x1 = yidx(s, "x1"), x2 = yidx(s, "x2"), row = -1;
    for (int i = 0; i < ny; i++) {
        int alg = 1;
        for (int j = 0; j < ny; j++)
            if (AT(ph->E, i, j, ny) != 0.0) alg = 0;
        if (alg && AT(ph->A, i, x2, ny) != 0.0) row = i;
    }
    cr_assert(row >= 0);
    double y[8] = {0};
    y[x1] = x1v;
    double l = ph->b[row] + AT(ph->A, row, x1, ny) * x1v, h = l;
    for (int k = 0; k < s->nl; k++) {
        double a, b;
        cr_assert(admissible(s, k, y, &a, &b));
        double c = AT(ph->B, row, k, ny);
        l += fmin(c * a, c * b);
        h += fmax(c * a, c * b);
    }
    double d = -AT(ph->A, row, x2, ny);
    *lo = fmin(l / d, h / d);
    *hi = fmax(l / d, h / d);
}

/* The `if` form of eq. (4) and the set-valued form (16), 0 = -x2 + |x1| + alpha with alpha in
 * sign(x1), written with abs and a relay: the same constraint set in x2 for every x1. */
Test(translate, rocca_if_form_equals_form_16)
{
    nsdae_mlcs *a = translate(ROCCA(-0.5, 1, -5, 4), NULL);
    nsdae_mlcs *b = translate("model r16\n var x1(start = -5);\n var x2(start = 4);\n var z;\n var alpha;\nequation\n"
                              " der(x1) = 1 - 0.5*z;\n der(x2) = z;\n 0 = -x2 + abs(x1) + alpha;\n alpha in sign(x1);\nend r16;\n",
                              NULL);
    cr_expect_eq(b->ny, 3);
    cr_expect_eq(b->nl, 2);
    double xs[] = {-3, -0.25, 0, 0.25, 3};
    for (int i = 0; i < 5; i++) {
        double la, ha, lb, hb;
        x2_range(a, xs[i], &la, &ha);
        x2_range(b, xs[i], &lb, &hb);
        cr_expect_float_eq(la, lb, 1e-15, "x1 = %g", xs[i]);
        cr_expect_float_eq(ha, hb, 1e-15, "x1 = %g", xs[i]);
    }
    nsdae_mlcs_destroy(a);
    nsdae_mlcs_destroy(b);
}

Test(translate, rocca_parameter_override)
{
    nsdae_model *m = parse(ROCCA(-0.5, 1, -5, 4));
    nsdae_error err;
    cr_assert_eq(nsdae_model_set_param(m, "B1", -1.0, &err), NSDAE_OK);
    nsdae_mlcs *s;
    cr_assert_eq(nsdae_translate_mlcs(m, &s, NULL, &err), NSDAE_OK, "%s", err.message);
    cr_expect_eq(AT(s->phases[0].A, 0, yidx(s, "z"), 3), -1.0);
    nsdae_mlcs_destroy(s);
    nsdae_model_destroy(m);
}

/* ---- nonsmooth functions ----------------------------------------------------------------------- */

#define ONE(eq) "model t\n var x(start = 1);\n var y;\nequation\n der(x) = 1;\n " eq "\nend t;\n"

/* y = value of the algebraic row at state x, the multiplier set being a point. */
static double algebraic_value(const nsdae_mlcs *s, double xv)
{
    const nsdae_mlcs_phase *ph = &s->phases[0];
    int x = yidx(s, "x"), y = yidx(s, "y");
    double yy[2] = {0, 0};
    yy[x] = xv;
    double r = ph->b[1] + AT(ph->A, 1, x, 2) * xv;
    for (int k = 0; k < s->nl; k++) {
        double a, b;
        cr_assert(admissible(s, k, yy, &a, &b));
        cr_assert_eq(a, b, "unique multiplier");
        r += AT(ph->B, 1, k, 2) * a;
    }
    return r / -AT(ph->A, 1, y, 2);
}

Test(translate, abs_relaxation)
{
    nsdae_mlcs *s = translate(ONE("y = abs(x - 1);"), NULL);
    cr_assert_eq(s->nl, 1);
    cr_expect_str_eq(s->l_names[0], "minus(x - 1)");
    cr_expect_eq(s->kind[0], NSDAE_ROW_COMPLEMENTARITY);
    double xs[] = {-3, 0, 1, 2.5};
    for (int i = 0; i < 4; i++) cr_expect_float_eq(algebraic_value(s, xs[i]), fabs(xs[i] - 1), 1e-15, "x=%g", xs[i]);
    nsdae_mlcs_destroy(s);
}

Test(translate, max_and_min_relaxation)
{
    nsdae_mlcs *s = translate(ONE("y = max(x, 1);"), NULL);
    cr_expect_str_eq(s->l_names[0], "plus(x - 1)");
    double xs[] = {-3, 1, 2.5};
    for (int i = 0; i < 3; i++) cr_expect_float_eq(algebraic_value(s, xs[i]), fmax(xs[i], 1), 1e-15);
    nsdae_mlcs_destroy(s);
    s = translate(ONE("y = 2*min(x, 1);"), NULL);
    for (int i = 0; i < 3; i++) cr_expect_float_eq(algebraic_value(s, xs[i]), 2 * fmin(xs[i], 1), 1e-15);
    nsdae_mlcs_destroy(s);
    /* max and min of the same pair share one multiplier */
    s = translate("model t\n var x;\n var y;\n var z;\nequation\n der(x) = 1;\n y = max(x, 0);\n z = min(x, 0);\nend t;\n",
                  NULL);
    cr_expect_eq(s->nl, 1);
    nsdae_mlcs_destroy(s);
}

Test(translate, sign_function_is_set_valued)
{
    nsdae_mlcs *s = translate(ONE("y = 3*sign(x);"), NULL);
    cr_assert_eq(s->nl, 1);
    cr_expect_eq(s->kind[0], NSDAE_ROW_BOX);
    cr_expect_eq(s->lo[0], -1.0);
    cr_expect_eq(s->hi[0], 1.0);
    cr_expect_float_eq(algebraic_value(s, 2.0), 3.0, 1e-15);
    cr_expect_float_eq(algebraic_value(s, -0.1), -3.0, 1e-15);
    double y[2] = {0, 0}, a, b;
    cr_assert(admissible(s, 0, y, &a, &b)); /* x = 0: sign in [-1, 1] */
    cr_expect_eq(a, -1.0);
    cr_expect_eq(b, 1.0);
    nsdae_mlcs_destroy(s);
}

/* ---- relations ------------------------------------------------------------------------------ */

Test(translate, relay_two_states_boxes)
{
    char path[512];
    snprintf(path, sizeof path, "%s/examples/relay_two_states.nsm", NSDAE_SOURCE_DIR);
    nsdae_model *m;
    nsdae_error err;
    cr_assert_eq(nsdae_model_parse_file(path, &m, &err), NSDAE_OK, "%s", err.message);
    nsdae_mlcs *s;
    cr_assert_eq(nsdae_translate_mlcs(m, &s, NULL, &err), NSDAE_OK, "%s", err.message);
    /* x' = 2 l, l in -sign(x) = [-1, 1] sign(-x): box with w = x */
    int x1 = yidx(s, "x1"), l1 = lidx(s, "l1");
    cr_expect_eq(AT(s->phases[0].B, x1, l1, 2), 2.0);
    cr_expect_eq(AT(s->phases[0].C, l1, x1, 2), 1.0);
    double y[2] = {0, 0}, a, b;
    y[x1] = 0.3;
    cr_assert(admissible(s, l1, y, &a, &b));
    cr_expect(a == -1.0 && b == -1.0, "x1 > 0: l1 = -1, got [%g, %g]", a, b);
    y[x1] = 0.0;
    cr_assert(admissible(s, l1, y, &a, &b));
    cr_expect(a == -1.0 && b == 1.0);
    nsdae_mlcs_destroy(s);
    nsdae_model_destroy(m);
}

Test(translate, relay_with_bounds_and_second_order)
{
    nsdae_mlcs *s = translate("model c\n parameter F = 2;\n var x(start = 1, dstart = 3);\n var f;\nequation\n"
                              " 2*der(der(x)) = -10*x + f;\n f in [-F, 0.5*F] * sign(-der(x));\nend c;\n", NULL);
    cr_assert_eq(s->ny, 2);
    int x = yidx(s, "x"), v = yidx(s, "der(x)"), f = lidx(s, "f");
    cr_expect_eq(s->y0[v], 3.0);
    cr_expect_eq(s->lo[f], -2.0);
    cr_expect_eq(s->hi[f], 1.0);
    const nsdae_mlcs_phase *ph = &s->phases[0];
    /* rows: 2 v' = -10 x + f ; x' = v */
    cr_expect_eq(AT(ph->E, 0, v, 2), 2.0);
    cr_expect_eq(AT(ph->A, 0, x, 2), -10.0);
    cr_expect_eq(AT(ph->B, 0, f, 2), 1.0);
    cr_expect_eq(AT(ph->E, 1, x, 2), 1.0);
    cr_expect_eq(AT(ph->A, 1, v, 2), 1.0);
    double y[2] = {0, 0}, a, b;
    y[v] = 1.0; /* moving right: friction at its lower bound */
    cr_assert(admissible(s, f, y, &a, &b));
    cr_expect(a == -2.0 && b == -2.0);
    y[v] = -1.0;
    cr_assert(admissible(s, f, y, &a, &b));
    cr_expect(a == 1.0 && b == 1.0);
    nsdae_mlcs_destroy(s);
}

Test(translate, complementarity_pairs_a_variable_or_links_a_multiplier)
{
    /* l is never differentiated: it is the multiplier itself */
    nsdae_mlcs *s = translate("model t\n var x(start = -1);\n var l;\nequation\n der(x) = l;\n 0 <= x + 2 _|_ l >= 0;\nend t;\n",
                              NULL);
    cr_assert_eq(s->ny, 1);
    cr_assert_eq(s->nl, 1);
    cr_expect_str_eq(s->l_names[0], "l");
    cr_expect_eq(s->phases[0].C[0], 1.0);
    cr_expect_eq(s->phases[0].c[0], 2.0);
    cr_expect_eq(s->phases[0].B[0], 1.0);
    double y[1] = {-3}, a, b; /* w = x + 2 = -1 < 0 with D = 0: no admissible l */
    cr_expect_eq(admissible(s, 0, y, &a, &b), 0);
    y[0] = -2; /* w = 0: any l >= 0 */
    cr_assert(admissible(s, 0, y, &a, &b));
    cr_expect(a == 0.0 && b == INFINITY);
    y[0] = 1; /* w > 0: l = 0 */
    cr_assert(admissible(s, 0, y, &a, &b));
    cr_expect(a == 0.0 && b == 0.0);
    nsdae_mlcs_destroy(s);
    /* the multiplier side is an expression: a new multiplier and the row mult = l + 1 */
    nsdae_translate_info *info;
    s = translate("model t\n var x(start = -1);\n var l;\nequation\n der(x) = l;\n 0 <= x + 2 _|_ l + 1 >= 0;\nend t;\n", &info);
    cr_assert_eq(s->ny, 2);
    cr_assert_eq(s->nl, 1);
    cr_expect_str_eq(s->l_names[0], "mult(l + 1)");
    cr_expect_eq(info->y_role[yidx(s, "l")], NSDAE_ROLE_ALGEBRAIC);
    cr_expect_eq(info->l_var[0], -1);
    nsdae_translate_info_free(info);
    nsdae_mlcs_destroy(s);
}

Test(translate, diode_bridge_structure)
{
    char path[512];
    snprintf(path, sizeof path, "%s/examples/diode_bridge.nsm", NSDAE_SOURCE_DIR);
    nsdae_model *m;
    nsdae_error err;
    cr_assert_eq(nsdae_model_parse_file(path, &m, &err), NSDAE_OK, "%s", err.message);
    nsdae_mlcs *s;
    cr_assert_eq(nsdae_translate_mlcs(m, &s, NULL, &err), NSDAE_OK, "%s", err.message);
    cr_expect_eq(s->ny, 4);
    cr_expect_eq(s->nl, 4);
    int v = yidx(s, "v"), iL = yidx(s, "iL"), i1 = lidx(s, "i1"), i2 = lidx(s, "i2");
    const nsdae_mlcs_phase *ph = &s->phases[0];
    /* C v' = -iL - i1 + i2 */
    int row = -1;
    for (int i = 0; i < 4; i++)
        if (AT(ph->E, i, v, 4) != 0.0) row = i;
    cr_assert(row >= 0);
    cr_expect_float_eq(AT(ph->E, row, v, 4), 1e-6, 1e-20);
    cr_expect_eq(AT(ph->A, row, iL, 4), -1.0);
    cr_expect_eq(AT(ph->B, row, i1, 4), -1.0);
    cr_expect_eq(AT(ph->B, row, i2, 4), 1.0);
    cr_expect_eq(s->y0[v], 10.0);
    nsdae_mlcs_destroy(s);
    nsdae_model_destroy(m);
}

/* ---- time: phases and forcing ------------------------------------------------------------------ */

Test(translate, time_guarded_if_gives_phases)
{
    nsdae_mlcs *s = translate("model t\n parameter te = 1;\n var x(start = 1);\n var y;\nequation\n der(x) = y;\n"
                              " if time < te then\n  y = -x;\n elseif time < 2*te then\n  y = 0;\n else\n  y = 1;\n end if;\nend t;\n",
                              NULL);
    cr_assert_eq(s->nphases, 3);
    cr_expect_eq(nsdae_mlcs_phase_index(s, 0.5), 0);
    cr_expect_eq(nsdae_mlcs_phase_index(s, 1.5), 1);
    cr_expect_eq(nsdae_mlcs_phase_index(s, 2.0), 2);
    int x = yidx(s, "x"), y = yidx(s, "y");
    cr_expect_eq(AT(s->phases[0].A, 1, x, 2), -1.0);
    cr_expect_eq(AT(s->phases[0].A, 1, y, 2), -1.0);
    cr_expect_eq(AT(s->phases[1].A, 1, x, 2), 0.0);
    cr_expect_eq(s->phases[2].b[1], 1.0);
    nsdae_mlcs_destroy(s);
}

Test(translate, nested_time_guards_only_under_their_branch)
{
    nsdae_mlcs *s = translate("model t\n var x;\nequation\n if time > 1 then\n  if time > 2 then\n   x = 2;\n  else\n   x = 1;\n"
                              "  end if;\n else\n  x = 0;\n end if;\nend t;\n", NULL);
    cr_assert_eq(s->nphases, 3);
    double want[] = {0, 1, 2}, ts[] = {0.5, 1.5, 2.5};
    for (int k = 0; k < 3; k++) {
        int p = nsdae_mlcs_phase_index(s, ts[k]);
        cr_expect_eq(s->phases[p].b[0], want[k], "t = %g", ts[k]);
    }
    nsdae_mlcs_destroy(s);
}

Test(translate, time_in_expressions_is_forcing)
{
    nsdae_mlcs *s = translate("model t\n parameter w = 2;\n var x;\n var y;\n var l;\nequation\n"
                              " der(x) = -x + sin(w*time) + l;\n 0 <= y - time _|_ l >= 0;\n y = 3;\nend t;\n", NULL);
    cr_assert_not_null(s->forcing);
    double b[2], c[1];
    nsdae_mlcs_rhs_at(s, 0.3, b, c);
    cr_expect_float_eq(b[0], sin(0.6), 1e-15);
    cr_expect_float_eq(c[0], -0.3, 1e-15);
    nsdae_mlcs_destroy(s);
}

Test(translate, clutch_two_phases)
{
    char path[512];
    snprintf(path, sizeof path, "%s/examples/clutch_exogenous.nsm", NSDAE_SOURCE_DIR);
    nsdae_model *m;
    nsdae_error err;
    cr_assert_eq(nsdae_model_parse_file(path, &m, &err), NSDAE_OK, "%s", err.message);
    nsdae_mlcs *s;
    cr_assert_eq(nsdae_translate_mlcs(m, &s, NULL, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(s->nphases, 2);
    int engaged = nsdae_mlcs_phase_index(s, 1.5), open = nsdae_mlcs_phase_index(s, 0.5);
    cr_expect_neq(engaged, open);
    cr_expect_eq(nsdae_mlcs_phase_index(s, 1.0), engaged, "time >= t_e at t_e");
    int w1 = yidx(s, "w1"), w2 = yidx(s, "w2");
    /* the row w1 = w2, up to its sign */
    cr_expect_neq(AT(s->phases[engaged].A, 2, w1, 4), 0.0);
    cr_expect_eq(AT(s->phases[engaged].A, 2, w1, 4), -AT(s->phases[engaged].A, 2, w2, 4));
    cr_expect_eq(AT(s->phases[open].A, 2, w1, 4), 0.0);
    nsdae_mlcs_destroy(s);
    nsdae_model_destroy(m);
}

/* ---- refusals --------------------------------------------------------------------------------- */

Test(translate, refuses_inexact_state_switch)
{
    refused("model t\n var x;\n var y;\n var z;\nequation\n der(x) = 1;\n z = 2;\n if x > 0 then\n  y = 1;\n else\n  y = z;\n end if;\nend t;\n",
            NSDAE_UNSUPPORTED,
            "t.nsm:9:3: equation 'y = 1': the state switch of the 'if' at line 8 cannot be relaxed exactly: the "
            "difference between its branches, z - 1, is not a*h + k with constants a, k for h = x");
}

Test(translate, refuses_and_in_state_guard)
{
    refused("model t\n var x;\n var y;\nequation\n der(x) = 1;\n if x > 0 and x < 1 then\n  y = 1;\n else\n  y = 0;\n end if;\nend t;\n",
            NSDAE_UNSUPPORTED, "cannot be relaxed into one switching function");
}

Test(translate, refuses_restitution)
{
    refused("model b\n var q(start = 1);\n var l;\nequation\n der(der(q)) = -9.81 + l;\n 0 <= q _|_ l >= 0 restitution 0.9;\nend b;\n",
            NSDAE_UNSUPPORTED, "t.nsm:6:2: equation '0 <= q _|_ l >= 0 restitution 0.9': an impact law (restitution) "
                               "on a unilateral constraint needs the Moreau-Jean scheme");
}

Test(translate, refuses_nonlinear_terms)
{
    refused("model t\n var x;\n var y;\nequation\n der(x) = x*y;\n y = 1;\nend t;\n", NSDAE_UNSUPPORTED,
            "t.nsm:5:2: equation 'der(x) = x*y': nonlinear term 'x*y' in the unknowns");
}

Test(translate, refuses_time_dependent_coefficients)
{
    refused("model t\n var x;\nequation\n der(x) = time*x;\nend t;\n", NSDAE_UNSUPPORTED,
            "the coefficient of 'x' depends on time");
}

Test(translate, refuses_non_square_models)
{
    refused("model t\n var x;\n var y;\nequation\n der(x) = y;\nend t;\n", NSDAE_UNSUPPORTED, "1 equations for 2 unknowns");
}

Test(translate, refuses_when)
{
    refused("model t\n var x;\nequation\n der(x) = 1;\n when x > 1 then\n  x = 0;\n end when;\nend t;\n", NSDAE_UNSUPPORTED,
            "t.nsm:5:2: 'when': transient modes");
}

Test(translate, refuses_derivative_inside_relation)
{
    refused("model t\n var x;\n var l;\nequation\n der(x) = l;\n 0 <= der(x) + 1 _|_ l >= 0;\nend t;\n", NSDAE_UNSUPPORTED,
            "der(x) inside a set-valued relation");
}

Test(translate, refuses_relation_inside_state_if)
{
    refused("model t\n var x;\n var l;\nequation\n der(x) = l;\n if x > 0 then\n  0 <= x _|_ l >= 0;\n else\n  l = 0;\n end if;\nend t;\n",
            NSDAE_UNSUPPORTED, "a complementarity relation inside a state-guarded 'if'");
}

Test(translate, state_switch_of_vector_field_is_exact)
{
    /* der(x) = 1 for x < 0, -1 for x > 0: g1 - g2 = 2 = 0*h + 2: Filippov sliding on x = 0 */
    nsdae_mlcs *s = translate("model t\n var x(start = 1);\nequation\n if x > 0 then\n  der(x) = -1;\n else\n  der(x) = 1;\n end if;\nend t;\n",
                              NULL);
    cr_assert_eq(s->nl, 1);
    cr_expect_str_eq(s->l_names[0], "step(x)");
    /* x' = 1 - 2 step(x) */
    cr_expect_eq(s->phases[0].b[0], 1.0);
    cr_expect_eq(s->phases[0].B[0], -2.0);
    nsdae_mlcs_destroy(s);
}

/* ---- every example parses and translates ----------------------------------------------------- */

Test(translate, all_examples)
{
    const char *names[] = {"rocca_crossing", "rocca_repulsive", "diode_bridge", "rlc_diode", "half_wave_rectifier",
                           "relay_two_states", "relay_oscillator", "coulomb_friction", "clutch_exogenous"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/examples/%s.nsm", NSDAE_SOURCE_DIR, names[i]);
        nsdae_model *m;
        nsdae_error err;
        cr_assert_eq(nsdae_model_parse_file(path, &m, &err), NSDAE_OK, "%s", err.message);
        cr_expect_str_eq(nsdae_model_name(m), names[i]);
        nsdae_mlcs *s;
        cr_expect_eq(nsdae_translate_mlcs(m, &s, NULL, &err), NSDAE_OK, "%s: %s", names[i], err.message);
        cr_expect_eq(nsdae_mlcs_validate(s, &err), NSDAE_OK, "%s", err.message);
        cr_expect(s->stop_time > 0 && s->step > 0, "%s has an experiment", names[i]);
        nsdae_mlcs_destroy(s);
        nsdae_model_destroy(m);
    }
}

/* The longest statement the parser accepts goes through every recursive stage without
 * exhausting the stack (also under AddressSanitizer, whose frames are larger). */
Test(translate, longest_statement)
{
    size_t n = 4990;
    char *src = malloc(12 * n + 400);
    cr_assert_not_null(src);
    size_t k = (size_t)sprintf(src, "model d\n var x(start = 1);\n var y;\nequation\n der(x) = y;\n y = abs(x)");
    for (size_t i = 0; i < n; i++) k += (size_t)sprintf(src + k, " - max(x, 1)");
    sprintf(src + k, ";\nend d;\n");
    nsdae_mlcs *s = translate(src, NULL);
    cr_expect_eq(s->nl, 2);
    /* y = x + 2 minus(x) - n (1 + plus(x - 1)) */
    cr_expect_eq(AT(s->phases[0].B, 1, lidx(s, "plus(x - 1)"), 2), -(double)n);
    nsdae_mlcs_destroy(s);
    free(src);
}

/* Sibling guards time > 1 and time > 2: (not > 1, > 2) never occurs; 3 phases, not 4. A guard
 * that is not affine in time keeps every combination. */
Test(translate, phases_that_cannot_occur_are_pruned)
{
    nsdae_mlcs *s = translate("model t\n var x;\n var y;\nequation\n if time > 1 then\n  x = 1;\n else\n  x = 0;\n end if;\n"
                              " if 2 < time then\n  y = 1;\n else\n  y = 0;\n end if;\nend t;\n", NULL);
    cr_expect_eq(s->nphases, 3);
    double ts[] = {0.0, 1.5, 3.0}, want[][2] = {{0, 0}, {1, 0}, {1, 1}};
    for (int k = 0; k < 3; k++) {
        double b[2], c[1];
        nsdae_mlcs_rhs_at(s, ts[k], b, c);
        cr_expect(b[0] == want[k][0] && b[1] == want[k][1], "t = %g: b = (%g, %g)", ts[k], b[0], b[1]);
    }
    nsdae_mlcs_destroy(s);
    s = translate("model t\n var x;\n var y;\nequation\n if sin(time) > 0 then\n  x = 1;\n else\n  x = 0;\n end if;\n"
                  " if time > 2 then\n  y = 1;\n else\n  y = 0;\n end if;\nend t;\n", NULL);
    cr_expect_eq(s->nphases, 4);
    nsdae_mlcs_destroy(s);
}

/* Guards written with '<' and 'not': if x < 0 then y = -x else y = x is y = |x| on both sides and
 * on the switching surface (g1 - g2 = 2 x = -2 h with h = -x: no step multiplier needed). */
Test(translate, state_guards_with_lt_and_not)
{
    const char *srcs[] = {ONE("if x < 0 then\n  y = -x;\n else\n  y = x;\n end if;"),
                          ONE("if not x >= 0 then\n  y = -x;\n else\n  y = x;\n end if;")};
    for (int k = 0; k < 2; k++) {
        nsdae_mlcs *s = translate(srcs[k], NULL);
        cr_expect_eq(s->nl, 1);
        double xs[] = {-2, 0, 3};
        for (int i = 0; i < 3; i++)
            cr_expect_float_eq(algebraic_value(s, xs[i]), fabs(xs[i]), 1e-15, "form %d, x = %g", k, xs[i]);
        nsdae_mlcs_destroy(s);
    }
}

/* A time guard inside a state-guarded branch: one phase per time branch, each relaxed. */
Test(translate, time_guard_inside_state_guard)
{
    nsdae_mlcs *s = translate(ONE("if x > 0 then\n  if time > 1 then\n   y = 1;\n  else\n   y = 2;\n  end if;\n"
                                  " else\n  y = 0;\n end if;"),
                              NULL);
    cr_assert_eq(s->nphases, 2);
    cr_assert_eq(s->nl, 1);
    cr_expect_str_eq(s->l_names[0], "step(x)");
    int early = nsdae_mlcs_phase_index(s, 0.5), late = nsdae_mlcs_phase_index(s, 2.0);
    cr_expect_neq(early, late);
    /* 0 = -sy y + B step(x), y = 2 step(x) before t = 1 and 1 step(x) after */
    int y = yidx(s, "y");
    double sy = -AT(s->phases[early].A, 1, y, 2);
    cr_expect_float_eq(AT(s->phases[early].B, 1, 0, 2) / sy, 2.0, 1e-15);
    cr_expect_float_eq(AT(s->phases[late].B, 1, 0, 2) / sy, 1.0, 1e-15);
    nsdae_mlcs_destroy(s);
}
