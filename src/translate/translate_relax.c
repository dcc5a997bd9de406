/* Expression preparation for the MLCS: parameters bound, second-order derivatives reduced to
 * velocity unknowns, and the nonsmooth functions abs, min, max, sign replaced by multipliers
 * with complementarity or box rows (examples/LANGUAGE.md, "How the time stepper reads a model"). */
#include "translate/translate_internal.h"

#include "model/expr_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- preparation ----------------------------------------------------------------------------- */

static const nsdae_expr *bind_leaf(nsdae_expr_pool *p, const nsdae_expr *leaf, void *ctx)
{
    const tctx *T = ctx;
    if (leaf->kind == NSDAE_EXPR_PARAM) return X_C(p, nsdae_model_param_values(T->m)[leaf->index]);
    return NULL;
}

const nsdae_expr *nsdae_tr_bind(tctx *T, const nsdae_expr *e)
{
    const nsdae_expr *r = nsdae_expr_rebuild(T->p, e, bind_leaf, T);
    if (!r) nsdae_tr_nomem(T);
    return r;
}

/* der(x) -> v_x and der(der(x)) -> der(v_x) for second-order variables. */
static const nsdae_expr *reduce_leaf(nsdae_expr_pool *p, const nsdae_expr *leaf, void *ctx)
{
    const tctx *T = ctx;
    if (leaf->kind != NSDAE_EXPR_VAR || leaf->index >= T->nvars || leaf->order < 1) return NULL;
    int v = T->vel[leaf->index];
    if (v < 0) return NULL;
    return nsdae_expr_var(p, v, leaf->order - 1);
}

typedef struct relax_ctx {
    tctx *T;
    const nsdae_equation *eq;
    nsdae_id_map memo;        /* relaxed nonsmooth nodes by id (a map: the pool is large) */
    char arg[200], name[260]; /* here, not in the recursive frames: long chains recurse deeply */
} relax_ctx;

static const nsdae_expr *relax_rec(relax_ctx *c, const nsdae_expr *e)
{
    tctx *T = c->T;
    nsdae_expr_pool *p = T->p;
    if (!(e->flags & NSDAE_EXPR_HAS_VAR) || !(e->flags & NSDAE_EXPR_NONSMOOTH)) return e;
    const nsdae_expr *known = nsdae_id_map_get(&c->memo, e->id);
    if (known) return known;
    const nsdae_expr *a = relax_rec(c, e->a);
    const nsdae_expr *b = e->b ? relax_rec(c, e->b) : NULL;
    if (!a || (e->b && !b) || T->st) return NULL;
    const nsdae_expr *r = NULL;
    char *arg = c->arg, *name = c->name;
    const size_t arg_size = sizeof c->arg, name_size = sizeof c->name;
    int depends = (a->flags & NSDAE_EXPR_HAS_VAR) || (b && (b->flags & NSDAE_EXPR_HAS_VAR));
    if (!depends) {
        r = b ? nsdae_expr_binary(p, e->kind, a, b) : nsdae_expr_unary(p, e->kind, a);
    } else if (e->kind == NSDAE_EXPR_ABS) {
        /* |a| = a + 2 m with m = a^-:  0 <= a + m _|_ m >= 0 */
        nsdae_tr_print(T, a, arg, arg_size);
        snprintf(name, name_size, "minus(%s)", arg);
        int s = nsdae_tr_site(T, KEY_NODE, a, NSDAE_EXPR_ABS, 0, 0, NSDAE_ROW_COMPLEMENTARITY, 0, 0, c->eq, name, -1);
        if (s < 0) return NULL;
        const nsdae_expr *m = nsdae_expr_var(p, T->sites[s].lambda, 0);
        if (!T->sites[s].w) nsdae_tr_set_site_w(T, s, X_ADD(p, a, m));
        r = X_ADD(p, a, X_MUL(p, X_C(p, 2.0), m));
    } else if (e->kind == NSDAE_EXPR_MAX || e->kind == NSDAE_EXPR_MIN) {
        /* plus = (a - b)^+:  0 <= plus - (a - b) _|_ plus >= 0;  max = b + plus, min = a - plus */
        const nsdae_expr *d = X_SUB(p, a, b);
        if (!d) { nsdae_tr_nomem(T); return NULL; }
        nsdae_tr_print(T, d, arg, arg_size);
        snprintf(name, name_size, "plus(%s)", arg);
        int s = nsdae_tr_site(T, KEY_NODE, d, NSDAE_EXPR_MAX, 0, 0, NSDAE_ROW_COMPLEMENTARITY, 0, 0, c->eq, name, -1);
        if (s < 0) return NULL;
        const nsdae_expr *pl = nsdae_expr_var(p, T->sites[s].lambda, 0);
        if (!T->sites[s].w) nsdae_tr_set_site_w(T, s, X_SUB(p, pl, d));
        r = e->kind == NSDAE_EXPR_MAX ? X_ADD(p, b, pl) : X_SUB(p, a, pl);
    } else if (e->kind == NSDAE_EXPR_SIGN) {
        /* the set-valued sign: sigma in [-1, 1], -w in N(sigma) with w = -a */
        nsdae_tr_print(T, a, arg, arg_size);
        snprintf(name, name_size, "sign(%s)", arg);
        int s = nsdae_tr_site(T, KEY_NODE, a, NSDAE_EXPR_SIGN, 0, 0, NSDAE_ROW_BOX, -1.0, 1.0, c->eq, name, -1);
        if (s < 0) return NULL;
        if (!T->sites[s].w) nsdae_tr_set_site_w(T, s, X_NEG(p, a));
        r = nsdae_expr_var(p, T->sites[s].lambda, 0);
    } else {
        r = b ? nsdae_expr_binary(p, e->kind, a, b) : nsdae_expr_unary(p, e->kind, a);
    }
    if (!r) nsdae_tr_nomem(T);
    if (r && !nsdae_id_map_put(&c->memo, e->id, r)) {
        nsdae_tr_nomem(T);
        return NULL;
    }
    return r;
}

const nsdae_expr *nsdae_tr_prepare(tctx *T, const nsdae_expr *e, const nsdae_equation *eq)
{
    if (T->st || !e) return NULL;
    const nsdae_expr *b = nsdae_tr_bind(T, e);
    if (!b) return NULL;
    /* the flag first: a walk per variable and equation made translation quadratic in the model */
    for (int j = 0; j < T->nvars && (b->flags & NSDAE_EXPR_HAS_ORDER3); j++)
        if (nsdae_expr_max_order(b, j) > 2) {
            nsdae_tr_fail(T, eq, "derivative of order %d of '%s': only orders up to 2 are reduced",
                          nsdae_expr_max_order(b, j), T->uname[j]);
            return NULL;
        }
    const nsdae_expr *r = nsdae_expr_rebuild(T->p, b, reduce_leaf, T);
    if (!r) {
        nsdae_tr_nomem(T);
        return NULL;
    }
    relax_ctx *c = malloc(sizeof *c);
    if (!c) {
        nsdae_tr_nomem(T);
        return NULL;
    }
    c->T = T;
    c->eq = eq;
    c->memo = (nsdae_id_map){NULL, NULL, 0, 0};
    const nsdae_expr *out = relax_rec(c, r);
    nsdae_id_map_free(&c->memo);
    free(c);
    if (!out) nsdae_tr_nomem(T);
    return T->st ? NULL : out;
}
