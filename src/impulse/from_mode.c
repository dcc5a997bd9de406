/* The adapter from the mode module to the analysis input: a mode change named by choice arrays
 * becomes the three residual lists and the guard the analysis takes. Nothing is copied: the
 * residuals are the mode systems' own (hash-consed) expressions, which is what lets the analysis
 * recognise an equation shared by two modes by pointer. */
#include <stdlib.h>

#include <nsdae/impulse.h>

#include "impulse/impulse_internal.h"

struct nsdae_impulse_modes {
    nsdae_mode_system *ms[3];           /* previous, transient (NULL: none), new */
    const nsdae_expr **res[3];
    const char **name[3];
};

void nsdae_impulse_modes_destroy(nsdae_impulse_modes *st)
{
    if (!st) return;
    for (int k = 0; k < 3; k++) {
        nsdae_mode_system_destroy(st->ms[k]);
        free(st->res[k]);
        free(st->name[k]);
    }
    free(st);
}

/* One mode's list, viewing ms's residuals and texts. A residual the mode system built in its own
 * pool (a relay's v - hi) is rebuilt in the input's pool, so that the same residual in two modes is
 * one pointer there too; the model's own residuals are shared as they are. */
static nsdae_status view_mode(nsdae_impulse_modes *st, int k, const nsdae_model *m, nsdae_expr_pool *pool,
                              nsdae_impulse_eqs *out, nsdae_error *err)
{
    size_t base = nsdae_expr_pool_size(nsdae_model_pool(m));
    const nsdae_mode_system *ms = st->ms[k];
    if (ms->nrelax > 0)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT,
                               "impulse: a sliding mode (%s) cannot be a restart mode: its relaxation unknowns "
                               "are no states of the model",
                               ms->relax_names[0]);
    st->res[k] = malloc(((size_t)ms->neq + 1) * sizeof *st->res[k]);
    st->name[k] = malloc(((size_t)ms->neq + 1) * sizeof *st->name[k]);
    if (!st->res[k] || !st->name[k]) return nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory");
    for (int i = 0; i < ms->neq; i++) {
        st->res[k][i] = ms->eqs[i].residual;
        if ((size_t)ms->eqs[i].residual->id >= base) {
            nsdae_status rc = nsdae_expr_simplify(pool, ms->eqs[i].residual, NULL, 0, &st->res[k][i], err);
            if (rc) return rc;
        }
        /* a `when`'s pre(x) is the analysis' left-limit leaf */
        nsdae_status rc = imp_lower_pre(pool, st->res[k][i], nsdae_model_nvars(m), 0, &st->res[k][i], err);
        if (rc) return rc;
        st->name[k][i] = ms->eqs[i].text;
    }
    *out = (nsdae_impulse_eqs){ms->neq, st->res[k], st->name[k]};
    return NSDAE_OK;
}

nsdae_status nsdae_impulse_input_from_modes(const nsdae_model *m, const nsdae_switches *s, nsdae_expr_pool *pool,
                                            const int *prev, const int *transient, const int *next, const nsdae_expr *guard,
                                            nsdae_impulse_input *in, nsdae_impulse_modes **store,
                                            nsdae_error *err)
{
    *store = NULL;
    nsdae_impulse_modes *st = calloc(1, sizeof *st);
    if (!st) return nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory");
    const int *choice[3] = {prev, transient, next};
    nsdae_impulse_eqs lists[3] = {{0, NULL, NULL}, {0, NULL, NULL}, {0, NULL, NULL}};
    for (int k = 0; k < 3; k++) {
        if (!choice[k]) continue;
        nsdae_status rc = nsdae_mode_equations(m, s, choice[k], &st->ms[k], err);
        if (!rc) rc = view_mode(st, k, m, pool, &lists[k], err);
        if (rc) {
            nsdae_impulse_modes_destroy(st);
            return rc;
        }
    }
    *in = (nsdae_impulse_input){pool,
                                nsdae_model_nvars(m),
                                nsdae_model_var_names(m),
                                nsdae_model_param_values(m),
                                nsdae_model_nparams(m),
                                nsdae_model_param_names(m),
                                lists[0],
                                lists[1],
                                lists[2],
                                guard};
    *store = st;
    return NSDAE_OK;
}

/* The guard one switch gives for its move a -> b (see the header), or NULL; *fails set for an
 * and/or condition. */
