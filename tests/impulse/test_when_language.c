/* The language of transient modes (issue 10): `when COND then EQS else EQS end when;`, pre(EXPR),
 * guards read at the left limit, and the mode module's listing of these switches, down to the
 * restart analysis. Oracles: Benveniste et al. 2026 (172)/(201) and the closed form (238),
 * v+ = v- - 2 (p.v-/L^2) p = (-0.68, 1.24) with percussion 2.8 at p = (0.6, -0.8), v- = (1, -1). */
#include <math.h>

#include <nsdae/mode.h>

#include "impulse_helpers.h"

/* Benveniste et al. 2026, (172) with the Newton law (201) in the `when` branch: the then branch has
 * three equations, the else branch (the free long mode) two. */
static const char *CUP_WHEN =
    "model cupw\n"
    "  parameter L = 1;\n"
    "  parameter g = 0;\n"
    "  var x; var y; var lambda; var s;\n"
    "equation\n"
    "  0 = der(der(x)) + lambda*x;\n"
    "  0 = der(der(y)) + lambda*y + g;\n"
    "  when pre(s) <= 0 then\n"
    "    0 = L^2 - (x^2 + y^2);\n"
    "    0 = lambda + s;\n"
    "    0 = (x*der(x) + y*der(y)) + pre(x*der(x) + y*der(y));\n"
    "  else\n"
    "    0 = lambda;\n"
    "    0 = (L^2 - (x^2 + y^2)) - s;\n"
    "  end when;\n"
    "end cupw;\n";

static int has_text(const nsdae_mode_system *ms, const char *text)
{
    for (int i = 0; i < ms->neq; i++)
        if (!strcmp(ms->eqs[i].text, text)) return 1;
    return 0;
}

Test(when_language, else_branch_is_the_long_mode_then_branch_the_transient_one)
{
    nsdae_model *m = parse_model(CUP_WHEN);
    const nsdae_block *b = nsdae_model_block(m, 0);
    cr_assert_eq(b->kind, NSDAE_BLOCK_WHEN);
    cr_expect_eq(b->nbranches, 2);
    cr_expect_eq(b->neqs, 3);
    cr_expect_eq(b->neqs_else, 2);
    nsdae_switches *sw = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_mode_switches(m, &sw, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(sw->n, 1);
    cr_expect_eq(sw->ncode, 0, "a when is transient: no code digit");
    cr_expect_eq(sw->sw[0].kind, NSDAE_SWITCH_WHEN);
    cr_expect_eq(nsdae_mode_count(sw), 1.0);
    int longm[1] = {0}, fired[1] = {1};
    nsdae_mode_system *ms = NULL;
    cr_assert_eq(nsdae_mode_equations(m, sw, longm, &ms, &err), NSDAE_OK, "%s", err.message);
    cr_expect_eq(ms->neq, 4, "e1, e2 and the else branch");
    cr_expect(has_text(ms, "0 = lambda"));
    cr_expect(!has_text(ms, "0 = lambda + s"));
    nsdae_mode_system_destroy(ms);
    cr_assert_eq(nsdae_mode_equations(m, sw, fired, &ms, &err), NSDAE_OK, "%s", err.message);
    cr_expect_eq(ms->neq, 5, "e1, e2 and the then branch");
    cr_expect(has_text(ms, "0 = lambda + s"));
    cr_expect(!has_text(ms, "0 = lambda"));
    nsdae_mode_system_destroy(ms);
    nsdae_mode_switches_destroy(sw);
    nsdae_model_destroy(m);
}

Test(when_language, pre_is_refused_outside_events_with_its_position)
{
    const char *text = "model p\n  var x;\nequation\n  der(x) = -pre(x);\nend p;\n";
    nsdae_model *m = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_model_parse_string(text, strlen(text), "p.nsm", &m, &err), NSDAE_PARSE);
    cr_expect(strstr(err.message, "p.nsm:4:13:") != NULL, "%s", err.message);
    cr_expect(strstr(err.message, "pre()") != NULL, "%s", err.message);
    const char *els = "model p\n  var x;\nequation\n  when x > 1 then\n    x = 0;\n  else\n    der(x) = pre(x);\n"
                      "  end when;\nend p;\n";
    cr_expect_eq(nsdae_model_parse_string(els, strlen(els), "p.nsm", &m, &err), NSDAE_PARSE,
                 "the else branch holds over a duration: no left limit there");
}

