/* Malformed and ill-typed models: each must fail with NSDAE_PARSE and a "file:line:col: message"
 * naming what was expected, at the right place. */
#include "parse_check.h"

#include <criterion/criterion.h>
#include <nsdae/model.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BAD(name, src, where, what) \
    Test(parse_errors, name) { check_bad(src, where, what); }

/* A valid skeleton the cases below break one piece at a time. */
#define HEAD "model m\n  var x(start = 1);\nequation\n"
#define TAIL "end m;\n"

BAD(empty_file, "", "1:1", "expected 'model' at the start of the file, found end of file")
BAD(not_model, "modle m end m;", "1:1", "expected 'model' at the start of the file, found 'modle'")
BAD(model_without_name, "model ;", "1:7", "expected a name after 'model', found ';'")
BAD(missing_end, "model m\n var x;\n", "3:1", "expected 'end m;' before end of file")
BAD(wrong_end_name, "model m\nend n;\n", "2:5", "expected 'end m;', found 'n'")
BAD(end_without_semi, "model m\nend m\n", "3:1", "expected ';' after the model name, found end of file")
BAD(trailing_garbage, "model m\nend m;\nx = 1;\n", "3:1", "expected end of file after 'end m;', found 'x'")
BAD(stray_token_in_decls, "model m\n  x = 1;\nend m;\n", "2:3",
    "expected 'parameter', 'var', 'equation' or 'end', found 'x'")
BAD(var_without_name, "model m\n  var ;\nend m;\n", "2:7", "expected a name after 'var', found ';'")
BAD(var_named_keyword, "model m\n  var time;\nend m;\n", "2:7", "expected a name after 'var', found 'time'")
BAD(var_missing_semi, "model m\n  var x\n  var y;\nend m;\n", "3:3",
    "expected ';' after the variable declaration, found 'var'")
BAD(duplicate_var, "model m\n  var x;\n  var x;\nend m;\n", "3:7", "duplicate declaration of 'x' (first declared at 2:7)")
BAD(duplicate_param_var, "model m\n  parameter p = 1;\n  var p;\nend m;\n", "3:7",
    "duplicate declaration of 'p' (first declared at 2:13)")
BAD(bad_modifier, "model m\n  var x(begin = 1);\nend m;\n", "2:9", "expected 'start' or 'dstart' in the declaration of 'x', found 'begin'")
BAD(start_twice, "model m\n  var x(start = 1, start = 2);\nend m;\n", "2:20", "'start' given twice")
BAD(start_uses_var, "model m\n  var y;\n  var x(start = y);\nend m;\n", "3:17", "a start value must be constant: it uses an unknown")
BAD(param_without_value, "model m\n  parameter p;\nend m;\n", "2:14", "expected '=' after the parameter name, found ';'")
BAD(param_uses_time, "model m\n  parameter p = 2*time;\nend m;\n", "2:17", "a parameter value must be constant: it uses 'time'")
BAD(param_unknown_name, "model m\n  parameter p = q + 1;\nend m;\n", "2:17", "unknown identifier 'q'")
BAD(unknown_identifier, HEAD "  der(x) = y;\n" TAIL, "4:12", "unknown identifier 'y'")
BAD(missing_equals, HEAD "  der(x) x;\n" TAIL, "4:10", "expected '=' after the left-hand side of the equation, found 'x'")
BAD(double_equals, HEAD "  der(x) == x;\n" TAIL, "4:11", "expected an expression, found '='")
BAD(missing_semicolon, HEAD "  der(x) = x\n" TAIL, "5:1", "expected ';' at the end of the equation, found 'end'")
BAD(unbalanced_paren, HEAD "  der(x) = (x + 1;\n" TAIL, "4:18", "expected ')' to close '(', found ';'")
BAD(empty_rhs, HEAD "  der(x) = ;\n" TAIL, "4:12", "expected an expression, found ';'")
BAD(dangling_operator, HEAD "  der(x) = x * ;\n" TAIL, "4:16", "expected an expression, found ';'")
BAD(der_of_param, "model m\n  parameter p = 1;\n  var x;\nequation\n  der(p) = x;\n" TAIL, "5:7",
    "der of parameter 'p': expected a variable")