static const nsdae_expr *switch_guard(const nsdae_model *m, nsdae_expr_pool *pool, const nsdae_switch *w, int a, int b,
                                      int *fails)
{
    switch (w->kind) {
    case NSDAE_SWITCH_COMPL:
        return a == 1 && b == 0 ? nsdae_model_equation(m, w->equation)->a : nsdae_model_equation(m, w->equation)->b;
    case NSDAE_SWITCH_SIGN:
        return b == 0 ? nsdae_model_equation(m, w->equation)->arg : NULL;
    case NSDAE_SWITCH_IF_STATE: {
        const nsdae_block *blk = nsdae_model_block(m, w->block);
        int c = a < b ? a : b;
        if (c >= blk->nbranches - 1) return NULL; /* sliding <-> else: refused by the mode lists */
        const nsdae_cond *cond = blk->conds[c];
        while (cond->kind == NSDAE_COND_NOT) cond = cond->a;
        /* and/or: which comparison crosses is a question of the state, not of the modes; analysed
         * without facts, as an exogenous change (the conservative reading: fewer entailed equations) */
        if (cond->kind == NSDAE_COND_AND || cond->kind == NSDAE_COND_OR) return NULL;
        const nsdae_expr *h = nsdae_mode_switching_function(pool, blk->conds[c]);
        if (!h) *fails = 1;
        else if (imp_lower_pre(pool, h, nsdae_model_nvars(m), 1, &h, NULL)) return NULL; /* read at the left limit */
        return h;
    }
    default:
        return NULL; /* exogenous, or a transient `when` */
    }
}

/* Rewrites g in the previous mode's states: an unknown that mode determines algebraically by an
 * equation affine in it with a constant coefficient (s in `0 = L^2 - (x^2 + y^2) - s`) is replaced
 * by its solution, so that the analysis recognises the facts the crossing entails (k1: the rope
 * taut) whatever variable the model's guard reads. Others are left as they are. */
/* Whether e reads only order-0 values of unknowns whose derivatives the mode ms uses (its states'
 * positions), so that e is a function of the left-limit state. */
static int only_positions(const nsdae_mode_system *ms, const nsdae_expr *e, int n)
{
    for (int j = 0; j < n; j++) {
        int o = nsdae_expr_max_order(e, j);
        if (o < 0) continue;
        if (o > 0) return 0;
        int state = 0;
        for (int i = 0; i < ms->neq && !state; i++) state = nsdae_expr_max_order(ms->eqs[i].residual, j) > 0;
        if (!state) return 0;
    }
    return 1;
}

static nsdae_status guard_in_states(const nsdae_model *m, const nsdae_switches *s, nsdae_expr_pool *pool,
                                    const int *prev, const nsdae_expr **g, nsdae_error *err)
{
    int n = nsdae_model_nvars(m);
    nsdae_mode_system *ms = NULL;
    nsdae_status st = nsdae_mode_equations(m, s, prev, &ms, err);
    for (int pass = 0; !st && pass < n; pass++) {
        int changed = 0;
        for (int j = 0; !st && j < n; j++) {
            if (nsdae_expr_max_order(*g, j) != 0) continue;
            int algebraic = 1, use = -1;
            for (int i = 0; i < ms->neq; i++) {
                int o = nsdae_expr_max_order(ms->eqs[i].residual, j);
                if (o > 0) algebraic = 0;
                if (o == 0 && use < 0) use = i;
                else if (o == 0) use = -2; /* used by two equations: which one defines it is a matching question */
            }
            /* a residual the mode system built in its own pool cannot mix with this pool's nodes */
            if (!algebraic || use < 0 ||
                (size_t)ms->eqs[use].residual->id >= nsdae_expr_pool_size(nsdae_model_pool(m)))
                continue;
            nsdae_leaf leaf = {j, 0};
            const nsdae_expr *coef = NULL, *rest = NULL, *sol = NULL;
            nsdae_error e2 = {0};
            if (nsdae_expr_affine(pool, ms->eqs[use].residual, &leaf, 1, NULL, 0, NULL, 0, &coef, &rest, &e2) ||
                !coef || coef->kind != NSDAE_EXPR_CONST || coef->value == 0.0)
                continue;
            sol = nsdae_expr_binary(pool, NSDAE_EXPR_DIV, nsdae_expr_unary(pool, NSDAE_EXPR_NEG, rest), coef);
            if (!sol || !only_positions(ms, sol, n)) continue; /* a multiplier given by forces stays as it is */
            st = nsdae_expr_substitute(pool, *g, j, 0, sol, g, err);
            changed = 1;
        }
        if (!changed) break;
    }
    nsdae_mode_system_destroy(ms);
    return st;
}

