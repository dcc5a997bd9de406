/* Symbolic differentiation (partial, w.r.t. one (variable, order) leaf, and total w.r.t. time),
 * and the rebuilding transforms (simplify, parameter binding, substitution).
 *
 * Both walk the DAG once per node, without recursion: the nodes reachable from the root are
 * processed in increasing id order (children first, nsdae_expr_closure_nodes) and results are
 * memoised by node id in a map (an array sized by the root id cost O(pool) per call: one
 * expression of a model of n equations is a small part of a pool of O(n) nodes). */
#include "model/expr_internal.h"

#include <stdlib.h>

typedef struct diff_ctx {
    nsdae_expr_pool *p;
    int var, order;         /* partial: the leaf; total time derivative: var < 0 */
    nsdae_id_map memo;
} diff_ctx;

static const nsdae_expr *d_leaf(diff_ctx *c, const nsdae_expr *e)
{
    if (c->var < 0) { /* d/dt */
        if (e->kind == NSDAE_EXPR_TIME) return X_C(c->p, 1.0);
        if (e->kind == NSDAE_EXPR_VAR) return nsdae_expr_var(c->p, e->index, e->order + 1);
        return X_C(c->p, 0.0);
    }
    if (e->kind == NSDAE_EXPR_VAR && e->index == c->var && e->order == c->order) return X_C(c->p, 1.0);
    return X_C(c->p, 0.0);
}

static int is_zero(const nsdae_expr *e) { return e && e->kind == NSDAE_EXPR_CONST && e->value == 0.0; }

/* The derivative of node e, its operands' derivatives being in the memo already. */
static const nsdae_expr *d_node(diff_ctx *c, const nsdae_expr *e)
{
    nsdae_expr_pool *p = c->p;
    /* Subtrees without the leaf differentiate to 0 without being walked. */
    int relevant = c->var < 0 ? (e->flags & (NSDAE_EXPR_HAS_VAR | NSDAE_EXPR_HAS_TIME)) != 0
                              : (e->flags & NSDAE_EXPR_HAS_VAR) != 0;
    const nsdae_expr *r;
    if (!relevant) {
        r = X_C(p, 0.0);
    } else if (!e->a) {
        r = d_leaf(c, e);
    } else {
        const nsdae_expr *a = e->a, *b = e->b;
        const nsdae_expr *da = nsdae_id_map_get(&c->memo, a->id);
        const nsdae_expr *db = b ? nsdae_id_map_get(&c->memo, b->id) : X_C(p, 0.0);
        if (!da || !db) return NULL;
        if (is_zero(da) && is_zero(db)) {
            r = X_C(p, 0.0);
        } else {
            switch (e->kind) {
            case NSDAE_EXPR_ADD: r = X_ADD(p, da, db); break;
            case NSDAE_EXPR_SUB: r = X_SUB(p, da, db); break;
            case NSDAE_EXPR_MUL: r = X_ADD(p, X_MUL(p, da, b), X_MUL(p, a, db)); break;
            case NSDAE_EXPR_DIV:
                r = X_SUB(p, X_DIV(p, da, b), X_DIV(p, X_MUL(p, a, db), X_POW(p, b, X_C(p, 2.0))));
                break;
            case NSDAE_EXPR_POW:
                if (is_zero(db)) /* constant exponent: b a^(b-1) a' */
                    r = X_MUL(p, X_MUL(p, b, X_POW(p, a, X_SUB(p, b, X_C(p, 1.0)))), da);
                else /* a^b (b' log a + b a'/a) */
                    r = X_MUL(p, e, X_ADD(p, X_MUL(p, db, nsdae_expr_unary(p, NSDAE_EXPR_LOG, a)),
                                         X_DIV(p, X_MUL(p, b, da), a)));
                break;
            case NSDAE_EXPR_NEG: r = X_NEG(p, da); break;
            case NSDAE_EXPR_SIN: r = X_MUL(p, nsdae_expr_unary(p, NSDAE_EXPR_COS, a), da); break;
            case NSDAE_EXPR_COS: r = X_NEG(p, X_MUL(p, nsdae_expr_unary(p, NSDAE_EXPR_SIN, a), da)); break;
            case NSDAE_EXPR_EXP: r = X_MUL(p, e, da); break;
            case NSDAE_EXPR_LOG: r = X_DIV(p, da, a); break;
            case NSDAE_EXPR_SQRT: r = X_DIV(p, da, X_MUL(p, X_C(p, 2.0), e)); break;
            case NSDAE_EXPR_ABS: r = X_MUL(p, nsdae_expr_unary(p, NSDAE_EXPR_SIGN, a), da); break;
            case NSDAE_EXPR_SIGN: r = X_C(p, 0.0); break;
            case NSDAE_EXPR_PRE: r = X_C(p, 0.0); break; /* a left limit: fixed at the event */
            case NSDAE_EXPR_MIN:
            case NSDAE_EXPR_MAX: {
                /* min/max(a,b) = (a+b)/2 -/+ |a-b|/2 */
                const nsdae_expr *mean = X_MUL(p, X_C(p, 0.5), X_ADD(p, da, db));
                const nsdae_expr *half = X_MUL(
                    p, X_C(p, 0.5), X_MUL(p, nsdae_expr_unary(p, NSDAE_EXPR_SIGN, X_SUB(p, a, b)), X_SUB(p, da, db)));
                r = e->kind == NSDAE_EXPR_MAX ? X_ADD(p, mean, half) : X_SUB(p, mean, half);
                break;
            }
            default: r = NULL; break;
            }
        }
    }
    return r;
}