BAD(der_of_expression, HEAD "  der(2*x) = x;\n" TAIL, "4:7", "der of an expression: expected a variable")
BAD(der_of_time, HEAD "  der(time) = x;\n" TAIL, "4:7", "der of 'time': expected a variable")
BAD(der_without_paren, HEAD "  der x = x;\n" TAIL, "4:7", "expected '(' after 'der', found 'x'")
BAD(unknown_function, HEAD "  der(x) = tan(x);\n" TAIL, "4:12", "unknown function 'tan'")
BAD(var_called_as_function, HEAD "  der(x) = x(1);\n" TAIL, "4:12", "'x' is not a function")
BAD(function_arity_min, HEAD "  der(x) = min(x);\n" TAIL, "4:12", "'min' takes 2 arguments, found 1")
BAD(function_arity_sin, HEAD "  der(x) = sin(x, 1);\n" TAIL, "4:19", "'sin' takes 1 argument")
BAD(function_without_args, HEAD "  der(x) = abs;\n" TAIL, "4:12", "function 'abs' used without arguments")
BAD(bad_character, HEAD "  der(x) = x # 1;\n" TAIL, "4:14", "unexpected character '#'")
BAD(unterminated_comment, HEAD "  /* never closed\n" TAIL, "4:3", "unterminated comment: expected '*/'")
BAD(bad_exponent, HEAD "  der(x) = 1e+;\n" TAIL, "4:12", "malformed number: expected digits after the exponent")
BAD(number_then_letters, HEAD "  der(x) = 2x;\n" TAIL, "4:13", "unexpected character 'x' after a number")
BAD(if_without_then, HEAD "  if x > 0\n    der(x) = 1;\n  else\n    der(x) = -1;\n  end if;\n" TAIL, "5:5",
    "expected 'then' after the condition, found 'der'")
BAD(if_without_else, HEAD "  if x > 0 then\n    der(x) = 1;\n  end if;\n" TAIL, "6:3", "expected 'else' before 'end if'")
BAD(if_branch_counts, HEAD "  if x > 0 then\n    der(x) = 1;\n  else\n    der(x) = -1;\n    x = 0;\n  end if;\n" TAIL,
    "6:3", "has 2 equations but the first branch has 1")
BAD(elseif_branch_counts, HEAD "  if x > 0 then\n    der(x) = 1;\n  elseif x < -1 then\n  else\n    der(x) = 0;\n  end if;\n" TAIL,
    "6:3", "has 0 equations but the first branch has 1")
BAD(if_not_closed, HEAD "  if x > 0 then\n    der(x) = 1;\n  else\n    der(x) = -1;\n  end;\n" TAIL, "8:6",
    "expected 'if' after 'end' (to close the 'if'), found ';'")
BAD(cond_without_comparison, HEAD "  if x then\n    der(x) = 1;\n  else\n    der(x) = -1;\n  end if;\n" TAIL, "4:8",
    "expected a comparison ('>', '<', '>=' or '<=') in the condition, found 'then'")
BAD(cond_equality, HEAD "  if x = 0 then\n    der(x) = 1;\n  else\n    der(x) = -1;\n  end if;\n" TAIL, "4:8",
    "expected a comparison ('>', '<', '>=' or '<=') in the condition, found '='")
BAD(cond_dangling_and, HEAD "  if x > 0 and then\n    der(x) = 1;\n  else\n    der(x) = -1;\n  end if;\n" TAIL, "4:16",
    "expected an expression, found 'then'")
BAD(end_if_at_top, HEAD "  der(x) = 1;\n  end if;\n" TAIL, "5:3", "'end if' without a matching 'if'")
BAD(compl_left_not_zero, "model m\n  var x;\n  var l;\nequation\n  1 <= x _|_ l >= 0;\n" TAIL, "5:3",
    "expected '0' on the left of '<='")
BAD(compl_missing_perp, "model m\n  var x;\n  var l;\nequation\n  0 <= x l >= 0;\n" TAIL, "5:10",
    "expected '_|_' in the complementarity 0 <= a _|_ b >= 0, found 'l'")
