/* Expression DAG: hash-consing, evaluation, differentiation, printing, affine decomposition,
 * and the IR built from a valid model. Expected values are computed by hand. */
#include <criterion/criterion.h>
#include <nsdae/mode.h>
#include <nsdae/model.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

static nsdae_model *parse(const char *src)
{
    nsdae_model *m = NULL;
    nsdae_error err;
    nsdae_status st = nsdae_model_parse_string(src, strlen(src), "t.nsm", &m, &err);
    cr_assert_eq(st, NSDAE_OK, "%s", err.message);
    return m;
}

/* Parses "model t var x; var y; parameter ... equation <lhs> = 0; end t;" and returns the lhs. */
static const nsdae_expr *lhs_of(nsdae_model *m, int i) { return nsdae_model_equation(m, i)->lhs; }

static const char *pr(nsdae_model *m, const nsdae_expr *e)
{
    static char buf[512];
    nsdae_model_print_expr(m, e, buf, sizeof buf);
    return buf;
}

/* A pool to build on the model's read-only expressions. */
static nsdae_expr_pool *extend(const nsdae_model *m)
{
    nsdae_expr_pool *p = NULL;
    nsdae_error err;
    cr_assert_eq(nsdae_expr_pool_create_over(nsdae_model_pool(m), &p, &err), NSDAE_OK, "%s", err.message);
    return p;
}

#define MODEL(eqs) "model t\n parameter a = 3;\n var x;\n var y;\nequation\n" eqs "end t;\n"

Test(expr, hash_consing_shares_equal_subexpressions)
{
    nsdae_model *m = parse(MODEL("sin(x*y) + a = 0;\n 2*sin(x*y) = 0;\n"));
    const nsdae_expr *e0 = lhs_of(m, 0), *e1 = lhs_of(m, 1);
    cr_assert_eq(e0->kind, NSDAE_EXPR_ADD);
    cr_assert_eq(e1->kind, NSDAE_EXPR_MUL);
    cr_expect_eq(e0->a, e1->b, "sin(x*y) is one node");
    nsdae_expr_pool *p = extend(m);
    cr_expect_eq(nsdae_expr_var(p, 0, 0), nsdae_expr_var(p, 0, 0));
    cr_expect_neq(nsdae_expr_var(p, 0, 0), nsdae_expr_var(p, 0, 1));
    cr_expect_eq(nsdae_expr_const(p, 0.0), nsdae_expr_const(p, -0.0));
    nsdae_expr_pool_destroy(p);
    nsdae_model_destroy(m);
}

Test(expr, evaluation)
{
    nsdae_model *m = parse(MODEL("x^2 + a*der(y) - max(x, y)/2 + sqrt(abs(y)) * exp(0) - time = 0;\n"));
    /* x = 2, y = -4, der(y) = 0.5, time = 1.5: 4 + 1.5 - 1 + 2 - 1.5 = 5 */
    double vars[] = {2, -4, 0, 0.5};
    nsdae_eval_env env = {nsdae_model_param_values(m), nsdae_model_nparams(m), vars, 2, 1, 1.5};
    cr_expect_float_eq(nsdae_expr_eval(lhs_of(m, 0), &env), 5.0, 1e-14);
    env.max_order = 0; /* der(y) no longer available */
    cr_expect(isnan(nsdae_expr_eval(lhs_of(m, 0), &env)));
    nsdae_model_destroy(m);
}

Test(expr, simplification_on_construction)
{
    nsdae_model *m = parse(MODEL("x*1 + 0 - (y - y) = 0;\n --x = 0;\n 2*(3*x) = 0;\n (1 + 2)*a = 0;\n"));
    cr_expect_str_eq(pr(m, lhs_of(m, 0)), "x");
    cr_expect_str_eq(pr(m, lhs_of(m, 1)), "x");
    cr_expect_str_eq(pr(m, lhs_of(m, 2)), "6*x");
    cr_expect_str_eq(pr(m, lhs_of(m, 3)), "3*a");
    nsdae_model_destroy(m);
}