static nsdae_status run_diff(nsdae_expr_pool *p, const nsdae_expr *e, int var, int order, const nsdae_expr **out,
                             nsdae_error *err)
{
    *out = NULL;
    if (!e) return nsdae_error_set(err, NSDAE_INVALID_INPUT, "differentiate: no expression");
    diff_ctx c = {p, var, order, {NULL, NULL, 0, 0}};
    nsdae_expr_closure cl;
    if (!nsdae_expr_closure_nodes(&e, 1, &cl)) return nsdae_error_set(err, NSDAE_NOMEM, "differentiate: out of memory");
    const nsdae_expr *d = NULL;
    for (int k = 0; k < cl.count; k++) {
        const nsdae_expr *n = cl.nodes[k];
        if (!(d = d_node(&c, n)) || !nsdae_id_map_put(&c.memo, n->id, d)) { /* the pool is exhausted */
            d = NULL;
            break;
        }
    }
    *out = d; /* the root comes last: it has the largest id */
    nsdae_expr_closure_free(&cl);
    nsdae_id_map_free(&c.memo);
    if (!*out) return nsdae_error_set(err, NSDAE_NOMEM, "differentiate: expression pool exhausted");
    return NSDAE_OK;
}

nsdae_status nsdae_expr_diff(nsdae_expr_pool *p, const nsdae_expr *e, int var, int order, const nsdae_expr **out,
                             nsdae_error *err)
{
    if (var < 0 || order < 0) {
        *out = NULL;
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "differentiate: bad leaf (var %d, order %d)", var, order);
    }
    return run_diff(p, e, var, order, out, err);
}

nsdae_status nsdae_expr_dt(nsdae_expr_pool *p, const nsdae_expr *e, const nsdae_expr **out, nsdae_error *err)
{
    return run_diff(p, e, -1, 0, out, err);
}

/* ---- rebuilding ------------------------------------------------------------------------- */

typedef struct rebuild_ctx {
    nsdae_expr_pool *p;
    nsdae_leaf_map map;
    void *ctx;
    nsdae_id_map memo;   /* by node id: a rebuild visits a part of the pool, not all of it */
} rebuild_ctx;

/* The rebuilt node e, its operands being rebuilt (in the memo) already. */
static const nsdae_expr *rebuild_node(rebuild_ctx *c, const nsdae_expr *e)
{
    if (!e->a) {
        const nsdae_expr *r = c->map ? c->map(c->p, e, c->ctx) : NULL;
        return r ? r : e;
    }
    const nsdae_expr *a = nsdae_id_map_get(&c->memo, e->a->id);
    const nsdae_expr *b = e->b ? nsdae_id_map_get(&c->memo, e->b->id) : NULL;
    if (!a || (e->b && !b)) return NULL;
    return e->b ? nsdae_expr_binary(c->p, e->kind, a, b) : nsdae_expr_unary(c->p, e->kind, a);
}

const nsdae_expr *nsdae_expr_rebuild(nsdae_expr_pool *p, const nsdae_expr *e, nsdae_leaf_map map, void *ctx)
{
    if (!e) return NULL;
    rebuild_ctx c = {p, map, ctx, {NULL, NULL, 0, 0}};
    nsdae_expr_closure cl;
    if (!nsdae_expr_closure_nodes(&e, 1, &cl)) return NULL;
    const nsdae_expr *r = NULL;
    for (int k = 0; k < cl.count; k++) {
        const nsdae_expr *n = cl.nodes[k];
        if (!(r = rebuild_node(&c, n)) || !nsdae_id_map_put(&c.memo, n->id, r)) {
            r = NULL;
            break;
        }
    }
    /* the root has the largest id: it is rebuilt last */
    nsdae_expr_closure_free(&cl);
    nsdae_id_map_free(&c.memo);
    return r;
}

typedef struct params_ctx {
    const double *values;
    int n;
} params_ctx;

static const nsdae_expr *bind_param(nsdae_expr_pool *p, const nsdae_expr *leaf, void *ctx)
{
    const params_ctx *pc = ctx;
    if (leaf->kind == NSDAE_EXPR_PARAM && leaf->index >= 0 && leaf->index < pc->n)
        return X_C(p, pc->values[leaf->index]);
    return NULL;
}

nsdae_status nsdae_expr_simplify(nsdae_expr_pool *p, const nsdae_expr *e, const double *params, int nparams,
                                 const nsdae_expr **out, nsdae_error *err)
{
    params_ctx pc = {params, params ? nparams : 0};
    *out = nsdae_expr_rebuild(p, e, params ? bind_param : NULL, &pc);
    if (!*out) return nsdae_error_set(err, NSDAE_NOMEM, "simplify: out of memory");
    return NSDAE_OK;
}

typedef struct subst_ctx {
    int var, order;
    const nsdae_expr *repl;
} subst_ctx;

static const nsdae_expr *subst_leaf(nsdae_expr_pool *p, const nsdae_expr *leaf, void *ctx)
{
    (void)p;
    const subst_ctx *sc = ctx;
    if (leaf->kind == NSDAE_EXPR_VAR && leaf->index == sc->var && leaf->order == sc->order) return sc->repl;
    return NULL;
}

nsdae_status nsdae_expr_substitute(nsdae_expr_pool *p, const nsdae_expr *e, int var, int order,
                                   const nsdae_expr *repl, const nsdae_expr **out, nsdae_error *err)
{
    subst_ctx sc = {var, order, repl};
    *out = repl ? nsdae_expr_rebuild(p, e, subst_leaf, &sc) : NULL;
    if (!*out) return nsdae_error_set(err, NSDAE_NOMEM, "substitute: out of memory or no replacement");
    return NSDAE_OK;
}
