/* Expression preparation for the MLCS: parameters bound, second-order derivatives reduced to
 * velocity unknowns, and the nonsmooth functions abs, min, max, sign replaced by multipliers
 * with complementarity or box rows (DESIGN.md section 3). Also the bookkeeping of unknowns and
 * set-valued rows (sites) shared by the other translation files. */
#include "translate/translate_internal.h"

#include "model/expr_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void nsdae_tr_fail(tctx *T, const nsdae_equation *eq, const char *fmt, ...)
{
    if (T->st) return;
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char *file = nsdae_model_filename(T->m);
    if (eq)
        T->st = nsdae_error_set(T->err, NSDAE_UNSUPPORTED, "%s:%d:%d: equation '%.120s': %s", file, eq->pos.line,
                                eq->pos.col, eq->text, msg);
    else
        T->st = nsdae_error_set(T->err, NSDAE_UNSUPPORTED, "%s: %s", file, msg);
}

void nsdae_tr_nomem(tctx *T)
{
    if (!T->st) T->st = nsdae_error_set(T->err, NSDAE_NOMEM, "translate: out of memory");
}

size_t nsdae_tr_print(tctx *T, const nsdae_expr *e, char *buf, size_t size)
{
    return nsdae_expr_print(e, (const char *const *)T->uname, T->nu, NULL, 0, buf, size);
}

int nsdae_tr_new_unknown(tctx *T, const char *name)
{
    if (T->nu == T->cap_u) {
        int cap = T->cap_u ? 2 * T->cap_u : 16;
        char **n = realloc(T->uname, (size_t)cap * sizeof *n);
        if (n) T->uname = n;
        int *s = realloc(T->u_site, (size_t)cap * sizeof *s);
        if (s) T->u_site = s;
        int *v = realloc(T->u_var, (size_t)cap * sizeof *v);
        if (v) T->u_var = v;
        int *w = realloc(T->u_of_vel, (size_t)cap * sizeof *w);
        if (w) T->u_of_vel = w;
        if (!n || !s || !v || !w) {
            nsdae_tr_nomem(T);
            return -1;
        }
        T->cap_u = cap;
    }
    /* Names are unique: a repeated construct name gets a #k suffix. */
    char buf[300];
    snprintf(buf, sizeof buf, "%s", name);
    for (int k = 2, clash = 1; clash; k++) {
        clash = 0;
        for (int u = 0; u < T->nu; u++)
            if (strcmp(T->uname[u], buf) == 0) clash = 1;
        if (clash) snprintf(buf, sizeof buf, "%s#%d", name, k);
    }
    T->uname[T->nu] = strdup(buf);
    if (!T->uname[T->nu]) {
        nsdae_tr_nomem(T);
        return -1;
    }
    T->u_site[T->nu] = -1;
    T->u_var[T->nu] = -1;
    T->u_of_vel[T->nu] = -1;
    return T->nu++;
}

int nsdae_tr_push_row(tctx *T, row_list *l, const nsdae_expr *r, const nsdae_equation *eq)
{
    if (!r) {
        nsdae_tr_nomem(T);
        return 0;
    }
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 16;
        row *v = realloc(l->v, (size_t)cap * sizeof *v);
        if (!v) {
            nsdae_tr_nomem(T);
            return 0;
        }
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = (row){r, eq};
    return 1;
}

static int mark_active(tctx *T, int s)
{
    phase_data *ph = &T->phases[T->cur];
    if (s >= ph->cap_active) {
        int cap = ph->cap_active ? 2 * ph->cap_active : 16;
        while (cap <= s) cap *= 2;
        unsigned char *a = realloc(ph->active, (size_t)cap);
        if (!a) {
            nsdae_tr_nomem(T);
            return 0;
        }
        memset(a + ph->cap_active, 0, (size_t)(cap - ph->cap_active));
        ph->active = a;
        ph->cap_active = cap;
    }
    ph->active[s] = 1;
    return 1;
}

