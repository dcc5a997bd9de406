/* The mode module: switch lists and mode counts of the example models, mode codes, exogenous
 * phases, and the equations of a mode. Every expected number is derived by hand from the model
 * text quoted next to it (a complementarity pair has 2 choices, a relay 3, an `if` one per branch
 * plus the sliding mode for a single-comparison state switch). */
#include <criterion/criterion.h>
#include <nsdae/mode.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct loaded {
    nsdae_model *m;
    nsdae_switches *sw;
} loaded;

static loaded load(const char *relpath)
{
    loaded l = {0};
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", NSDAE_SOURCE_DIR, relpath);
    nsdae_error err = {0};
    cr_assert_eq(nsdae_model_parse_file(path, &l.m, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(nsdae_mode_switches(l.m, &l.sw, &err), NSDAE_OK, "%s", err.message);
    return l;
}

static void unload(loaded *l)
{
    nsdae_mode_switches_destroy(l->sw);
    nsdae_model_destroy(l->m);
}

static nsdae_mode_system *equations(const loaded *l, const char *code)
{
    int choice[64] = {0};
    nsdae_mode_system *ms = NULL;
    nsdae_error err = {0};
    cr_assert_lt(l->sw->n, 64);
    cr_assert_eq(nsdae_mode_parse(l->sw, code, choice, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(nsdae_mode_equations(l->m, l->sw, choice, &ms, &err), NSDAE_OK, "%s", err.message);
    return ms;
}

/* Evaluates a residual with the unknowns (order 0) set to x[] (nx entries, relaxations after the
 * model's), derivatives 0, time t. */
/* The line of examples/diode_bridge.nsm holding the first complementarity pair, read from the file
 * itself so that the header comment may grow without touching these tests. */
static int first_pair_line(void)
{
    FILE *f = fopen(NSDAE_SOURCE_DIR "/examples/diode_bridge.nsm", "r");
    cr_assert_not_null(f);
    char buf[512];
    int line = 0, found = 0;
    while (!found && fgets(buf, sizeof buf, f)) {
        line++;
        found = strncmp(buf, "  0 <= vp - v _|_", 17) == 0;
    }
    fclose(f);
    cr_assert(found, "diode_bridge.nsm has no pair '0 <= vp - v _|_'");
    return line;
}

static double eval_at(const nsdae_model *m, const nsdae_expr *e, const double *x, int nx, double t)
{
    double vals[2 * 16] = {0};
    cr_assert_leq(nx, 16);
    for (int j = 0; j < nx; j++) vals[j] = x[j];
    nsdae_eval_env env = {nsdae_model_param_values(m), nsdae_model_nparams(m), vals, nx, 1, t};
    return nsdae_expr_eval(e, &env);
}

/* ---- switch lists and mode counts ------------------------------------------------------------ */

typedef struct expected_list {
    const char *file;
    int nswitches;
    nsdae_switch_kind kind;     /* every switch of these models has one kind */
    int nchoices;
    double modes;
} expected_list;

Test(mode, example_switch_lists_and_counts)
{
    const expected_list cases[] = {
        {"examples/diode_bridge.nsm", 4, NSDAE_SWITCH_COMPL, 2, 16.0},         /* 4 diodes: 2^4 */
        {"examples/bead_column.nsm", 10, NSDAE_SWITCH_COMPL, 2, 1024.0},      /* 10 contacts: 2^10 */
        {"examples/bouncing_ball.nsm", 1, NSDAE_SWITCH_COMPL, 2, 2.0},
        {"examples/half_wave_rectifier.nsm", 1, NSDAE_SWITCH_COMPL, 2, 2.0},
        {"examples/rlc_diode.nsm", 1, NSDAE_SWITCH_COMPL, 2, 2.0},
        {"examples/cup_and_ball.nsm", 1, NSDAE_SWITCH_COMPL, 2, 2.0},
        {"examples/coulomb_friction.nsm", 1, NSDAE_SWITCH_SIGN, 3, 3.0},      /* stick, +Fc, -Fc */
        {"examples/relay_oscillator.nsm", 1, NSDAE_SWITCH_SIGN, 3, 3.0},
        {"examples/relay_two_states.nsm", 2, NSDAE_SWITCH_SIGN, 3, 9.0},      /* two relays: 3^2 */
        {"examples/clutch_exogenous.nsm", 1, NSDAE_SWITCH_IF_TIME, 2, 2.0},   /* `if time >= t_e` */
        {"examples/rocca_crossing.nsm", 1, NSDAE_SWITCH_IF_STATE, 3, 3.0},    /* then, else, sliding */
        {"examples/rocca_repulsive.nsm", 1, NSDAE_SWITCH_IF_STATE, 3, 3.0},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        loaded l = load(cases[c].file);
        cr_assert_eq(l.sw->n, cases[c].nswitches, "%s", cases[c].file);
        cr_assert_eq(l.sw->ncode, cases[c].nswitches, "%s: no `when`, every switch is long", cases[c].file);
        for (int k = 0; k < l.sw->n; k++) {
            cr_assert_eq(l.sw->sw[k].kind, cases[c].kind, "%s switch %d", cases[c].file, k);
            cr_assert_eq(l.sw->sw[k].nchoices, cases[c].nchoices, "%s switch %d", cases[c].file, k);
            cr_assert_eq(l.sw->sw[k].parent, -1);
        }
        cr_assert_float_eq(nsdae_mode_count(l.sw), cases[c].modes, 0.0, "%s", cases[c].file);
        unload(&l);
    }
}

/* diode_bridge.nsm: the four pairs in source order, each on its own line. */
Test(mode, switches_carry_their_source_location)
{
    loaded l = load("examples/diode_bridge.nsm");
    int first = first_pair_line();
    for (int k = 0; k < 4; k++) {
        cr_assert_eq(l.sw->sw[k].pos.line, first + k);
        cr_assert_eq(l.sw->sw[k].block, -1);
        cr_assert_str_eq(nsdae_switch_kind_name(l.sw->sw[k].kind), "complementarity");
    }
    cr_assert_eq(nsdae_model_equation(l.m, l.sw->sw[0].equation)->pos.line, first);
    unload(&l);
    l = load("examples/rocca_crossing.nsm");
    cr_assert_eq(l.sw->sw[0].pos.line, 15); /* `if x1 > 0 then` */
    cr_assert_eq(l.sw->sw[0].sliding, 1);
    cr_assert_str_eq(nsdae_switch_kind_name(l.sw->sw[0].kind), "if");
    unload(&l);
}

/* nested_switches.nsm: relay (line 10), `if time < 1` (11) holding `if time < 0.5` (12) in its
 * then branch, and `when x > 2` (22): three long switches, then the `when`, transient. Modes:
 * 3 relay choices x (2 inner + 1 else) = 9; the `when` adds none. */
Test(mode, when_blocks_are_transient_switches)
{
    loaded l = load("tests/structural/models/nested_switches.nsm");
    const nsdae_switches *s = l.sw;
    cr_assert_eq(s->n, 4);
    cr_assert_eq(s->ncode, 3);
    cr_assert_eq(s->sw[0].kind, NSDAE_SWITCH_SIGN);
    cr_assert_eq(s->sw[1].kind, NSDAE_SWITCH_IF_TIME);
    cr_assert_eq(s->sw[2].kind, NSDAE_SWITCH_IF_TIME);
    cr_assert_eq(s->sw[2].parent, 1);
    cr_assert_eq(s->sw[2].parent_branch, 0);
    cr_assert_eq(s->sw[3].kind, NSDAE_SWITCH_WHEN);
    cr_assert_eq(s->sw[3].transient, 1);
    cr_assert_eq(s->sw[3].nchoices, 2);
    cr_assert_eq(s->sw[3].pos.line, 22);
    cr_assert_str_eq(nsdae_switch_kind_name(s->sw[3].kind), "when");
    cr_assert_float_eq(nsdae_mode_count(s), 9.0, 0.0);

    /* Mode 0.1.0 (relay sliding, outer then, inner else): x' = -x + lam, x - y = 0, y = 2, z = y.
     * Fired, the `when` adds x = 0 at the end. */
    int choice[4];
    nsdae_error err = {0};
    cr_assert_eq(nsdae_mode_parse(s, "0.1.0", choice, &err), NSDAE_OK, "%s", err.message);
    cr_assert(nsdae_mode_canonical(s, choice));
    nsdae_mode_system *ms = NULL;
    cr_assert_eq(nsdae_mode_equations(l.m, s, choice, &ms, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(ms->neq, 4);
    nsdae_mode_system_destroy(ms);
    choice[3] = 1;
    cr_assert_not(nsdae_mode_canonical(s, choice), "a fired `when` is not a long mode");
    cr_assert_eq(nsdae_mode_equations(l.m, s, choice, &ms, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(ms->neq, 5);
    cr_assert_str_eq(ms->eqs[4].text, "x = 0");
    cr_assert_eq(ms->eqs[4].sw, 3);
    nsdae_mode_system_destroy(ms);
    char *label = NULL;
    cr_assert_eq(nsdae_mode_label(l.m, s, choice, &label, &err), NSDAE_OK);
    cr_assert(strstr(label, "fires") != NULL, "%s", label);
    free(label);
    unload(&l);
}

/* ---- mode codes ------------------------------------------------------------------------------ */

Test(mode, code_round_trip)
{
    loaded l = load("tests/structural/models/nested_switches.nsm");
    int choice[4], back[4], n = 0;
    char buf[32], seen[9][32];
    nsdae_error err = {0};
    nsdae_mode_first(l.sw, choice);
    do {
        cr_assert(nsdae_mode_canonical(l.sw, choice));
        nsdae_mode_format(l.sw, choice, buf, sizeof buf);
        cr_assert_eq(nsdae_mode_parse(l.sw, buf, back, &err), NSDAE_OK, "%s: %s", buf, err.message);
        cr_assert_eq(memcmp(choice, back, sizeof choice), 0, "%s", buf);
        cr_assert_lt(n, 9);
        for (int k = 0; k < n; k++) cr_assert_str_neq(seen[k], buf);
        snprintf(seen[n++], sizeof seen[0], "%s", buf);
    } while (nsdae_mode_next(l.sw, choice));
    cr_assert_eq(n, 9);
    /* lexicographic: the relay first, the nested if only under the outer then branch */
    cr_assert_str_eq(seen[0], "0.0.0");
    cr_assert_str_eq(seen[1], "0.0.1");
    cr_assert_str_eq(seen[2], "0.1.0");
    cr_assert_str_eq(seen[3], "1.0.0");
    /* an inner choice under the else branch is canonicalised away */
    cr_assert_eq(nsdae_mode_parse(l.sw, "2.1.1", back, &err), NSDAE_OK);
    nsdae_mode_format(l.sw, back, buf, sizeof buf);
    cr_assert_str_eq(buf, "2.1.0");
    cr_assert_eq(nsdae_mode_parse(l.sw, "3.0.0", back, &err), NSDAE_INVALID_INPUT, "the relay has 3 choices");
    cr_assert_eq(nsdae_mode_parse(l.sw, "0.0", back, &err), NSDAE_INVALID_INPUT);
    cr_assert_eq(nsdae_mode_parse(l.sw, "0.0.0.0", back, &err), NSDAE_INVALID_INPUT, "no digit for the `when`");
    unload(&l);

    l = load("examples/rocca_crossing.nsm");
    cr_assert_eq(nsdae_mode_parse(l.sw, "2", back, &err), NSDAE_OK);
    cr_assert_eq(back[0], 2);
    unload(&l);
}

Test(mode, model_without_switch_has_the_code_dash)
{
    nsdae_model *m = NULL;
    nsdae_error err = {0};
    const char *src = "model m\n var x(start = 1);\nequation\n der(x) = -x;\nend m;\n";
    cr_assert_eq(nsdae_model_parse_string(src, strlen(src), "m.nsm", &m, &err), NSDAE_OK, "%s", err.message);
    nsdae_switches *s = NULL;
    cr_assert_eq(nsdae_mode_switches(m, &s, &err), NSDAE_OK);
    cr_assert_eq(s->n, 0);
    cr_assert_float_eq(nsdae_mode_count(s), 1.0, 0.0);
    char buf[8];
    int choice[1] = {0};
    nsdae_mode_format(s, choice, buf, sizeof buf);
    cr_assert_str_eq(buf, "-");
    cr_assert_eq(nsdae_mode_parse(s, "-", choice, &err), NSDAE_OK);
    cr_assert_eq(nsdae_mode_parse(s, "0", choice, &err), NSDAE_INVALID_INPUT);
    nsdae_mode_switches_destroy(s);
    nsdae_model_destroy(m);
}

/* ---- exogenous phases ------------------------------------------------------------------------ */

/* nested_switches: outer `if time < 1` with `if time < 0.5` in its then branch: phases
 * (then, then), (then, else), (else): 3. The relay does not make phases. The clutch: 2. */
Test(mode, exogenous_phases)
{
    loaded l = load("tests/structural/models/nested_switches.nsm");
    int choice[4], n = 0;
    nsdae_mode_phase_first(l.sw, choice);
    do {
        cr_assert_eq(choice[0], 0, "the relay is no phase switch");
        n++;
    } while (nsdae_mode_phase_next(l.sw, choice));
    cr_assert_eq(n, 3);
    unload(&l);

    l = load("examples/clutch_exogenous.nsm");
    n = 0;
    nsdae_mode_phase_first(l.sw, choice);
    do n++; while (nsdae_mode_phase_next(l.sw, choice));
    cr_assert_eq(n, 2);
    unload(&l);
}

/* ---- a mode's equations ---------------------------------------------------------------------- */

/* rocca_crossing.nsm (Rocca et al., eq. (4)): der(x1) = 1 + B1 z; der(x2) = B2 z;
 * if x1 > 0 then 0 = 1 + x1 - x2 else 0 = -1 - x1 - x2. Residuals are lhs - rhs:
 * g1 = -(1 + x1 - x2), g2 = 1 + x1 + x2. Sliding mode (code 2): x1 = 0 and
 * g2 + s (g1 - g2) = (1 + x1 + x2) - s (2 + 2 x1) with s the 4th unknown. */
Test(mode, seed003_sliding_mode_equations)
{
    loaded l = load("examples/rocca_crossing.nsm");
    nsdae_mode_system *ms = equations(&l, "2");
    cr_assert_eq(ms->neq, 4);
    cr_assert_eq(ms->nrelax, 1);
    cr_assert_eq(ms->relax_switch[0], 0);
    cr_assert_str_eq(ms->relax_names[0], "s_line15");
    cr_assert_str_eq(ms->eqs[2].text, "x1 = 0 (switching surface, line 15)");
    cr_assert_eq(ms->eqs[2].origin, -1);
    cr_assert_eq(ms->eqs[3].origin, 2, "from the then-branch equation, the 3rd of the model");
    const double x[] = {0.3, 0.7, 0.0, 0.25}; /* x1, x2, z, s */
    cr_assert_float_eq(eval_at(l.m, ms->eqs[2].residual, x, 4, 0.0), 0.3, 1e-15);
    /* (1 + 0.3 + 0.7) - 0.25 (2 + 0.6) = 2 - 0.65 */
    cr_assert_float_eq(eval_at(l.m, ms->eqs[3].residual, x, 4, 0.0), 1.35, 1e-15);
    nsdae_mode_system_destroy(ms);

    /* code 1 (else branch): the else equation as written, no relaxation */
    ms = equations(&l, "1");
    cr_assert_eq(ms->neq, 3);
    cr_assert_eq(ms->nrelax, 0);
    cr_assert_str_eq(ms->eqs[2].text, "0 = -1 - x1 - x2");
    cr_assert_float_eq(eval_at(l.m, ms->eqs[2].residual, x, 3, 0.0), 2.0, 1e-15);
    nsdae_mode_system_destroy(ms);
    unload(&l);
}

/* clutch_exogenous.nsm: engaged (code 0): w1 = w2, tau1 + tau2 = 0; open (code 1): tau1 = 0,
 * tau2 = 0; the two inertia equations in both. */
Test(mode, clutch_mode_equations)
{
    loaded l = load("examples/clutch_exogenous.nsm");
    const char *engaged[] = {"w1 = w2", "tau1 + tau2 = 0"}, *open[] = {"tau1 = 0", "tau2 = 0"};
    for (int code = 0; code < 2; code++) {
        nsdae_mode_system *ms = equations(&l, code == 0 ? "0" : "1");
        cr_assert_eq(ms->neq, 4);
        cr_assert_eq(ms->eqs[0].sw, -1);
        for (int k = 0; k < 2; k++) {
            cr_assert_str_eq(ms->eqs[2 + k].text, code == 0 ? engaged[k] : open[k]);
            cr_assert_eq(ms->eqs[2 + k].sw, 0);
        }
        nsdae_mode_system_destroy(ms);
    }
    unload(&l);
}

/* diode_bridge.nsm pairs 0 <= vp - v _|_ i1, 0 <= v - vn _|_ i2, 0 <= vp _|_ i3, 0 <= -vn _|_ i4;
 * code 0.1.0.1: vp - v = 0, i2 = 0, vp = 0, i4 = 0 after the circuit equations. */
Test(mode, complementarity_pairs_by_choice)
{
    loaded l = load("examples/diode_bridge.nsm");
    nsdae_mode_system *ms = equations(&l, "0.1.0.1");
    int first = first_pair_line();
    const char *want[] = {"vp - v = 0", "i2 = 0", "vp = 0", "i4 = 0"};
    cr_assert_geq(ms->neq, 4);
    for (int k = 0; k < 4; k++) {
        const nsdae_mode_eq *q = &ms->eqs[ms->neq - 4 + k];
        cr_assert_str_eq(q->text, want[k]);
        cr_assert_eq(q->sw, k);
        cr_assert_eq(nsdae_model_equation(l.m, q->origin)->pos.line, first + k);
    }
    nsdae_mode_system_destroy(ms);
    unload(&l);
}

/* nested_switches.nsm `lam in [-2, 3] * sign(x - y)`: choice 0 x - y = 0, 1 lam = 3, 2 lam = -2.
 * Unknowns x, y, z, lam = 1, 2, 3, 4: residuals -1, 4 - 3 = 1, 4 + 2 = 6. */
Test(mode, relay_sides_and_sliding)
{
    loaded l = load("tests/structural/models/nested_switches.nsm");
    const char *codes[] = {"0.0.0", "1.0.0", "2.0.0"};
    const double want[] = {-1.0, 1.0, 6.0}, x[] = {1.0, 2.0, 3.0, 4.0};
    for (int k = 0; k < 3; k++) {
        nsdae_mode_system *ms = equations(&l, codes[k]);
        cr_assert_eq(ms->eqs[1].sw, 0);
        cr_assert_float_eq(eval_at(l.m, ms->eqs[1].residual, x, 4, 0.0), want[k], 1e-15, "%s", codes[k]);
        nsdae_mode_system_destroy(ms);
    }
    unload(&l);
}

/* The relaxation builders on numbers: g1 = 3 x, g2 = x - 1, s = 0.5 at x = 2: g2 + s (g1 - g2) =
 * 1 + 0.5 * 5 = 3.5; the affine form with a = 2, sh = 0.75, k = -1, s = 0.5: 1 + 1.5 - 0.5 = 2;
 * the switching function of `not (x < 1)` is -(1 - x) = x - 1. */
Test(mode, relaxation_builders)
{
    nsdae_model *m = NULL;
    nsdae_error err = {0};
    const char *src = "model m\n var x;\n var s;\nequation\n if not (x < 1) then\n  x = 0;\n else\n  s = 0;\n"
                      " end if;\nend m;\n";
    cr_assert_eq(nsdae_model_parse_string(src, strlen(src), "m.nsm", &m, &err), NSDAE_OK, "%s", err.message);
    nsdae_expr_pool *p = NULL;
    cr_assert_eq(nsdae_expr_pool_create_over(nsdae_model_pool(m), &p, &err), NSDAE_OK, "%s", err.message);
    const nsdae_expr *x = nsdae_expr_var(p, 0, 0), *s = nsdae_expr_var(p, 1, 0);
    const nsdae_expr *g1 = nsdae_expr_binary(p, NSDAE_EXPR_MUL, nsdae_expr_const(p, 3.0), x);
    const nsdae_expr *g2 = nsdae_expr_binary(p, NSDAE_EXPR_SUB, x, nsdae_expr_const(p, 1.0));
    const double at[] = {2.0, 0.5};
    cr_assert_float_eq(eval_at(m, nsdae_mode_relax(p, g1, g2, s), at, 2, 0.0), 3.5, 1e-15);
    const nsdae_expr *sh = nsdae_expr_const(p, 0.75);
    cr_assert_float_eq(eval_at(m, nsdae_mode_relax_affine(p, g2, 2.0, sh, -1.0, s), at, 2, 0.0), 2.0, 1e-15);
    cr_assert_eq(nsdae_mode_relax_affine(p, g2, 0.0, NULL, 0.0, NULL), g2, "zero terms are left out");
    const nsdae_expr *h = nsdae_mode_switching_function(p, nsdae_model_block(m, 0)->conds[0]);
    cr_assert_not_null(h);
    cr_assert_float_eq(eval_at(m, h, at, 2, 0.0), 1.0, 1e-15);
    nsdae_expr_pool_destroy(p);
    nsdae_model_destroy(m);
}
