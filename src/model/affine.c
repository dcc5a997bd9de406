/* Affine decomposition of an expression in a set of (variable, order) leaves:
 * e = sum_k coef_k * leaf_k + rest, coefficients and rest free of those leaves. */
#include "model/expr_internal.h"

#include <stdlib.h>

typedef struct affine_ctx {
    nsdae_expr_pool *p;
    const nsdae_leaf *leaves;
    int n;
    const nsdae_expr *bad;  /* first nonlinear term found */
} affine_ctx;

static int leaf_index(const affine_ctx *c, const nsdae_expr *e)
{
    if (e->kind != NSDAE_EXPR_VAR) return -1;
    for (int k = 0; k < c->n; k++)
        if (c->leaves[k].var == e->index && c->leaves[k].order == e->order) return k;
    return -1;
}

static int depends(const affine_ctx *c, const nsdae_expr *e)
{
    if (!(e->flags & NSDAE_EXPR_HAS_VAR)) return 0;
    if (e->kind == NSDAE_EXPR_VAR) return leaf_index(c, e) >= 0;
    if (e->kind == NSDAE_EXPR_PRE) return 0; /* a left limit: a known value at the event */
    return (e->a && depends(c, e->a)) || (e->b && depends(c, e->b));
}

/* Fills coef (n entries, NULL meaning 0) and *rest. Returns 0 on a nonlinear term (c->bad) or
 * when the pool fails. */
static int decompose(affine_ctx *c, const nsdae_expr *e, const nsdae_expr **coef, const nsdae_expr **rest)
{
    nsdae_expr_pool *p = c->p;
    for (int k = 0; k < c->n; k++) coef[k] = NULL;
    if (!depends(c, e)) {
        *rest = e;
        return 1;
    }
    int li = leaf_index(c, e);
    if (li >= 0) {
        coef[li] = X_C(p, 1.0);
        *rest = X_C(p, 0.0);
        return 1;
    }
    const nsdae_expr *a = e->a, *b = e->b;
    switch (e->kind) {
    case NSDAE_EXPR_ADD:
    case NSDAE_EXPR_SUB: {
        const nsdae_expr **cb = calloc((size_t)c->n + 1, sizeof *cb);
        const nsdae_expr *ra, *rb;
        int ok = cb && decompose(c, a, coef, &ra) && decompose(c, b, cb, &rb);
        if (ok) {
            for (int k = 0; k < c->n; k++) {
                if (!cb[k]) continue;
                const nsdae_expr *x = coef[k] ? coef[k] : X_C(p, 0.0);
                coef[k] = nsdae_expr_binary(p, e->kind, x, cb[k]);
            }
            *rest = nsdae_expr_binary(p, e->kind, ra, rb);
        }
        free(cb);
        return ok;
    }
    case NSDAE_EXPR_NEG: {
        const nsdae_expr *ra;
        if (!decompose(c, a, coef, &ra)) return 0;
        for (int k = 0; k < c->n; k++)
            if (coef[k]) coef[k] = X_NEG(p, coef[k]);
        *rest = X_NEG(p, ra);
        return 1;
    }
    case NSDAE_EXPR_MUL:
    case NSDAE_EXPR_DIV: {
        int da = depends(c, a), db = depends(c, b);
        if (e->kind == NSDAE_EXPR_MUL && da && db) break;
        if (e->kind == NSDAE_EXPR_DIV && db) break;
        const nsdae_expr *factor = da ? b : a, *lin = da ? a : b, *rl;
        if (!decompose(c, lin, coef, &rl)) return 0;
        for (int k = 0; k < c->n; k++)
            if (coef[k]) coef[k] = e->kind == NSDAE_EXPR_DIV ? X_DIV(p, coef[k], factor) : X_MUL(p, factor, coef[k]);
        *rest = e->kind == NSDAE_EXPR_DIV ? X_DIV(p, rl, factor) : X_MUL(p, factor, rl);
        return 1;
    }
    default: break;
    }
    if (!c->bad) c->bad = e;
    return 0;
}

nsdae_status nsdae_expr_affine(nsdae_expr_pool *p, const nsdae_expr *e, const nsdae_leaf *leaves, int nleaves,
                               const char *const *var_names, int nvars, const char *const *param_names,
                               int nparams, const nsdae_expr **coef, const nsdae_expr **rest, nsdae_error *err)
{
    *rest = NULL;
    if (!e || nleaves < 0 || (nleaves > 0 && (!leaves || !coef)))
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "affine: bad arguments");
    affine_ctx c = {p, leaves, nleaves, NULL};
    if (!decompose(&c, e, coef, rest)) {
        if (c.bad) {
            char term[200];
            nsdae_expr_print(c.bad, var_names, nvars, param_names, nparams, term, sizeof term);
            return nsdae_error_set(err, NSDAE_UNSUPPORTED, "nonlinear term '%s' in the unknowns", term);
        }
        return nsdae_error_set(err, NSDAE_NOMEM, "affine: out of memory");
    }
    for (int k = 0; k < nleaves; k++)
        if (!coef[k]) coef[k] = X_C(p, 0.0);
    if (nsdae_expr_pool_failed(p) || !*rest) return nsdae_error_set(err, NSDAE_NOMEM, "affine: out of memory");
    for (int k = 0; k < nleaves; k++)
        if (!coef[k]) return nsdae_error_set(err, NSDAE_NOMEM, "affine: out of memory");
    return NSDAE_OK;
}