int nsdae_tr_site(tctx *T, site_key key, const void *ptr, int a, int b, int c, nsdae_row_kind kind, double lo,
                  double hi, const nsdae_equation *eq, const char *lambda_name, int lambda)
{
    if (T->st) return -1;
    for (int s = 0; s < T->nsites; s++) {
        const site *x = &T->sites[s];
        if (x->key == key && x->key_ptr == ptr && x->key_a == a && x->key_b == b && x->key_c == c)
            return mark_active(T, s) ? s : -1;
    }
    if (T->nsites == T->cap_sites) {
        int cap = T->cap_sites ? 2 * T->cap_sites : 8;
        site *v = realloc(T->sites, (size_t)cap * sizeof *v);
        if (!v) {
            nsdae_tr_nomem(T);
            return -1;
        }
        T->sites = v;
        T->cap_sites = cap;
    }
    if (lambda < 0) lambda = nsdae_tr_new_unknown(T, lambda_name);
    if (lambda < 0) return -1;
    int s = T->nsites++;
    T->sites[s] = (site){key, ptr, a, b, c, kind, lo, hi, NULL, lambda, eq};
    T->u_site[lambda] = s;
    return mark_active(T, s) ? s : -1;
}

void nsdae_tr_set_site_w(tctx *T, int s, const nsdae_expr *w)
{
    if (!w) nsdae_tr_nomem(T);
    else T->sites[s].w = w;
}

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
    const nsdae_expr **memo;
    char arg[200], name[260]; /* here, not in the recursive frames: long chains recurse deeply */
} relax_ctx;

static const nsdae_expr *relax_rec(relax_ctx *c, const nsdae_expr *e)
{
    tctx *T = c->T;
    nsdae_expr_pool *p = T->p;
    if (!(e->flags & NSDAE_EXPR_HAS_VAR) || !(e->flags & NSDAE_EXPR_NONSMOOTH)) return e;
    if (c->memo[e->id]) return c->memo[e->id];
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
    c->memo[e->id] = r;
    return r;
}

const nsdae_expr *nsdae_tr_prepare(tctx *T, const nsdae_expr *e, const nsdae_equation *eq)
{
    if (T->st || !e) return NULL;
    const nsdae_expr *b = nsdae_tr_bind(T, e);
    if (!b) return NULL;
    for (int j = 0; j < T->nvars; j++)
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
    if (c) {
        c->T = T;
        c->eq = eq;
        c->memo = calloc((size_t)r->id + 1, sizeof(const nsdae_expr *));
    }
    if (!c || !c->memo) {
        free(c);
        nsdae_tr_nomem(T);
        return NULL;
    }
    const nsdae_expr *out = relax_rec(c, r);
    free(c->memo);
    free(c);
    if (!out) nsdae_tr_nomem(T);
    return T->st ? NULL : out;
}

int nsdae_tr_affine(tctx *T, const nsdae_expr *e, const nsdae_equation *eq, const nsdae_expr **coef,
                    const nsdae_expr **rest)
{
    nsdae_leaf *leaves = malloc((size_t)(2 * T->nu + 1) * sizeof *leaves);
    if (!leaves) {
        nsdae_tr_nomem(T);
        return 0;
    }
    for (int u = 0; u < T->nu; u++) {
        leaves[2 * u] = (nsdae_leaf){u, 0};
        leaves[2 * u + 1] = (nsdae_leaf){u, 1};
    }
    nsdae_error e2;
    nsdae_status st = nsdae_expr_affine(T->p, e, leaves, 2 * T->nu, (const char *const *)T->uname, T->nu, NULL, 0,
                                        coef, rest, &e2);
    free(leaves);
    if (st == NSDAE_UNSUPPORTED) nsdae_tr_fail(T, eq, "%s", e2.message);
    else if (st) nsdae_tr_nomem(T);
    return st == NSDAE_OK;
}
