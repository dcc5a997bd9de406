/* Affine decomposition of an expression in a set of (variable, order) leaves:
 * e = sum_k coef_k * leaf_k + rest, coefficients and rest free of those leaves.
 *
 * The decomposition keeps only the leaves that occur (a list of terms on a stack), not one slot per
 * leaf: a row of a 20 000-unknown model names two or three of them, and a slot array per +/- node
 * made translation quadratic in the model size (issue 14, item 5). Two term lists are merged
 * through a leaf -> position table that is cleared after each merge by walking the list just
 * written, so a decomposition costs O(expression size x depth), never O(number of leaves). */
#include "model/expr_internal.h"

#include <stdlib.h>
#include <string.h>

struct nsdae_affine_work {
    int nvars, norders;      /* leaf index = var * norders + order */
    int *pos;                /* nvars * norders: position of the leaf on the stack while merging, or -1 */
    int *slot;               /* NULL: every index of the range is a leaf; else -1 for one that is not */
    nsdae_affine_term *stk;
    int n, cap;
};

typedef struct affine_ctx {
    nsdae_expr_pool *p;
    nsdae_affine_work *w;
    const nsdae_expr *bad;   /* first nonlinear term found */
    int nomem;
} affine_ctx;

static int leaf_index(const affine_ctx *c, const nsdae_expr *e)
{
    if (e->kind != NSDAE_EXPR_VAR || e->index < 0 || e->index >= c->w->nvars || e->order < 0 ||
        e->order >= c->w->norders)
        return -1;
    int k = e->index * c->w->norders + e->order;
    return c->w->slot && c->w->slot[k] < 0 ? -1 : k;
}

static int depends(const affine_ctx *c, const nsdae_expr *e)
{
    if (!(e->flags & NSDAE_EXPR_HAS_VAR)) return 0;
    if (e->kind == NSDAE_EXPR_VAR) return leaf_index(c, e) >= 0;
    if (e->kind == NSDAE_EXPR_PRE) return 0; /* a left limit: a known value at the event */
    return (e->a && depends(c, e->a)) || (e->b && depends(c, e->b));
}

static int push(affine_ctx *c, int leaf, const nsdae_expr *coef)
{
    nsdae_affine_work *w = c->w;
    if (w->n == w->cap) {
        int cap = w->cap ? 2 * w->cap : 16;
        nsdae_affine_term *v = realloc(w->stk, (size_t)cap * sizeof *v);
        if (!v) {
            c->nomem = 1;
            return 0;
        }
        w->stk = v;
        w->cap = cap;
    }
    w->stk[w->n++] = (nsdae_affine_term){leaf, coef};
    return 1;
}

/* a (+ or -) b where a's terms are stk[s0, s1) and b's stk[s1, n): a leaf of both gets
 * a_k (op) b_k, a leaf of b only 0 (op) b_k (the coefficients the slot-per-leaf form built). */
static void merge(affine_ctx *c, nsdae_expr_kind op, int s0, int s1)
{
    nsdae_affine_work *w = c->w;
    nsdae_affine_term *t = w->stk;
    for (int k = s0; k < s1; k++) w->pos[t[k].leaf] = k;
    int out = s1;
    for (int k = s1; k < w->n; k++) {
        int at = w->pos[t[k].leaf];
        if (at >= 0) t[at].coef = nsdae_expr_binary(c->p, op, t[at].coef, t[k].coef);
        else t[out++] = (nsdae_affine_term){t[k].leaf, nsdae_expr_binary(c->p, op, X_C(c->p, 0.0), t[k].coef)};
    }
    for (int k = s0; k < s1; k++) w->pos[t[k].leaf] = -1;
    w->n = out;
}

/* Pushes the terms of e (each leaf once) and sets *rest. Returns 0 on a nonlinear term (c->bad)
 * or when out of memory. */