Test(expr, partial_derivatives)
{
    nsdae_model *m = parse(MODEL("x^3*y + sin(x) = 0;\n x/y = 0;\n"));
    nsdae_expr_pool *p = extend(m);
    nsdae_error err;
    const nsdae_expr *d;
    cr_assert_eq(nsdae_expr_diff(p, lhs_of(m, 0), 0, 0, &d, &err), NSDAE_OK);
    /* d/dx = 3x^2 y + cos x; at x = 2, y = 5: 60 + cos 2 */
    double vars[] = {2, 5};
    nsdae_eval_env env = {nsdae_model_param_values(m), 1, vars, 2, 0, 0};
    cr_expect_float_eq(nsdae_expr_eval(d, &env), 60 + cos(2.0), 1e-12);
    cr_assert_eq(nsdae_expr_diff(p, lhs_of(m, 1), 1, 0, &d, &err), NSDAE_OK);
    cr_expect_float_eq(nsdae_expr_eval(d, &env), -2.0 / 25.0, 1e-14);
    /* with respect to der(x): absent */
    cr_assert_eq(nsdae_expr_diff(p, lhs_of(m, 0), 0, 1, &d, &err), NSDAE_OK);
    cr_expect_str_eq(pr(m, d), "0");
    nsdae_expr_pool_destroy(p);
    nsdae_model_destroy(m);
}

Test(expr, time_derivative_raises_orders)
{
    nsdae_model *m = parse(MODEL("x*der(y) + a*time = 0;\n"));
    nsdae_error err;
    const nsdae_expr *d;
    nsdae_expr_pool *p = extend(m);
    cr_assert_eq(nsdae_expr_dt(p, lhs_of(m, 0), &d, &err), NSDAE_OK);
    cr_expect_str_eq(pr(m, d), "der(x)*der(y) + x*der(der(y)) + a");
    cr_expect_eq(nsdae_expr_max_order(d, 1), 2);
    cr_expect_eq(nsdae_expr_max_order(d, 0), 1);
    cr_expect_eq(nsdae_expr_max_order(lhs_of(m, 0), 0), 0);
    cr_expect_eq(nsdae_expr_max_order(nsdae_expr_param(p, 0), 0), -1);
    nsdae_expr_pool_destroy(p);
    nsdae_model_destroy(m);
}

Test(expr, printer_round_trip)
{
    const char *texts[] = {"x - (y - 1)", "-x^2", "(x + y)^(a - 1)", "x^y^2", "2/(x*y)", "-(x*y) + min(x, -y)",
                           "der(der(x))*time", "x/y/a", "(-x)^2"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        char src[1200];
        snprintf(src, sizeof src, MODEL("%s = 0;\n"), texts[i]);
        nsdae_model *m = parse(src);
        char once[600];
        snprintf(once, sizeof once, "%s", pr(m, lhs_of(m, 0)));
        snprintf(src, sizeof src, MODEL("%s = 0;\n"), once);
        nsdae_model *m2 = parse(src);
        cr_expect_str_eq(pr(m2, lhs_of(m2, 0)), once, "reprint of %s", texts[i]);
        double vars[] = {1.5, 0.7, 0.3, 0.2, -2, 0.4};
        nsdae_eval_env env = {nsdae_model_param_values(m), 1, vars, 2, 2, 0.25};
        cr_expect_float_eq(nsdae_expr_eval(lhs_of(m, 0), &env), nsdae_expr_eval(lhs_of(m2, 0), &env), 1e-13,
                           "%s vs %s", texts[i], once);
        nsdae_model_destroy(m);
        nsdae_model_destroy(m2);
    }
}

