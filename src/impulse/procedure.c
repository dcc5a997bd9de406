/* Procedure 1 (Benveniste et al. 2026, section 6): erase the disabled equations, rescale every
 * kept equation and variable by its impulse order, set e := 0 (keep exactly the terms whose
 * exponent mu_f - n_x - mu_x is 0), and rename: past variables to left limits
 * (x^(m) shifted k -> (x^(m))^-), tail variables to restart values, head variables stay as
 * rescaled auxiliaries. The same array leaf stands for the variable and for its rescaled value
 * x_down = e^mu x. */
#include <stdlib.h>
#include <string.h>

#include "impulse/impulse_internal.h"

typedef struct rename_ctx {
    const imp_ctx *cx;
    const imp_array *a;
} rename_ctx;

static const nsdae_expr *map_rename(int j, int o, void *ctx)
{
    rename_ctx *r = ctx;
    const nsdae_impulse_input *in = r->cx->in;
    int v = j - IMP_LEAF(in, 0);
    if (v < 0 || v >= r->a->nv || !r->a->v[v].past) return nsdae_expr_var(in->pool, j, o);
    return nsdae_expr_var(in->pool, r->a->v[v].var, r->a->v[v].m);
}

/* f_down at e = 0 for a model or law equation. */
static nsdae_status rescale_model(const imp_ctx *cx, const imp_array *a, const imp_aeq *e, const int *mu,
                                  const nsdae_expr **out, nsdae_error *err)
{
    nsdae_expr_pool *pool = cx->in->pool;
    int mf = imp_eq_mu(a, e, mu);
    if (mf == 0) {
        *out = e->expr;
        return NSDAE_OK;
    }
    /* mu_f > 0: only the linear terms x f_x with mu_x = mu_f survive */
    nsdae_leaf *lv = malloc((size_t)e->ndep * sizeof *lv);
    const nsdae_expr **coef = malloc((size_t)e->ndep * sizeof *coef);
    int nl = 0;
    nsdae_status st = lv && coef ? NSDAE_OK : nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory");
    for (int t = 0; st == NSDAE_OK && t < e->ndep; t++)
        if (e->lin[t]) lv[nl++] = (nsdae_leaf){IMP_LEAF(cx->in, e->dep[t]), 0};
    const nsdae_expr *rest, *sum = nsdae_expr_const(pool, 0.0);
    if (st == NSDAE_OK)
        st = nsdae_expr_affine(pool, e->expr, lv, nl, NULL, 0, NULL, 0, coef, &rest, err);
    for (int t = 0, l = 0; st == NSDAE_OK && t < e->ndep; t++) {
        if (!e->lin[t]) continue;
        if (e->nexp[t] + mu[e->dep[t]] == mf)
            sum = nsdae_expr_binary(pool, NSDAE_EXPR_ADD, sum,
                                    nsdae_expr_binary(pool, NSDAE_EXPR_MUL, coef[l],
                                                      nsdae_expr_var(pool, lv[l].var, 0)));
        l++;
    }
    free(lv);
    free(coef);
    if (st == NSDAE_OK && !sum) st = nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory");
    *out = sum;
    return st;
}

/* An Euler identity x - e^-n sum_i c_i z_i, rescaled: x_down if mu_x = mu_f, each z_i term if
 * n + mu_zi = mu_f (past z_i have mu = 0). */
static const nsdae_expr *rescale_euler(const imp_ctx *cx, const imp_array *a, const imp_aeq *e, const int *mu)
{
    nsdae_expr_pool *pool = cx->in->pool;
    int mf = imp_eq_mu(a, e, mu);
    const nsdae_expr *sum = nsdae_expr_const(pool, 0.0);
    if (mu[e->ex] == mf) sum = nsdae_expr_var(pool, IMP_LEAF(cx->in, e->ex), 0);
    for (int t = 0; t <= e->en; t++) {
        int z = e->ez[t];
        int zm = a->v[z].past ? 0 : mu[z];
        if (e->en + zm != mf) continue;
        const nsdae_expr *term = nsdae_expr_binary(pool, NSDAE_EXPR_MUL, nsdae_expr_const(pool, e->ecoef[t]),
                                                   nsdae_expr_var(pool, IMP_LEAF(cx->in, z), 0));
        sum = nsdae_expr_binary(pool, NSDAE_EXPR_SUB, sum, term);
    }
    return sum;
}

void imp_system_free(nsdae_impulse_system *s)
{
    if (!s) return;
    free(s->unk);
    free(s->unk_var);
    free(s->unk_order);
    free(s->unk_head);
    free(s->eq);
    free(s->jac);
    free(s->params);
    free(s->prev_d);
    free(s->unk_mu);
    for (int f = 0; f < s->nfacts; f++) free(s->fact_name[f]);
    free(s->fact);
    free(s->fact_name);
    free(s);
}

/* The facts of the array (model equations removed as entailed by the guard or by the previous mode),
 * once per model-level expression: the same equation at t* and t*+e is one check at the left limits.
 * Transient laws are not collected (they read pre() leaves, and a law proportional to the guard is
 * checked through the guard's own equation). */
