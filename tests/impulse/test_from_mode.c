/* The mode module's adapter: mode changes of the example models, from the model files alone,
 * reproduce the oracles the hand-built inputs of test_cup_and_ball.c and test_clutch.c assert
 * (Benveniste et al. 2026, section 9 and Appendix E):
 *   cup-and-ball inelastic (examples/cup_and_ball.nsm, free -> taut): at (0.6, -0.8) with
 *   v- = (1, -1), v+ = v- - (p.v-/L^2) p = (0.16, 0.12). The file writes the rope force as
 *   -2 p rope (gradient of the gap L^2 - |p|^2), the paper as -p lambda: the rope's percussion is
 *   half the paper's lambda percussion 1.4, i.e. 0.7;
 *   the same with e = 1: the cascade free -> transient (closed rope + Newton's law) -> free gives
 *   v+ = v- - 2 (p.v-/L^2) p = (-0.68, 1.24), rope percussion 2.8 / 2 = 1.4;
 *   clutch (examples/clutch_exogenous.nsm, released -> engaged, J1 = 1, J2 = 3 as in Benveniste et al. 2026, Appendix E):
 *   w1- = 4, w2- = 0 give (J1 + J2) w+ = J1 w1- + J2 w2-, w+ = 1, tau1 percussion J1 (w+ - w1-) = -3. */
#include <math.h>

#include <nsdae/mode.h>

#include "impulse_helpers.h"

#define NSDAE_EXAMPLES_DIR NSDAE_SOURCE_DIR "/examples"

static nsdae_model *load(const char *file)
{
    nsdae_model *m = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_model_parse_file(file, &m, &err), NSDAE_OK, "%s", err.message);
    return m;
}

typedef struct mode_change {
    nsdae_model *m;
    nsdae_switches *sw;
    int prev[8], next[8];
    const nsdae_expr *guard;
    nsdae_expr_pool *pool;
    nsdae_impulse_input in;
    nsdae_impulse_modes *store;
    nsdae_impulse_result *r;
} mode_change;