Test(expr, affine_coefficients)
{
    nsdae_model *m = parse(MODEL("a*(2*x - y/4) + 3 - x*a + der(x) + time = 0;\n"));
    nsdae_expr_pool *p = extend(m);
    nsdae_leaf leaves[] = {{0, 0}, {1, 0}, {0, 1}};
    const nsdae_expr *coef[3], *rest;
    nsdae_error err;
    cr_assert_eq(nsdae_expr_affine(p, lhs_of(m, 0), leaves, 3, NULL, 0, NULL, 0, coef, &rest, &err), NSDAE_OK,
                 "%s", err.message);
    nsdae_eval_env env = {nsdae_model_param_values(m), 1, NULL, 0, 0, 2.0};
    cr_expect_float_eq(nsdae_expr_eval(coef[0], &env), 3.0, 1e-14); /* 2a - a */
    cr_expect_float_eq(nsdae_expr_eval(coef[1], &env), -0.75, 1e-14);
    cr_expect_float_eq(nsdae_expr_eval(coef[2], &env), 1.0, 1e-14);
    cr_expect_float_eq(nsdae_expr_eval(rest, &env), 5.0, 1e-14);
    nsdae_expr_pool_destroy(p);
    nsdae_model_destroy(m);
}

Test(expr, affine_refusal_names_the_term)
{
    nsdae_model *m = parse(MODEL("der(x) - x*y + 1 = 0;\n sin(x) = 0;\n"));
    nsdae_expr_pool *p = extend(m);
    nsdae_leaf leaves[] = {{0, 0}, {1, 0}, {0, 1}};
    const nsdae_expr *coef[3], *rest;
    nsdae_error err;
    cr_assert_eq(nsdae_expr_affine(p, lhs_of(m, 0), leaves, 3, nsdae_model_var_names(m), 2, NULL, 0, coef, &rest,
                                   &err),
                 NSDAE_UNSUPPORTED);
    cr_expect_str_eq(err.message, "nonlinear term 'x*y' in the unknowns");
    cr_assert_eq(nsdae_expr_affine(p, lhs_of(m, 1), leaves, 3, nsdae_model_var_names(m), 2, NULL, 0, coef, &rest,
                                   &err),
                 NSDAE_UNSUPPORTED);
    cr_expect_str_eq(err.message, "nonlinear term 'sin(x)' in the unknowns");
    /* affine in y only: x*y has coefficient x */
    nsdae_leaf only_y[] = {{1, 0}};
    cr_assert_eq(nsdae_expr_affine(p, lhs_of(m, 0), only_y, 1, NULL, 0, NULL, 0, coef, &rest, &err), NSDAE_OK);
    cr_expect_str_eq(pr(m, coef[0]), "-x");
    nsdae_expr_pool_destroy(p);
    nsdae_model_destroy(m);
}

