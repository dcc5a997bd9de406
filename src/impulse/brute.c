/* The brute-force array (Benveniste et al. 2021, section 2.5.3): the matched equations of the
 * mode change array, unscaled, at a finite e. Past variables are the previous mode's Taylor
 * polynomials, y^(m) at t* + k e = sum_i (k e)^i / i! (y^(m+i))- for m + i < d-_y (x. = x + e x'
 * for the cup-and-ball), pre() leaves the left limits themselves. Each Euler identity is
 * multiplied by e^n: e^n x - sum_i c_i z_i. Its solution converges at O(e) to the restart when the
 * analysis succeeds (Theorem 1c), and is the only answer left when rescaling fails (D4). */
#include <stdlib.h>

#include "impulse/impulse_internal.h"

typedef struct taylor_ctx {
    const imp_ctx *cx;
    const imp_array *a;
    const nsdae_expr *eps;
} taylor_ctx;

static const nsdae_expr *past_value(const taylor_ctx *t, const imp_avar *v)
{
    nsdae_expr_pool *pool = t->cx->in->pool;
    if (v->k < 0) return nsdae_expr_var(pool, v->var, v->m);
    const nsdae_expr *sum = nsdae_expr_var(pool, v->var, v->m);
    const nsdae_expr *pw = nsdae_expr_const(pool, 1.0);
    const nsdae_expr *ke = nsdae_expr_binary(pool, NSDAE_EXPR_MUL, nsdae_expr_const(pool, (double)v->k), t->eps);
    double fact = 1;
    for (int i = 1; v->m + i <= t->cx->prev.d[v->var] - 1; i++) {
        fact *= i;
        pw = nsdae_expr_binary(pool, NSDAE_EXPR_MUL, pw, ke);
        const nsdae_expr *term = nsdae_expr_binary(pool, NSDAE_EXPR_MUL, nsdae_expr_const(pool, 1.0 / fact), pw);
        sum = nsdae_expr_binary(pool, NSDAE_EXPR_ADD, sum,
                                nsdae_expr_binary(pool, NSDAE_EXPR_MUL, term, nsdae_expr_var(pool, v->var, v->m + i)));
    }
    return sum;
}

static const nsdae_expr *map_taylor(int j, int o, void *ctx)
{
    taylor_ctx *t = ctx;
    const nsdae_impulse_input *in = t->cx->in;
    int v = j - IMP_LEAF(in, 0);
    if (v < 0 || v >= t->a->nv || !t->a->v[v].past) return nsdae_expr_var(in->pool, j, o);
    return past_value(t, &t->a->v[v]);
}

static const nsdae_expr *unscaled_euler(const taylor_ctx *t, const imp_aeq *e)
{
    nsdae_expr_pool *pool = t->cx->in->pool;
    const nsdae_expr *en = nsdae_expr_const(pool, 1.0);
    for (int i = 0; i < e->en; i++) en = nsdae_expr_binary(pool, NSDAE_EXPR_MUL, en, t->eps);
    const nsdae_expr *sum =
        nsdae_expr_binary(pool, NSDAE_EXPR_MUL, en, nsdae_expr_var(pool, IMP_LEAF(t->cx->in, e->ex), 0));
    for (int i = 0; i <= e->en; i++) {
        const imp_avar *z = &t->a->v[e->ez[i]];
        const nsdae_expr *zv = z->past ? past_value(t, z) : nsdae_expr_var(pool, IMP_LEAF(t->cx->in, e->ez[i]), 0);
        sum = nsdae_expr_binary(pool, NSDAE_EXPR_SUB, sum,
                                nsdae_expr_binary(pool, NSDAE_EXPR_MUL, nsdae_expr_const(pool, e->ecoef[i]), zv));
    }
    return sum;
}

nsdae_status imp_brute(const imp_ctx *cx, const imp_array *a, const int *mu, const int *keep,
                       nsdae_impulse_system **out, nsdae_error *err)
{
    int n = 0;
    for (int i = 0; i < a->ne; i++)
        if (a->e[i].matched >= 0 && keep[a->e[i].matched]) n++;
    nsdae_impulse_system *s = NULL;
    nsdae_status st = imp_system_alloc(cx, a, n, 1, &s, err);
    if (st != NSDAE_OK) return st;
    s->eps_var = IMP_LEAF(cx->in, a->nv);
    taylor_ctx t = {cx, a, nsdae_expr_var(cx->in->pool, s->eps_var, 0)};
    int r = 0;
    for (int i = 0; i < a->ne && st == NSDAE_OK; i++) {
        const imp_aeq *e = &a->e[i];
        if (e->matched < 0 || !keep[e->matched]) continue;
        if (e->kind == IMP_EQ_EULER) s->eq[r] = unscaled_euler(&t, e);
        else st = imp_relabel(cx->in->pool, e->expr, map_taylor, &t, &s->eq[r], err);
        if (st == NSDAE_OK && !s->eq[r]) st = nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory");
        imp_system_set_unknown(s, r++, a, e->matched, mu);
    }
    if (st == NSDAE_OK) st = imp_system_jacobian(cx, s, err);
    if (st != NSDAE_OK) imp_system_free(s);
    else *out = s;
    return st;
}
