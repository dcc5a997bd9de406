/* Arrays and loops of the .nsm language: what they unroll to (checked against the scalar
 * equations written out by hand), sizes that follow overrides, and the errors, each with its
 * file:line:col. */
#include "parse_check.h"

#include <criterion/criterion.h>
#include <nsdae/model.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

static nsdae_model *parse_ok(const char *src)
{
    nsdae_model *m = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_model_parse_string(src, strlen(src), "t.nsm", &m, &err), NSDAE_OK, "%s", err.message);
    return m;
}

/* Residual of equation k at given values of x (order 0) and der(x) (order 1). */
static double residual(const nsdae_model *m, int k, const double *vars)
{
    nsdae_eval_env env = {nsdae_model_param_values(m), nsdae_model_nparams(m), vars, nsdae_model_nvars(m), 1, 0.0};
    return nsdae_expr_eval(nsdae_model_equation(m, k)->residual, &env);
}

/* A chain of N masses on springs: the unrolled equations, element names, per-element starts. */
static const char *chain =
    "model chain\n"
    "  parameter N = 4;\n"
    "  parameter k[N] = {10*i for i in 1:N};\n"
    "  parameter c = 0.5;\n"
    "  var x[N](start = {1 + (i - 1)*c for i in 1:N}, dstart = -c);\n"
    "  var v[N];\n"
    "equation\n"
    "  for i in 1:N loop\n"
    "    der(x[i]) = v[i];\n"
    "  end for;\n"
    "  der(v[1]) = -k[1]*x[1] + k[2]*(x[2] - x[1]);\n"
    "  for i in 2:N - 1 loop\n"
    "    der(v[i]) = -k[i]*(x[i] - x[i - 1]) + k[i + 1]*(x[i + 1] - x[i]);\n"
    "  end for;\n"
    "  der(v[N]) = -k[N]*(x[N] - x[N - 1]);\n"
    "end chain;\n";

Test(arrays, chain_unrolls_to_the_scalar_equations)
{
    nsdae_model *m = parse_ok(chain);
    cr_assert_eq(nsdae_model_nvars(m), 8);
    cr_assert_eq(nsdae_model_nequations(m), 8);
    const char *names[] = {"x[1]", "x[2]", "x[3]", "x[4]", "v[1]", "v[2]", "v[3]", "v[4]"};
    for (int j = 0; j < 8; j++) {
        cr_expect_str_eq(nsdae_model_var(m, j)->name, names[j]);
        cr_expect_eq(nsdae_model_find_var(m, names[j]), j);
    }
    cr_expect_eq(nsdae_model_find_param(m, "k[3]"), 3);
    for (int i = 0; i < 4; i++) {
        cr_expect_eq(nsdae_model_start_value(m, i, 0), 1.0 + 0.5 * i);
        cr_expect_eq(nsdae_model_start_value(m, i, 1), -0.5);
        char kname[8];
        snprintf(kname, sizeof kname, "k[%d]", i + 1);
        cr_expect_eq(nsdae_model_param_values(m)[nsdae_model_find_param(m, kname)], 10.0 * (i + 1));
    }
    /* x = (1, 2, 4, 8), der(x) = 0, v = (0, 0, 0, 0), der(v) = (1, 1, 1, 1); k = (10, 20, 30, 40):
     * the written-out equations give these residuals */
    double vars[16] = {1, 2, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1};
    const double want[8] = {0, 0, 0, 0, 1 + 10 * 1 - 20 * (2 - 1), 1 + 20 * (2 - 1) - 30 * (4 - 2),
                            1 + 30 * (4 - 2) - 40 * (8 - 4), 1 + 40 * (8 - 4)};
    for (int e = 0; e < 8; e++) cr_expect_eq(residual(m, e, vars), want[e], "equation %d", e);
    /* an unrolled equation keeps the loop body's position and names its iteration */
    const nsdae_equation *q = nsdae_model_equation(m, 6);
    cr_expect_eq(q->pos.line, 13);
    cr_expect_eq(q->pos.col, 5);
    cr_expect_str_eq(q->text, "der(v[i]) = -k[i]*(x[i] - x[i - 1]) + k[i + 1]*(x[i + 1] - x[i]) with i = 3");
    nsdae_model_destroy(m);
}