Test(ir, full_model)
{
    nsdae_model *m = parse("model m /* block */\n  parameter a = 2;\n  parameter b = a*3;\n"
                           "  var x(start = a, dstart = -1);\n  var l;\n  var unused;\nequation\n"
                           "  der(der(x)) = -a*x + l;\n  0 <= x + 1 _|_ l >= 0 restitution 0.5;\n"
                           "  if (x > 0 and not x > 1) or time < 1 then\n    l = 0;\n  elseif time > 3 then\n    l = 1;\n"
                           "  else\n    l in [-1, b] * sign(x);\n  end if;\n"
                           "  if time > 2 then\n    if x > 0 then\n      x = 1;\n    else\n      x = 2;\n    end if;\n"
                           "  else\n    x = 3;\n  end if;\n"
                           "  when x < 0 then\n    x = 0;\n  end when;\n"
                           "experiment stop = 10*a, step = 0.1, scheme = euler;\nend m;\n");
    cr_assert_eq(nsdae_model_nvars(m), 3);
    cr_expect_eq(nsdae_model_var(m, 0)->max_order, 2);
    cr_expect_eq(nsdae_model_var(m, 1)->max_order, 0);
    cr_expect_eq(nsdae_model_var(m, 2)->max_order, -1);
    cr_expect_float_eq(nsdae_model_start_value(m, 0, 0), 2.0, 0);
    cr_expect_float_eq(nsdae_model_start_value(m, 0, 1), -1.0, 0);
    cr_assert_eq(nsdae_model_nequations(m), 9);
    const nsdae_equation *c = nsdae_model_equation(m, 1);
    cr_expect_eq(c->kind, NSDAE_EQ_COMPL);
    cr_expect_str_eq(c->text, "0 <= x + 1 _|_ l >= 0 restitution 0.5");
    cr_expect_eq(c->pos.line, 9);
    cr_expect_eq(c->pos.col, 3);
    const nsdae_equation *s = nsdae_model_equation(m, 4);
    cr_expect_eq(s->kind, NSDAE_EQ_SIGN);
    cr_expect_eq(s->block, 0);
    cr_expect_eq(s->branch, 2);
    cr_assert_eq(nsdae_model_nblocks(m), 4);
    const nsdae_block *b0 = nsdae_model_block(m, 0);
    cr_expect_eq(b0->nbranches, 3);
    cr_expect_eq(b0->time_only, 0);
    cr_expect_eq(b0->conds[0]->kind, NSDAE_COND_OR);
    const nsdae_block *b1 = nsdae_model_block(m, 1), *b2 = nsdae_model_block(m, 2);
    cr_expect_eq(b1->time_only, 1);
    cr_expect_eq(b2->parent, 1);
    cr_expect_eq(b2->parent_branch, 0);
    cr_expect_eq(nsdae_model_equation(m, 5)->block, 2);
    cr_expect_eq(nsdae_model_equation(m, 7)->block, 1);
    cr_expect_eq(nsdae_model_block(m, 3)->kind, NSDAE_BLOCK_WHEN);
    cr_expect_float_eq(nsdae_model_experiment(m)->stop, 20.0, 0);
    cr_expect_str_eq(nsdae_model_experiment(m)->scheme, "euler");
    /* overriding a recomputes b = 3a and the experiment */
    nsdae_error err;
    cr_assert_eq(nsdae_model_set_param(m, "a", 4.0, &err), NSDAE_OK);
    cr_expect_float_eq(nsdae_model_param(m, 1)->value, 12.0, 0);
    cr_expect_float_eq(nsdae_model_experiment(m)->stop, 40.0, 0);
    cr_expect_eq(nsdae_model_set_param(m, "nope", 1.0, &err), NSDAE_INVALID_INPUT);
    cr_expect(strstr(err.message, "'nope'") != NULL);
    nsdae_model_destroy(m);
}

/* The model equations a mode keeps (via the mode module; choices per switch in source order:
 * outer if, inner if, when). Writes their indices to eqs and returns their count. */
static int mode_equations(const nsdae_model *m, const int *choice, int *eqs)
{
    nsdae_switches *sw = NULL;
    nsdae_mode_system *ms = NULL;
    nsdae_error err;
    cr_assert_eq(nsdae_mode_switches(m, &sw, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(nsdae_mode_equations(m, sw, choice, &ms, &err), NSDAE_OK, "%s", err.message);
    int n = ms->neq;
    for (int i = 0; i < n; i++) eqs[i] = ms->eqs[i].origin;
    nsdae_mode_system_destroy(ms);
    nsdae_mode_switches_destroy(sw);
    return n;
}

Test(ir, mode_equations)
{
    nsdae_model *m = parse("model m\n var x;\n var y;\nequation\n der(x) = y;\n"
                           " if x > 0 then\n  if time > 1 then\n   y = 1;\n  else\n   y = 2;\n  end if;\n else\n  y = 3;\n end if;\n"
                           " when x < 0 then\n  x = 0;\n end when;\nend m;\n");
    int eqs[8];
    int c1[] = {0, 1, 0}; /* outer then, inner else, when inactive */
    cr_assert_eq(mode_equations(m, c1, eqs), 2);
    cr_expect_eq(eqs[0], 0);
    cr_expect_str_eq(nsdae_model_equation(m, eqs[1])->text, "y = 2");
    int c2[] = {1, 0, 1}; /* outer else (inner ignored), when active */
    cr_assert_eq(mode_equations(m, c2, eqs), 3);
    cr_expect_str_eq(nsdae_model_equation(m, eqs[1])->text, "y = 3");
    cr_expect_str_eq(nsdae_model_equation(m, eqs[2])->text, "x = 0");
    nsdae_model_destroy(m);
}