Test(when_language, pre_in_a_guard_reads_the_left_limit_and_and_or_not_parse)
{
    const char *text = "model g\n  var x(start = 2); var z;\nequation\n  der(x) = -1;\n"
                       "  if pre(x) > 1 and not (x < 0 or x > 5) then\n    z = 1;\n  else\n    z = 0;\n  end if;\n"
                       "end g;\n";
    nsdae_model *m = parse_model(text);
    const nsdae_block *b = nsdae_model_block(m, 0);
    cr_expect_eq(b->time_only, 0, "a state guard");
    double vars[2] = {2, 0}, params[1] = {0};
    nsdae_eval_env env = {params, 0, vars, 2, 0, 0};
    cr_expect(nsdae_cond_eval(b->conds[0], &env), "pre(x) = x = 2 > 1, and x in [0, 5]");
    vars[0] = 0.5;
    cr_expect(!nsdae_cond_eval(b->conds[0], &env));
    nsdae_model_destroy(m);
}

/* The elastic cup-and-ball written with `when` (172)+(201), through the mode module's adapter:
 * the cascade free -> transient (then branch) -> free gives (238). */
Test(when_language, elastic_cup_and_ball_through_when_restarts_as_238)
{
    nsdae_model *m = parse_model(CUP_WHEN);
    nsdae_switches *sw = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_mode_switches(m, &sw, &err), NSDAE_OK, "%s", err.message);
    nsdae_expr_pool *pool = NULL;
    cr_assert_eq(nsdae_expr_pool_create_over(nsdae_model_pool(m), &pool, &err), NSDAE_OK);
    int free_mode[1] = {0}, fired[1] = {1};
    const nsdae_expr *guard = NULL;
    cr_assert_eq(nsdae_impulse_when_guard(m, sw, pool, free_mode, 0, &guard, &err), NSDAE_OK, "%s", err.message);
    /* s = L^2 - (x^2 + y^2) in the free mode: the guard -s is x^2 + y^2 - L^2, in the states */
    cr_expect_eq(nsdae_expr_max_order(guard, 3), -1, "s is substituted by the free mode's k4");
    double vars[4] = {0.6, -0.8, 0, 0}, p1[2] = {1, 0};
    nsdae_eval_env env = {p1, 2, vars, 4, 0, 0};
    cr_expect(fabs(nsdae_expr_eval(guard, &env)) < 1e-15, "on the circle");
    nsdae_impulse_input in;
    nsdae_impulse_modes *store = NULL;
    cr_assert_eq(nsdae_impulse_input_from_modes(m, sw, pool, free_mode, fired, free_mode, guard, &in, &store, &err),
                 NSDAE_OK, "%s", err.message);
    nsdae_impulse_result *r = NULL;
    nsdae_impulse_options opt = {-1};
    cr_assert_eq(nsdae_impulse_analyze(&in, &opt, &r, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(r->verdict, NSDAE_IMPULSE_OK);
    cr_expect_eq(r->height, 1);
    double left[3 * 4] = {0.6, -0.8, 0, 0, 1, -1, 0, 0, 0, 0, 0, 0};
    double plus[16], aux[256];
    nsdae_impulse_numeric num;
    cr_assert(r->nstates <= 16 && r->navars <= 256);
    cr_assert_eq(nsdae_impulse_restart(r, left, 2, plus, aux, &num, &err), NSDAE_OK, "%s", err.message);
    /* (238): v+ = v- - 2 (p.v-) p with p.v- = 0.6 + 0.8 = 1.4 */
    double want[2][2] = {{0.6, 1 - 2 * 1.4 * 0.6}, {-0.8, -1 + 2 * 1.4 * 0.8}};
    int seen = 0;
    for (int k = 0; k < r->nstates; k++) {
        int v = r->states[k].var, o = r->states[k].order;
        if (v > 1 || o > 1) continue;
        cr_expect(fabs(plus[k] - want[v][o]) < 1e-9, "state %d order %d: %g, want %g", v, o, plus[k], want[v][o]);
        seen++;
    }
    cr_expect_eq(seen, 4);
    int percussion = 0;
    for (int a = 0; a < r->navars; a++)
        if (r->avars[a].var == 2 && r->avars[a].order == 0 && r->avars[a].shift == 0 && !isnan(aux[a]))
        {
            cr_expect(fabs(aux[a] - 2 * 1.4) < 1e-9, "percussion %g, want 2.8", aux[a]);
            percussion = 1;
        }
    cr_expect(percussion);
    nsdae_impulse_result_destroy(r);
    nsdae_impulse_modes_destroy(store);
    nsdae_expr_pool_destroy(pool);
    nsdae_mode_switches_destroy(sw);
    nsdae_model_destroy(m);
}