static void build(mode_change *c, const char *from, const char *to)
{
    nsdae_error err = {0};
    cr_assert_eq(nsdae_mode_switches(c->m, &c->sw, &err), NSDAE_OK, "%s", err.message);
    cr_assert_leq(c->sw->n, 8);
    cr_assert_eq(nsdae_mode_parse(c->sw, from, c->prev, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(nsdae_mode_parse(c->sw, to, c->next, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(nsdae_expr_pool_create_over(nsdae_model_pool(c->m), &c->pool, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(nsdae_impulse_guard(c->m, c->sw, c->pool, c->prev, c->next, &c->guard, &err), NSDAE_OK, "%s",
                 err.message);
    cr_assert_eq(nsdae_impulse_input_from_modes(c->m, c->sw, c->pool, c->prev, NULL, c->next, c->guard, &c->in, &c->store, &err),
                 NSDAE_OK, "%s", err.message);
    nsdae_impulse_options opt = {-1};
    cr_assert_eq(nsdae_impulse_analyze(&c->in, &opt, &c->r, &err), NSDAE_OK, "%s", err.message);
    dump(c->r);
}

static void release(mode_change *c)
{
    nsdae_impulse_result_destroy(c->r);
    nsdae_impulse_modes_destroy(c->store);
    nsdae_expr_pool_destroy(c->pool);
    nsdae_mode_switches_destroy(c->sw);
    nsdae_model_destroy(c->m);
}

/* Whether list a and list b share residual pointer e. */
static int shared(const nsdae_impulse_eqs *a, const nsdae_impulse_eqs *b, int i)
{
    for (int k = 0; k < b->n; k++)
        if (b->residual[k] == a->residual[i]) return 1;
    return 0;
}

Test(impulse_from_mode, cup_and_ball_inelastic_from_the_model_file)
{
    enum { X = 0, Y = 1, ROPE = 2, N = 3 };
    mode_change c = {0};
    c.m = load(NSDAE_EXAMPLES_DIR "/cup_and_ball.nsm");
    build(&c, "1", "0"); /* 1: rope = 0 (free), 0: gap = 0 (taut) */
    /* the guard is the gap in the free mode's states; the two dynamics equations are shared */
    const nsdae_equation *contact = nsdae_model_equation(c.m, 2);
    cr_assert_eq(contact->kind, NSDAE_EQ_COMPL);
    cr_expect_eq(c.guard, contact->a);
    cr_assert_eq(c.in.prev.n, 3);
    cr_assert_eq(c.in.next.n, 3);
    cr_expect(shared(&c.in.prev, &c.in.next, 0) && shared(&c.in.prev, &c.in.next, 1));
    cr_expect(!shared(&c.in.prev, &c.in.next, 2));
    const nsdae_impulse_result *r = c.r;
    cr_assert_eq(r->verdict, NSDAE_IMPULSE_OK);
    cr_expect_eq(r->height, 1);
    cr_expect_eq(nsdae_impulse_mu(r, X, 2, 0), 1);
    cr_expect_eq(nsdae_impulse_mu(r, Y, 2, 0), 1);
    cr_expect_eq(nsdae_impulse_mu(r, ROPE, 0, 0), 1);
    double left[3 * N] = {0}, plus[8], aux[128];
    left[X] = 0.6, left[Y] = -0.8, left[N + X] = 1, left[N + Y] = -1, left[2 * N + Y] = -9.81;
    nsdae_impulse_numeric num;
    nsdae_error err = {0};
    cr_assert_lt(r->navars, 128);
    cr_assert_eq(nsdae_impulse_restart(r, left, 2, plus, aux, &num, &err), NSDAE_OK, "%s", err.message);
    int ix = state_index(r, X, 0), iy = state_index(r, Y, 0), ivx = state_index(r, X, 1), ivy = state_index(r, Y, 1);
    cr_assert(ix >= 0 && iy >= 0 && ivx >= 0 && ivy >= 0);
    cr_expect_float_eq(plus[ix], 0.6, 1e-14);
    cr_expect_float_eq(plus[iy], -0.8, 1e-14);
    cr_expect_float_eq(plus[ivx], 0.16, 1e-12, "x'+ = %.15g", plus[ivx]);
    cr_expect_float_eq(plus[ivy], 0.12, 1e-12, "y'+ = %.15g", plus[ivy]);
    int il = avar_index(r, ROPE, 0, 0);
    cr_assert(il >= 0);
    cr_expect_float_eq(aux[il], 0.7, 1e-12, "rope percussion %.15g", aux[il]);
    release(&c);
}

Test(impulse_from_mode, cup_and_ball_elastic_cascade_with_the_newton_law_of_the_contact)
{
    enum { X = 0, Y = 1, ROPE = 2, N = 3 };
    nsdae_error err = {0};
    nsdae_model *m = load(NSDAE_EXAMPLES_DIR "/cup_and_ball.nsm");
    cr_assert_eq(nsdae_model_set_param(m, "e", 1, &err), NSDAE_OK, "%s", err.message);
    nsdae_switches *sw = NULL;
    cr_assert_eq(nsdae_mode_switches(m, &sw, &err), NSDAE_OK, "%s", err.message);
    int free_mode[1] = {1}, taut[1] = {0};
    const nsdae_expr *guard = NULL, *law = NULL;
    nsdae_expr_pool *pool = NULL;
    cr_assert_eq(nsdae_expr_pool_create_over(nsdae_model_pool(m), &pool, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(nsdae_impulse_guard(m, sw, pool, free_mode, taut, &guard, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(nsdae_impulse_newton_law(m, sw, pool, 0, &law, &err), NSDAE_OK, "%s", err.message);
    nsdae_impulse_input in;
    nsdae_impulse_modes *store = NULL;
    cr_assert_eq(nsdae_impulse_input_from_modes(m, sw, pool, free_mode, taut, free_mode, guard, &in, &store, &err), NSDAE_OK,
                 "%s", err.message);
    cr_assert_eq(nsdae_impulse_modes_add_transient(store, &in, law, "newton", &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(in.transient.n, 4);
    nsdae_impulse_result *r = NULL;
    nsdae_impulse_options opt = {-1};
    cr_assert_eq(nsdae_impulse_analyze(&in, &opt, &r, &err), NSDAE_OK, "%s", err.message);
    dump(r);
    cr_assert_eq(r->verdict, NSDAE_IMPULSE_OK);
    cr_expect_eq(r->height, 1);
    double left[3 * N] = {0}, plus[8], aux[128];
    left[X] = 0.6, left[Y] = -0.8, left[N + X] = 1, left[N + Y] = -1, left[2 * N + Y] = -9.81;
    nsdae_impulse_numeric num;
    cr_assert_lt(r->navars, 128);
    cr_assert_eq(nsdae_impulse_restart(r, left, 2, plus, aux, &num, &err), NSDAE_OK, "%s", err.message);
    int ivx = state_index(r, X, 1), ivy = state_index(r, Y, 1), il = avar_index(r, ROPE, 0, 0);
    cr_assert(ivx >= 0 && ivy >= 0 && il >= 0);
    cr_expect_float_eq(plus[ivx], -0.68, 1e-12, "x'+ = %.15g", plus[ivx]);
    cr_expect_float_eq(plus[ivy], 1.24, 1e-12, "y'+ = %.15g", plus[ivy]);
    cr_expect_float_eq(aux[il], 1.4, 1e-12, "rope percussion %.15g", aux[il]);
    nsdae_impulse_result_destroy(r);
    nsdae_impulse_modes_destroy(store);
    nsdae_expr_pool_destroy(pool);
    nsdae_mode_switches_destroy(sw);
    nsdae_model_destroy(m);
}

Test(impulse_from_mode, clutch_engagement_from_the_model_file)
{
    enum { W1 = 0, W2 = 1, T1 = 2, T2 = 3, N = 4 };
    mode_change c = {0};
    nsdae_error err = {0};
    c.m = load(NSDAE_EXAMPLES_DIR "/clutch_exogenous.nsm");
    cr_assert_eq(nsdae_model_set_param(c.m, "J2", 3, &err), NSDAE_OK, "%s", err.message);
    build(&c, "1", "0"); /* 1: else (released), 0: time >= t_e (engaged) */
    cr_expect_null(c.guard, "an exogenous switch has no guard");
    const nsdae_impulse_result *r = c.r;
    cr_assert_eq(r->verdict, NSDAE_IMPULSE_OK);
    cr_expect_eq(r->height, 1);
    cr_expect_eq(nsdae_impulse_mu(r, T1, 0, 0), 1);
    cr_expect_eq(nsdae_impulse_mu(r, T2, 0, 0), 1);
    double left[2 * N] = {0}, plus[4], aux[64];
    left[W1] = 4, left[W2] = 0, left[N + W1] = -0.1 * 4; /* released: J1 w1' = -b1 w1 */
    nsdae_impulse_numeric num;
    cr_assert_lt(r->navars, 64);
    cr_assert_eq(nsdae_impulse_restart(r, left, 1, plus, aux, &num, &err), NSDAE_OK, "%s", err.message);
    int i1 = state_index(r, W1, 0), i2 = state_index(r, W2, 0);
    cr_assert(i1 >= 0 && i2 >= 0);
    cr_expect_float_eq(plus[i1], 1.0, 1e-13);
    cr_expect_float_eq(plus[i2], 1.0, 1e-13);
    cr_expect_float_eq(aux[avar_index(c.r, T1, 0, 0)], -3.0, 1e-13);
    release(&c);
}

Test(impulse_from_mode, two_guarded_switches_changing_together_are_refused)
{
    static const char *TWO = "model two\n  var x; var y; var a; var b;\nequation\n"
                             "  der(x) = a;\n  der(y) = b;\n"
                             "  0 <= x _|_ a >= 0;\n  0 <= y _|_ b >= 0;\nend two;\n";
    nsdae_model *m = parse_model(TWO);
    nsdae_switches *sw = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_mode_switches(m, &sw, &err), NSDAE_OK, "%s", err.message);
    int prev[2] = {1, 1}, next[2] = {0, 0}, one[2] = {0, 1};
    const nsdae_expr *g = NULL;
    nsdae_expr_pool *pool = NULL;
    cr_assert_eq(nsdae_expr_pool_create_over(nsdae_model_pool(m), &pool, &err), NSDAE_OK, "%s", err.message);
    cr_expect_eq(nsdae_impulse_guard(m, sw, pool, prev, next, &g, &err), NSDAE_INVALID_INPUT);
    cr_expect(strstr(err.message, "lines 6 and 7") != NULL, "%s", err.message);
    cr_expect_eq(nsdae_impulse_guard(m, sw, pool, prev, one, &g, &err), NSDAE_OK);
    cr_expect_eq(g, nsdae_model_equation(m, 2)->a);
    cr_expect_eq(nsdae_impulse_guard(m, sw, pool, one, prev, &g, &err), NSDAE_OK);
    cr_expect_eq(g, nsdae_model_equation(m, 2)->b, "an opening contact: its multiplier crosses zero");
    nsdae_expr_pool_destroy(pool);
    nsdae_mode_switches_destroy(sw);
    nsdae_model_destroy(m);
}