nsdae_status nsdae_impulse_when_guard(const nsdae_model *m, const nsdae_switches *s, nsdae_expr_pool *pool,
                                      const int *prev, int k, const nsdae_expr **guard, nsdae_error *err)
{
    *guard = NULL;
    if (k < 0 || k >= s->n || s->sw[k].kind != NSDAE_SWITCH_WHEN)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "impulse: switch %d is no 'when'", k + 1);
    const nsdae_cond *c = nsdae_model_block(m, s->sw[k].block)->conds[0];
    const nsdae_expr *h = nsdae_mode_switching_function(pool, c);
    if (!h && !nsdae_expr_pool_failed(pool))
        return nsdae_error_set(err, NSDAE_INVALID_INPUT,
                               "impulse: the condition of the 'when' of line %d has no single switching function "
                               "(and/or): give the change with its crossing comparison",
                               s->sw[k].pos.line);
    nsdae_status st = h ? imp_lower_pre(pool, h, nsdae_model_nvars(m), 1, &h, err) : NSDAE_OK;
    if (!st && h) st = guard_in_states(m, s, pool, prev, &h, err);
    if (!st && (!h || nsdae_expr_pool_failed(pool))) st = nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory");
    if (!st) *guard = h;
    return st;
}

nsdae_status nsdae_impulse_guard(const nsdae_model *m, const nsdae_switches *s, nsdae_expr_pool *pool, const int *prev,
                                 const int *next,
                                 const nsdae_expr **guard, nsdae_error *err)
{
    *guard = NULL;
    int from = -1;
    for (int k = 0; k < s->n; k++) {
        if (prev[k] == next[k]) continue;
        if (!nsdae_mode_switch_active(s, prev, k) || !nsdae_mode_switch_active(s, next, k)) continue;
        int fails = 0;
        const nsdae_expr *g = switch_guard(m, pool, &s->sw[k], prev[k], next[k], &fails);
        if (fails)
            return nsdae_error_set(err, NSDAE_INVALID_INPUT,
                                   "impulse: the condition of line %d has no single switching function (and/or)",
                                   s->sw[k].pos.line);
        if (!g) continue;
        if (*guard)
            return nsdae_error_set(err, NSDAE_INVALID_INPUT,
                                   "impulse: switches of lines %d and %d both change with a guard: give one",
                                   s->sw[from].pos.line, s->sw[k].pos.line);
        *guard = g, from = k;
    }
    if (nsdae_expr_pool_failed(pool)) return nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory");
    return *guard ? guard_in_states(m, s, pool, prev, guard, err) : NSDAE_OK;
}

nsdae_status nsdae_impulse_newton_law(const nsdae_model *m, const nsdae_switches *s, nsdae_expr_pool *pool, int k,
                                      const nsdae_expr **law, nsdae_error *err)
{
    *law = NULL;
    const nsdae_equation *q = k >= 0 && k < s->n && s->sw[k].kind == NSDAE_SWITCH_COMPL
                                  ? nsdae_model_equation(m, s->sw[k].equation)
                                  : NULL;
    if (!q || !q->restitution)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "impulse: switch %d is no contact with a restitution", k + 1);
    const nsdae_expr *rate = NULL, *pre = NULL;
    nsdae_status st = nsdae_expr_dt(pool, q->a, &rate, err);
    pre = rate;
    int n = nsdae_model_nvars(m);
    for (int j = 0; !st && j < n; j++)
        for (int o = nsdae_expr_max_order(rate, j); !st && o >= 0; o--)
            st = nsdae_expr_substitute(pool, pre, j, o, nsdae_expr_var(pool, NSDAE_IMPULSE_PRE(n, j), o), &pre, err);
    if (st) return st;
    *law = nsdae_expr_binary(pool, NSDAE_EXPR_ADD, rate, nsdae_expr_binary(pool, NSDAE_EXPR_MUL, q->restitution, pre));
    if (!*law || nsdae_expr_pool_failed(pool)) return nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory");
    return NSDAE_OK;
}

nsdae_status nsdae_impulse_modes_add_transient(nsdae_impulse_modes *st, nsdae_impulse_input *in,
                                               const nsdae_expr *residual, const char *name, nsdae_error *err)
{
    if (!st->ms[1]) return nsdae_error_set(err, NSDAE_INVALID_INPUT, "impulse: the mode change has no transient mode");
    int n = in->transient.n;
    const nsdae_expr **res = realloc(st->res[1], ((size_t)n + 2) * sizeof *res);
    if (res) st->res[1] = res;
    const char **names = res ? realloc(st->name[1], ((size_t)n + 2) * sizeof *names) : NULL;
    if (names) st->name[1] = names;
    if (!res || !names) return nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory");
    res[n] = residual;
    names[n] = name;
    in->transient = (nsdae_impulse_eqs){n + 1, res, names};
    return NSDAE_OK;
}
