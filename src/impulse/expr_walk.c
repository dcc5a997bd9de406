/* Walks over an expression DAG for the impulse stage: the leaves it uses, and a copy with every
 * unknown renamed (model leaf x^(o) -> array variable x^(o) shifted k times). Both visit each
 * node once (memo by node id) so that shared subexpressions cost nothing extra. */
#include <stdlib.h>
#include <string.h>

#include "impulse/impulse_internal.h"

typedef struct leaf_walk {
    char *seen;
    int *out;
    int n, cap;
} leaf_walk;

static int leaf_visit(leaf_walk *w, const nsdae_expr *e)
{
    if (!e || w->seen[e->id]) return 0;
    w->seen[e->id] = 1;
    if (e->kind == NSDAE_EXPR_VAR) {
        if (w->n == w->cap) {
            int cap = w->cap ? 2 * w->cap : 16;
            int *p = realloc(w->out, (size_t)cap * 2 * sizeof *p);
            if (!p) return -1;
            w->out = p;
            w->cap = cap;
        }
        w->out[2 * w->n] = e->index;
        w->out[2 * w->n + 1] = e->order;
        w->n++;
        return 0;
    }
    if (leaf_visit(w, e->a) < 0) return -1;
    return leaf_visit(w, e->b);
}

nsdae_status imp_leaves(const nsdae_expr *e, int **leaves, int *n, nsdae_error *err)
{
    /* ids are dense and children have smaller ids: e->id + 1 slots cover the subtree */
    leaf_walk w = {calloc((size_t)e->id + 1, 1), NULL, 0, 0};
    if (!w.seen || leaf_visit(&w, e) < 0) {
        free(w.seen);
        free(w.out);
        return nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory listing the unknowns of an equation");
    }
    free(w.seen);
    *leaves = w.out;
    *n = w.n;
    return NSDAE_OK;
}

typedef struct relabel_walk {
    nsdae_expr_pool *pool;
    const nsdae_expr **memo;
    imp_leaf_map map;
    void *ctx;
} relabel_walk;

static const nsdae_expr *relabel_visit(relabel_walk *w, const nsdae_expr *e)
{
    if (!e) return NULL;
    if (w->memo[e->id]) return w->memo[e->id];
    const nsdae_expr *r;
    switch (e->kind) {
    case NSDAE_EXPR_VAR: r = w->map(e->index, e->order, w->ctx); break;
    case NSDAE_EXPR_CONST:
    case NSDAE_EXPR_PARAM:
    case NSDAE_EXPR_TIME: r = e; break;
    case NSDAE_EXPR_NEG:
    case NSDAE_EXPR_SIN:
    case NSDAE_EXPR_COS:
    case NSDAE_EXPR_EXP:
    case NSDAE_EXPR_LOG:
    case NSDAE_EXPR_SQRT:
    case NSDAE_EXPR_ABS:
    case NSDAE_EXPR_SIGN: r = nsdae_expr_unary(w->pool, e->kind, relabel_visit(w, e->a)); break;
    case NSDAE_EXPR_PRE: r = relabel_visit(w, e->a); break; /* pre(pre(a)) = pre(a) */
    default: r = nsdae_expr_binary(w->pool, e->kind, relabel_visit(w, e->a), relabel_visit(w, e->b)); break;
    }
    w->memo[e->id] = r;
    return r;
}

nsdae_status imp_relabel(nsdae_expr_pool *pool, const nsdae_expr *e, imp_leaf_map map, void *ctx,
                         const nsdae_expr **out, nsdae_error *err)
{
    relabel_walk w = {pool, calloc((size_t)e->id + 1, sizeof(const nsdae_expr *)), map, ctx};
    if (!w.memo) return nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory renaming unknowns");
    *out = relabel_visit(&w, e);
    free(w.memo);
    if (!*out) return nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory renaming unknowns");
    return NSDAE_OK;
}

typedef struct pre_walk {
    nsdae_expr_pool *pool;
    const nsdae_expr **memo;
    int nvars, strip;
    nsdae_error *err;
} pre_walk;

static const nsdae_expr *pre_leaf(int j, int o, void *ctx)
{
    pre_walk *w = ctx;
    return nsdae_expr_var(w->pool, NSDAE_IMPULSE_PRE(w->nvars, j), o);
}

static const nsdae_expr *pre_visit(pre_walk *w, const nsdae_expr *e)
{
    if (!e || !(e->flags & NSDAE_EXPR_HAS_PRE)) return e;
    if (w->memo[e->id]) return w->memo[e->id];
    const nsdae_expr *r = NULL;
    if (e->kind == NSDAE_EXPR_PRE) {
        if (w->strip) r = pre_visit(w, e->a);
        else if (imp_relabel(w->pool, e->a, pre_leaf, w, &r, w->err)) r = NULL;
    } else if (e->b) {
        r = nsdae_expr_binary(w->pool, e->kind, pre_visit(w, e->a), pre_visit(w, e->b));
    } else {
        r = nsdae_expr_unary(w->pool, e->kind, pre_visit(w, e->a));
    }
    w->memo[e->id] = r;
    return r;
}

nsdae_status imp_lower_pre(nsdae_expr_pool *pool, const nsdae_expr *e, int nvars, int strip, const nsdae_expr **out,
                           nsdae_error *err)
{
    *out = e;
    if (!e || !(e->flags & NSDAE_EXPR_HAS_PRE)) return NSDAE_OK;
    pre_walk w = {pool, calloc((size_t)e->id + 1, sizeof(const nsdae_expr *)), nvars, strip, err};
    if (!w.memo) return nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory reading pre()");
    *out = pre_visit(&w, e);
    free(w.memo);
    if (!*out) return nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory reading pre()");
    return NSDAE_OK;
}