Test(arrays, sizes_follow_the_overrides)
{
    nsdae_model *m = parse_ok(chain);
    nsdae_error err = {0};
    cr_assert_eq(nsdae_model_set_param(m, "c", 0.25, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(nsdae_model_set_param(m, "N", 7, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(nsdae_model_nvars(m), 14);
    cr_assert_eq(nsdae_model_nequations(m), 14);
    cr_expect_eq(nsdae_model_find_var(m, "x[7]"), 6);
    cr_expect_eq(nsdae_model_start_value(m, 6, 0), 1.0 + 6 * 0.25); /* the earlier override is kept */
    cr_expect_eq(nsdae_model_param_values(m)[nsdae_model_find_param(m, "k[7]")], 70.0);
    /* an element of a parameter array is an ordinary parameter */
    cr_assert_eq(nsdae_model_set_param(m, "k[7]", 3.0, &err), NSDAE_OK, "%s", err.message);
    cr_expect_eq(nsdae_model_param_values(m)[nsdae_model_find_param(m, "k[7]")], 3.0);
    /* a size that is not a positive integer is refused at its declaration, the model unchanged */
    cr_expect_eq(nsdae_model_set_param(m, "N", 2.5, &err), NSDAE_PARSE);
    cr_expect(strstr(err.message, "t.nsm:3:15: the size of 'k' must be an integer, found 2.5") != NULL, "%s",
              err.message);
    cr_expect_eq(nsdae_model_set_param(m, "N", 0, &err), NSDAE_PARSE);
    cr_expect(strstr(err.message, "t.nsm:3:15: the size of 'k' must be a positive integer, found 0") != NULL, "%s",
              err.message);
    cr_expect_eq(nsdae_model_nvars(m), 14);
    /* the override of k[7] is lost when k shrinks: said, not dropped */
    cr_expect_eq(nsdae_model_set_param(m, "N", 3, &err), NSDAE_INVALID_INPUT);
    cr_expect(strstr(err.message, "'k[7]'") != NULL, "%s", err.message);
    nsdae_model_destroy(m);
}

Test(arrays, nested_loops_lists_guards_and_relations)
{
    nsdae_model *m = parse_ok("model n\n"
                              "  parameter M = 3;\n"
                              "  parameter w[M] = {2, 3, 5};\n"
                              "  var y[M](start = 1);\n"
                              "  var s[M];\n"
                              "  var l[M];\n"
                              "equation\n"
                              "  for i in 1:M loop\n"
                              "    der(y[i]) = -w[i]*y[i] + s[i] + l[i];\n"
                              "    s[i] in [-1, 1]*sign(y[i]);\n"
                              "    if y[i] > 0 then\n"
                              "      0 <= y[i] _|_ l[i] >= 0;\n"
                              "    else\n"
                              "      l[i] = 0;\n"
                              "    end if;\n"
                              "  end for;\n"
                              "  for i in 1:M loop\n"
                              "    for j in i + 1:M loop\n"
                              "    end for;\n"
                              "  end for;\n"
                              "end n;\n");
    cr_assert_eq(nsdae_model_nequations(m), 12); /* per i: der(y), the relay, the two branches */
    cr_assert_eq(nsdae_model_nblocks(m), 3);
    for (int i = 0; i < 3; i++) {
        cr_expect_eq(nsdae_model_equation(m, 4 * i + 1)->kind, NSDAE_EQ_SIGN);
        cr_expect_eq(nsdae_model_equation(m, 4 * i + 1)->var, 3 + i);
        cr_expect_eq(nsdae_model_equation(m, 4 * i + 2)->kind, NSDAE_EQ_COMPL);
        cr_expect_eq(nsdae_model_equation(m, 4 * i + 2)->block, i);
        cr_expect_eq(nsdae_model_equation(m, 4 * i + 3)->branch, 1);
        cr_expect_eq(nsdae_model_start_value(m, i, 0), 1.0);
    }
    nsdae_model_destroy(m);

    /* pairs i < j of a nested loop: 3 + 2 + 1 equations, each naming its own pair */
    m = parse_ok("model p\n  var z[4];\nequation\n"
                 "  for i in 1:3 loop\n    for j in i + 1:4 loop\n      z[j] - z[i] = j - i;\n"
                 "    end for;\n  end for;\nend p;\n");
    cr_assert_eq(nsdae_model_nequations(m), 6);
    double vars[4] = {0.5, 0, 0, 0};
    int e = 0;
    for (int i = 1; i <= 3; i++)
        for (int j = i + 1; j <= 4; j++, e++) {
            double z[4] = {0, 0, 0, 0};
            z[j - 1] = 1.0; /* z_j - z_i - (j - i) = 1 - (j - i) */
            memcpy(vars, z, sizeof z);
            cr_expect_eq(residual(m, e, vars), 1.0 - (j - i), "pair (%d, %d)", i, j);
        }
    nsdae_model_destroy(m);
}

#define HEAD "model m\n  parameter N = 3;\n  var z[N];\nequation\n"

Test(arrays, errors_name_the_place_and_the_values)
{
    check_bad(HEAD "  for i in 1:N loop\n    z[i + 1] = 0;\n  end for;\nend m;\n", "6:5",
              "index 4 is out of range for 'z' (size 3: indices 1..3) (with i = 3)");
    check_bad(HEAD "  z[0] = 1;\nend m;\n", "5:3", "index 0 is out of range for 'z' (size 3");
    check_bad(HEAD "  z[1.5] = 1;\nend m;\n", "5:5", "the index of 'z' must be an integer, found 1.5");
    check_bad(HEAD "  z[z[1]] = 1;\nend m;\n", "5:5", "the index of 'z' must be constant: it uses an unknown");
    check_bad("model m\n  parameter N = 2.5;\n  var z[N];\nequation\nend m;\n", "3:9",
              "the size of 'z' must be an integer, found 2.5");
    check_bad("model m\n  var z[-1];\nequation\nend m;\n", "2:9",
              "the size of 'z' must be a positive integer, found -1");
    check_bad(HEAD "  for i in 1:N/2 loop\n    z[i] = 0;\n  end for;\nend m;\n", "5:14",
              "the upper loop bound must be an integer, found 1.5");
    check_bad(HEAD "  for i in time:N loop\n  end for;\nend m;\n", "5:12",
              "the lower loop bound must be constant: it uses 'time'");
    check_bad(HEAD "  for i in 1 loop\n  end for;\nend m;\n", "5:14",
              "expected ':' between the loop bounds (for i in A:B), found 'loop'");
    check_bad(HEAD "  q[1] = 0;\nend m;\n", "5:3", "unknown array 'q'");
    check_bad("model m\n  var x;\nequation\n  x[1] = 0;\nend m;\n", "4:3",
              "'x' is not an array (declared at 2:7 without a size)");
    check_bad(HEAD "  z = 0;\nend m;\n", "5:3", "'z' is an array of 3 elements: expected an index, 'z[...]'");
    check_bad(HEAD "  for N in 1:3 loop\n  end for;\nend m;\n", "5:7",
              "loop variable 'N' hides a declared name or an enclosing loop variable");
    check_bad(HEAD "  for i in 1:N loop\n    z[i] = 0;\nend m;\n", "7:5",
              "expected 'for' after 'end' (to close the 'for' loop), found 'm'");
    check_bad("model m\n  var z[3](start = {1, 2});\nequation\nend m;\n", "2:20",
              "a start value of 'z': 2 values given but the array has 3");
    check_bad("model m\n  var z[3](start = {i for i in 1:4});\nequation\nend m;\n", "2:20",
              "a start value of 'z': the constructor has 4 elements but the array has 3");
    check_bad(HEAD "  end for;\nend m;\n", "5:3", "'end for' without a matching 'for'");
    check_bad("model m\n  var z[100000000];\nequation\nend m;\n", "2:9",
              "arrays and loops unroll to more than");
}