static nsdae_status collect_facts(const imp_ctx *cx, const imp_array *a, nsdae_impulse_system *s, nsdae_error *err)
{
    s->fact = malloc((size_t)(a->ne ? a->ne : 1) * sizeof *s->fact);
    s->fact_name = calloc((size_t)(a->ne ? a->ne : 1), sizeof *s->fact_name);
    if (!s->fact || !s->fact_name) return nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory for the facts");
    for (int i = 0; i < a->ne; i++) {
        const imp_aeq *e = &a->e[i];
        if (!e->fact || e->kind != IMP_EQ_MODEL) continue;
        const nsdae_expr *f = cx->dnext[e->src * (cx->cmax + 1) + e->m];
        int seen = 0;
        for (int t = 0; t < s->nfacts && !seen; t++) seen = s->fact[t] == f;
        if (seen) continue;
        char name[256];
        imp_aeq_name(cx, a, e, name, sizeof name);
        if (!(s->fact_name[s->nfacts] = malloc(strlen(name) + 1)))
            return nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory for the facts");
        strcpy(s->fact_name[s->nfacts], name);
        s->fact[s->nfacts++] = f;
    }
    return NSDAE_OK;
}

nsdae_status imp_system_alloc(const imp_ctx *cx, const imp_array *a, int n, int extra_leaves,
                              nsdae_impulse_system **out, nsdae_error *err)
{
    nsdae_impulse_system *s = calloc(1, sizeof *s);
    size_t m = (size_t)(n ? n : 1);
    if (s) {
        s->unk = malloc(m * sizeof(int));
        s->unk_var = malloc(m * sizeof(int));
        s->unk_order = malloc(m * sizeof(int));
        s->unk_head = malloc(m * sizeof(int));
        s->eq = calloc(m, sizeof *s->eq);
        s->jac = calloc(m * m, sizeof *s->jac);
        s->params = malloc((size_t)(cx->in->nparams ? cx->in->nparams : 1) * sizeof(double));
        s->prev_d = malloc((size_t)cx->in->nvars * sizeof(int));
        s->unk_mu = malloc(m * sizeof(int));
    }
    if (!s || !s->unk || !s->unk_var || !s->unk_order || !s->unk_head || !s->eq || !s->jac || !s->params ||
        !s->prev_d || !s->unk_mu) {
        imp_system_free(s);
        return nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory for the restart system");
    }
    s->pool = cx->in->pool;
    s->nvars = cx->in->nvars;
    s->nleaf = IMP_LEAF(cx->in, a->nv) + extra_leaves;
    s->eps_var = -1;
    s->guard = cx->ell >= 0 ? cx->in->guard : NULL;
    s->K = a->K;
    memcpy(s->prev_d, cx->prev.d, (size_t)cx->in->nvars * sizeof(int));
    s->n = n;
    s->nparams = cx->in->nparams;
    if (cx->in->nparams) memcpy(s->params, cx->in->params, (size_t)cx->in->nparams * sizeof(double));
    nsdae_status st = collect_facts(cx, a, s, err);
    if (st != NSDAE_OK) {
        imp_system_free(s);
        return st;
    }
    *out = s;
    return NSDAE_OK;
}

void imp_system_set_unknown(nsdae_impulse_system *s, int r, const imp_array *a, int v, const int *mu)
{
    const imp_avar *x = &a->v[v];
    s->unk[r] = v, s->unk_var[r] = x->var, s->unk_order[r] = x->m, s->unk_head[r] = x->k < a->K;
    s->unk_mu[r] = mu ? mu[v] : -1;
}

nsdae_status imp_procedure(const imp_ctx *cx, const imp_array *a, const int *mu, const int *keep,
                           nsdae_impulse_system **out, nsdae_error *err)
{
    int n = 0;
    for (int i = 0; i < a->ne; i++)
        if (a->e[i].matched >= 0 && keep[a->e[i].matched]) n++;
    nsdae_impulse_system *s = NULL;
    nsdae_status st = imp_system_alloc(cx, a, n, 0, &s, err);
    if (st != NSDAE_OK) return st;
    rename_ctx rc = {cx, a};
    int r = 0;
    for (int i = 0; i < a->ne && st == NSDAE_OK; i++) {
        const imp_aeq *e = &a->e[i];
        if (e->matched < 0 || !keep[e->matched]) continue;
        const nsdae_expr *f = NULL;
        if (e->kind == IMP_EQ_EULER) f = rescale_euler(cx, a, e, mu);
        else st = rescale_model(cx, a, e, mu, &f, err);
        if (st == NSDAE_OK && !f) st = nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory");
        if (st == NSDAE_OK) st = imp_relabel(cx->in->pool, f, map_rename, &rc, &s->eq[r], err);
        imp_system_set_unknown(s, r++, a, e->matched, mu);
    }
    if (st == NSDAE_OK) st = imp_system_jacobian(cx, s, err);
    if (st != NSDAE_OK) imp_system_free(s);
    else *out = s;
    return st;
}

nsdae_status imp_system_jacobian(const imp_ctx *cx, nsdae_impulse_system *s, nsdae_error *err)
{
    int n = s->n;
    nsdae_status st = NSDAE_OK;
    for (int i = 0; i < n && st == NSDAE_OK; i++)
        for (int u = 0; u < n && st == NSDAE_OK; u++) {
            st = nsdae_expr_diff(cx->in->pool, s->eq[i], IMP_LEAF(cx->in, s->unk[u]), 0, &s->jac[i * n + u], err);
            if (st == NSDAE_OK && !s->nonlinear) {
                int *lv, nl;
                st = imp_leaves(s->jac[i * n + u], &lv, &nl, err);
                for (int t = 0; st == NSDAE_OK && t < nl; t++)
                    if (lv[2 * t] >= IMP_LEAF(cx->in, 0) && lv[2 * t] != s->eps_var) s->nonlinear = 1;
                if (st == NSDAE_OK) free(lv);
            }
        }
    return st;
}