static int decompose(affine_ctx *c, const nsdae_expr *e, const nsdae_expr **rest)
{
    nsdae_expr_pool *p = c->p;
    nsdae_affine_work *w = c->w;
    if (!depends(c, e)) {
        *rest = e;
        return 1;
    }
    int li = leaf_index(c, e);
    if (li >= 0) {
        *rest = X_C(p, 0.0);
        return push(c, li, X_C(p, 1.0));
    }
    const nsdae_expr *a = e->a, *b = e->b, *ra, *rb;
    int s0 = w->n;
    switch (e->kind) {
    case NSDAE_EXPR_ADD:
    case NSDAE_EXPR_SUB: {
        if (!decompose(c, a, &ra)) return 0;
        int s1 = w->n;
        if (!decompose(c, b, &rb)) return 0;
        merge(c, e->kind, s0, s1);
        *rest = nsdae_expr_binary(p, e->kind, ra, rb);
        return 1;
    }
    case NSDAE_EXPR_NEG:
        if (!decompose(c, a, &ra)) return 0;
        for (int k = s0; k < w->n; k++) w->stk[k].coef = X_NEG(p, w->stk[k].coef);
        *rest = X_NEG(p, ra);
        return 1;
    case NSDAE_EXPR_MUL:
    case NSDAE_EXPR_DIV: {
        int da = depends(c, a), db = depends(c, b);
        if (e->kind == NSDAE_EXPR_MUL && da && db) break;
        if (e->kind == NSDAE_EXPR_DIV && db) break;
        const nsdae_expr *factor = da ? b : a, *lin = da ? a : b, *rl;
        if (!decompose(c, lin, &rl)) return 0;
        for (int k = s0; k < w->n; k++) {
            const nsdae_expr *x = w->stk[k].coef;
            w->stk[k].coef = e->kind == NSDAE_EXPR_DIV ? X_DIV(p, x, factor) : X_MUL(p, factor, x);
        }
        *rest = e->kind == NSDAE_EXPR_DIV ? X_DIV(p, rl, factor) : X_MUL(p, factor, rl);
        return 1;
    }
    default: break;
    }
    if (!c->bad) c->bad = e;
    return 0;
}

nsdae_status nsdae_affine_work_create(int nvars, int norders, nsdae_affine_work **out, nsdae_error *err)
{
    *out = NULL;
    if (nvars < 0 || norders < 1 || (nvars > 0 && (size_t)nvars > (size_t)2147483647 / (size_t)norders))
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "affine: bad leaf range %d x %d", nvars, norders);
    nsdae_affine_work *w = calloc(1, sizeof *w);
    if (w) w->pos = malloc(((size_t)nvars * (size_t)norders + 1) * sizeof *w->pos);
    if (!w || !w->pos) {
        free(w);
        return nsdae_error_set(err, NSDAE_NOMEM, "affine: out of memory");
    }
    w->nvars = nvars;
    w->norders = norders;
    memset(w->pos, 0xff, ((size_t)nvars * (size_t)norders + 1) * sizeof *w->pos); /* all -1 */
    *out = w;
    return NSDAE_OK;
}

void nsdae_affine_work_destroy(nsdae_affine_work *w)
{
    if (!w) return;
    free(w->pos);
    free(w->slot);
    free(w->stk);
    free(w);
}

static nsdae_status failure(const affine_ctx *c, const char *const *var_names, int nvars,
                            const char *const *param_names, int nparams, nsdae_error *err)
{
    if (c->bad && !c->nomem) {
        char term[200];
        nsdae_expr_print(c->bad, var_names, nvars, param_names, nparams, term, sizeof term);
        return nsdae_error_set(err, NSDAE_UNSUPPORTED, "nonlinear term '%s' in the unknowns", term);
    }
    return nsdae_error_set(err, NSDAE_NOMEM, "affine: out of memory");
}