BAD(compl_missing_ge, "model m\n  var x;\n  var l;\nequation\n  0 <= x _|_ l;\n" TAIL, "5:15",
    "expected '>=' after the second side of '_|_', found ';'")
BAD(compl_right_not_zero, "model m\n  var x;\n  var l;\nequation\n  0 <= x _|_ l >= 1;\n" TAIL, "5:19",
    "expected 0 after '>=' in the complementarity, found '1'")
BAD(restitution_not_constant, "model m\n  var x;\n  var l;\nequation\n  0 <= x _|_ l >= 0 restitution x;\n" TAIL,
    "5:33", "the restitution coefficient must be constant")
BAD(sign_on_expression, "model m\n  var x;\n  var l;\nequation\n  2*l in sign(x);\n" TAIL, "5:3",
    "expected a variable before 'in'")
BAD(sign_misspelt, "model m\n  var x;\n  var l;\nequation\n  l in sgn(x);\n" TAIL, "5:8",
    "expected 'sign(' in the relay relation, found 'sgn'")
BAD(sign_bounds_reversed, "model m\n  var x;\n  var l;\nequation\n  l in [1, -1] * sign(x);\n" TAIL, "5:3",
    "the lower bound must not exceed the upper bound")
BAD(sign_bounds_no_star, "model m\n  var x;\n  var l;\nequation\n  l in [-1, 1] sign(x);\n" TAIL, "5:16",
    "expected '*' between the bounds and 'sign', found 'sign'")
BAD(when_not_closed, HEAD "  when x < 0 then\n    x = 0;\n  end if;\n" TAIL, "6:7",
    "expected 'when' after 'end' (to close the 'when'), found 'if'")
BAD(experiment_unknown_key, HEAD "  der(x) = 1;\nexperiment stop = 1, dt = 0.1;\n" TAIL, "5:22",
    "expected 'stop', 'step', 'scheme', 'theta' or 'gamma' in the experiment, found 'dt'")
BAD(experiment_negative_stop, HEAD "  der(x) = 1;\nexperiment stop = -1;\n" TAIL, "5:19", "experiment stop must be positive")
BAD(experiment_twice, HEAD "  der(x) = 1;\nexperiment stop = 1;\nexperiment step = 1;\n" TAIL, "6:1",
    "a second 'experiment' annotation")
BAD(declaration_inside_if, HEAD "  if x > 0 then\n    var y;\n  else\n  end if;\n" TAIL, "5:5",
    "expected an equation or the end of the block, found 'var'")
Test(parse_errors, nul_byte)
{
    static const char src[] = "model m\n  var x;\0\nend m;\n";
    nsdae_model *m = NULL;
    nsdae_error err;
    cr_assert_eq(nsdae_model_parse_string(src, sizeof src - 1, "t.nsm", &m, &err), NSDAE_PARSE);
    cr_expect(strstr(err.message, "t.nsm:2:9: unexpected NUL byte") != NULL, "%s", err.message);
}
BAD(derivative_order_limit, HEAD "  der(der(der(der(der(der(der(der(der(x))))))))) = 1;\n" TAIL, "4:3", "derivative order above 8")
BAD(experiment_step_uses_var, HEAD "  der(x) = 1;\nexperiment step = x;\n" TAIL, "5:19", "the step must be constant: it uses an unknown")

/* Inputs built programmatically: deep nesting and huge sizes end in a message, not a crash. */
Test(parse_errors, deep_parentheses)
{
    size_t n = 100000;
    char *src = malloc(3 * n + 200);
    strcpy(src, HEAD "  der(x) = ");
    size_t k = strlen(src);
    for (size_t i = 0; i < n; i++) src[k++] = '(';
    strcpy(src + k, "x;\n" TAIL);
    nsdae_model *m = NULL;
    nsdae_error err;
    cr_assert_eq(nsdae_model_parse_string(src, strlen(src), "t.nsm", &m, &err), NSDAE_PARSE);
    cr_expect(strstr(err.message, "nesting too deep") != NULL, "%s", err.message);
    free(src);
}

Test(parse_errors, deep_unary_minus)
{
    size_t n = 100000;
    char *src = malloc(n + 200);
    strcpy(src, HEAD "  der(x) = ");
    size_t k = strlen(src);
    for (size_t i = 0; i < n; i++) src[k++] = '-';
    strcpy(src + k, "x;\n" TAIL);
    nsdae_model *m = NULL;
    nsdae_error err;
    cr_assert_eq(nsdae_model_parse_string(src, strlen(src), "t.nsm", &m, &err), NSDAE_PARSE);
    cr_expect(strstr(err.message, "nesting too deep") != NULL, "%s", err.message);
    free(src);
}

Test(parse_errors, long_sum)
{
    size_t n = 30000;
    char *src = malloc(4 * n + 200);
    strcpy(src, HEAD "  der(x) = x");
    size_t k = strlen(src);
    for (size_t i = 0; i < n; i++) { memcpy(src + k, " + x", 4); k += 4; }
    strcpy(src + k, ";\n" TAIL);
    nsdae_model *m = NULL;
    nsdae_error err;
    cr_assert_eq(nsdae_model_parse_string(src, strlen(src), "t.nsm", &m, &err), NSDAE_PARSE);
    cr_expect(strstr(err.message, "statement too long") != NULL, "%s", err.message);
    free(src);
}

Test(parse_errors, nested_ifs_too_deep)
{
    size_t n = 1000;
    char *src = malloc(60 * n + 200);
    strcpy(src, HEAD);
    size_t k = strlen(src);
    for (size_t i = 0; i < n; i++) k += (size_t)sprintf(src + k, "if x > 0 then\n");
    strcpy(src + k, "x = 1;\n" TAIL);
    nsdae_model *m = NULL;
    nsdae_error err;
    cr_assert_eq(nsdae_model_parse_string(src, strlen(src), "t.nsm", &m, &err), NSDAE_PARSE);
    cr_expect(strstr(err.message, "nesting too deep") != NULL, "%s", err.message);
    free(src);
}

Test(parse_errors, identifier_too_long)
{
    char src[600];
    strcpy(src, "model ");
    memset(src + 6, 'a', 300);
    strcpy(src + 306, "\nend m;\n");
    nsdae_model *m = NULL;
    nsdae_error err;
    cr_assert_eq(nsdae_model_parse_string(src, strlen(src), "t.nsm", &m, &err), NSDAE_PARSE);
    cr_expect(strstr(err.message, "t.nsm:1:7: identifier too long") != NULL, "%s", err.message);
}

/* Every prefix of a valid model is either valid or a clean parse error. */
Test(parse_errors, every_truncation)
{
    const char *src = "model m // c\n  parameter a = 2;\n  var x(start = a, dstart = 0);\n  var l;\nequation\n"
                      "  der(der(x)) = -a*x + l;\n  0 <= x + 1 _|_ l >= 0 restitution 0.5;\n"
                      "  if (x > 0 and not x > 1) or time < 1 then\n    l = 0;\n  elseif x < -1 then\n    l = 1;\n"
                      "  else\n    l in [-1, 2] * sign(x);\n  end if;\n  when x < 0 then\n    x = 0;\n  end when;\n"
                      "experiment stop = 1, step = 0.1, scheme = euler;\nend m;\n";
    size_t n = strlen(src);
    for (size_t k = 0; k <= n; k++) {
        nsdae_model *m = NULL;
        nsdae_error err;
        nsdae_status st = nsdae_model_parse_string(src, k, "t.nsm", &m, &err);
        if (k == n || k == n - 1) cr_expect_eq(st, NSDAE_OK, "full text: %s", err.message);
        else cr_expect_eq(st, NSDAE_PARSE, "prefix %zu", k);
        nsdae_model_destroy(m);
    }
}
BAD(experiment_gamma_out_of_range, HEAD "  der(x) = 1;\nexperiment stop = 1, gamma = 0.25;\n" TAIL, "5:30",
    "experiment gamma must be in [0.5, 1], found 0.25")
BAD(experiment_theta_twice, HEAD "  der(x) = 1;\nexperiment theta = 1, theta = 0.5;\n" TAIL, "5:23",
    "experiment setting 'theta' given twice")