static nsdae_status run(nsdae_expr_pool *p, const nsdae_expr *e, nsdae_affine_work *w, const char *const *var_names,
                        int nvars, const char *const *param_names, int nparams, const nsdae_affine_term **terms,
                        int *nterms, const nsdae_expr **rest, nsdae_error *err)
{
    *rest = NULL;
    *terms = NULL;
    *nterms = 0;
    if (!e || !w) return nsdae_error_set(err, NSDAE_INVALID_INPUT, "affine: bad arguments");
    affine_ctx c = {p, w, NULL, 0};
    w->n = 0;
    if (!decompose(&c, e, rest)) return failure(&c, var_names, nvars, param_names, nparams, err);
    int ok = !nsdae_expr_pool_failed(p) && *rest;
    for (int k = 0; k < w->n && ok; k++) ok = w->stk[k].coef != NULL;
    if (!ok) return nsdae_error_set(err, NSDAE_NOMEM, "affine: out of memory");
    *terms = w->stk;
    *nterms = w->n;
    return NSDAE_OK;
}

nsdae_status nsdae_expr_affine_terms(nsdae_expr_pool *p, const nsdae_expr *e, nsdae_affine_work *w,
                                     const char *const *var_names, int nvars, const nsdae_affine_term **terms,
                                     int *nterms, const nsdae_expr **rest, nsdae_error *err)
{
    return run(p, e, w, var_names, nvars, NULL, 0, terms, nterms, rest, err);
}

nsdae_status nsdae_expr_affine(nsdae_expr_pool *p, const nsdae_expr *e, const nsdae_leaf *leaves, int nleaves,
                               const char *const *var_names, int nvars, const char *const *param_names,
                               int nparams, const nsdae_expr **coef, const nsdae_expr **rest, nsdae_error *err)
{
    *rest = NULL;
    if (!e || nleaves < 0 || (nleaves > 0 && (!leaves || !coef)))
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "affine: bad arguments");
    /* the leaves as indices var * norders + order of a range; slot maps an index back to the first
     * leaf k naming it, -1 for an index of the range that is no leaf (it stays in the rest) */
    int maxvar = -1, maxorder = 0;
    for (int k = 0; k < nleaves; k++) {
        if (leaves[k].var < 0 || leaves[k].order < 0)
            return nsdae_error_set(err, NSDAE_INVALID_INPUT, "affine: leaf %d is (%d, %d)", k, leaves[k].var,
                                   leaves[k].order);
        if (leaves[k].var > maxvar) maxvar = leaves[k].var;
        if (leaves[k].order > maxorder) maxorder = leaves[k].order;
    }
    nsdae_affine_work *w = NULL;
    nsdae_status st = nsdae_affine_work_create(maxvar + 1, maxorder + 1, &w, err);
    if (st != NSDAE_OK) return st;
    size_t range = (size_t)(maxvar + 1) * (size_t)(maxorder + 1);
    w->slot = malloc((range + 1) * sizeof *w->slot);
    if (!w->slot) {
        nsdae_affine_work_destroy(w);
        return nsdae_error_set(err, NSDAE_NOMEM, "affine: out of memory");
    }
    memset(w->slot, 0xff, (range + 1) * sizeof *w->slot);
    for (int k = nleaves - 1; k >= 0; k--) w->slot[leaves[k].var * (maxorder + 1) + leaves[k].order] = k;
    const nsdae_affine_term *t;
    int nt;
    st = run(p, e, w, var_names, nvars, param_names, nparams, &t, &nt, rest, err);
    if (st == NSDAE_OK) {
        for (int k = 0; k < nleaves; k++) coef[k] = NULL;
        for (int i = 0; i < nt; i++) coef[w->slot[t[i].leaf]] = t[i].coef;
        for (int k = 0; k < nleaves; k++)
            if (!coef[k] && !(coef[k] = X_C(p, 0.0))) st = nsdae_error_set(err, NSDAE_NOMEM, "affine: out of memory");
    }
    nsdae_affine_work_destroy(w);
    return st;
}
