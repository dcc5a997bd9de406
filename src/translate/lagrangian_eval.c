/* The callbacks of a translated Lagrangian system and the context they own: M, F, g and G as
 * expressions copied into a private pool, with the model's variable indices renumbered so that
 * coordinate j is variable j (order 0: q_j, order 1: der(q_j)). The copy is what lets the system
 * outlive the model (translate_lagrangian.h). */
#include "translate/lagrangian_internal.h"

#include "model/expr_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct lag_eval {
    nsdae_expr_pool *pool;
    int ndof, ncontacts;
    const nsdae_expr **mass;   /* ndof x ndof column-major */
    const nsdae_expr **force;  /* ndof */
    const nsdae_expr **gap;    /* ncontacts */
    const nsdae_expr **jac;    /* ncontacts x ndof column-major */
    double *qv;                /* 2 ndof: q then v, the layout nsdae_expr_eval wants for forces */
} lag_eval;

static void lag_eval_free(void *p)
{
    lag_eval *c = p;
    if (!c) return;
    nsdae_expr_pool_destroy(c->pool);
    free(c->mass); free(c->force); free(c->gap); free(c->jac); free(c->qv);
    free(c);
}

/* Writes n values; a non-finite one (a domain error in the model) fails the callback. */
static int eval_all(const nsdae_expr *const *e, int n, const nsdae_eval_env *env, double *out)
{
    for (int k = 0; k < n; k++) {
        out[k] = nsdae_expr_eval(e[k], env);
        if (!isfinite(out[k])) return 1;
    }
    return 0;
}

static int cb_mass(const double *q, double *M, void *p)
{
    const lag_eval *c = p;
    nsdae_eval_env env = {NULL, 0, q, c->ndof, 0, 0.0};
    return eval_all(c->mass, c->ndof * c->ndof, &env, M);
}

static int cb_forces(double t, const double *q, const double *v, double *F, void *p)
{
    lag_eval *c = p;
    memcpy(c->qv, q, (size_t)c->ndof * sizeof *q);
    memcpy(c->qv + c->ndof, v, (size_t)c->ndof * sizeof *v);
    nsdae_eval_env env = {NULL, 0, c->qv, c->ndof, 1, t};
    return eval_all(c->force, c->ndof, &env, F);
}

static int cb_gaps(const double *q, double *g, void *p)
{
    const lag_eval *c = p;
    nsdae_eval_env env = {NULL, 0, q, c->ndof, 0, 0.0};
    return eval_all(c->gap, c->ncontacts, &env, g);
}

static int cb_jacobian(const double *q, double *G, void *p)
{
    const lag_eval *c = p;
    nsdae_eval_env env = {NULL, 0, q, c->ndof, 0, 0.0};
    return eval_all(c->jac, c->ncontacts * c->ndof, &env, G);
}

/* ---- the copy ---------------------------------------------------------------------------- */

typedef struct copy_ctx {
    const lctx *L;
    int bad;                   /* a leaf with no place in the copy (never, after classification) */
} copy_ctx;

/* Every leaf is recreated in the destination pool, so nsdae_expr_rebuild (which builds inner
 * nodes in the pool it is given) produces an expression entirely inside that pool. */
static const nsdae_expr *copy_leaf(nsdae_expr_pool *dst, const nsdae_expr *leaf, void *p)
{
    copy_ctx *cc = p;
    switch (leaf->kind) {
    case NSDAE_EXPR_CONST: return nsdae_expr_const(dst, leaf->value);
    case NSDAE_EXPR_TIME: return nsdae_expr_time(dst);
    case NSDAE_EXPR_VAR:
        if (leaf->index >= 0 && leaf->index < cc->L->nvars && cc->L->coord_of_var[leaf->index] >= 0 &&
            leaf->order <= 1)
            return nsdae_expr_var(dst, cc->L->coord_of_var[leaf->index], leaf->order);
        break;
    default: break; /* parameters were bound before */
    }
    cc->bad = 1;
    return nsdae_expr_const(dst, NAN);
}

static int copy_all(lctx *L, lag_eval *c, const nsdae_expr *const *src, const nsdae_expr **dst, int n)
{
    copy_ctx cc = {L, 0};
    for (int k = 0; k < n; k++) {
        dst[k] = nsdae_expr_rebuild(c->pool, src[k], copy_leaf, &cc);
        if (!dst[k] || nsdae_expr_pool_failed(c->pool)) {
            nsdae_lag_nomem(L);
            return 0;
        }
        if (cc.bad) {
            nsdae_lag_fail(L, NSDAE_UNSUPPORTED, NULL, "internal: an expression of the Lagrangian form uses a "
                                                       "leaf other than positions, velocities and time");
            return 0;
        }
    }
    return 1;
}

int nsdae_lag_install(lctx *L, nsdae_lagrangian *s)
{
    const int n = L->ndof, nc = L->ncontacts;
    lag_eval *c = calloc(1, sizeof *c);
    const nsdae_expr **gap = malloc(((size_t)nc + 1) * sizeof *gap);
    const nsdae_expr **jac = malloc(((size_t)nc * n + 1) * sizeof *jac);
    nsdae_error e2;
    if (!c || !gap || !jac || nsdae_expr_pool_create(&c->pool, &e2) != NSDAE_OK) goto nomem;
    c->ndof = n;
    c->ncontacts = nc;
    c->mass = malloc((size_t)n * n * sizeof *c->mass);
    c->force = malloc((size_t)n * sizeof *c->force);
    c->gap = malloc(((size_t)nc + 1) * sizeof *c->gap);
    c->jac = malloc(((size_t)nc * n + 1) * sizeof *c->jac);
    c->qv = malloc(2 * (size_t)n * sizeof *c->qv);
    if (!c->mass || !c->force || !c->gap || !c->jac || !c->qv) goto nomem;
    for (int k = 0; k < nc; k++) {
        gap[k] = L->contacts[k].gap;
        for (int j = 0; j < n; j++) jac[k + (size_t)j * nc] = L->contacts[k].grad[j];
    }
    if (!copy_all(L, c, L->mass, c->mass, n * n) || !copy_all(L, c, L->force, c->force, n) ||
        !copy_all(L, c, gap, c->gap, nc) || !copy_all(L, c, jac, c->jac, nc * n))
        goto fail;
    /* constant M: no leaf left in any entry (the stepper then factors it once) */
    s->mass_constant = 1;
    for (int k = 0; k < n * n; k++)
        if (c->mass[k]->flags & NSDAE_EXPR_HAS_VAR) s->mass_constant = 0;
    s->mass = cb_mass;
    s->forces = cb_forces;
    s->gaps = cb_gaps;
    s->gap_jacobian = cb_jacobian;
    s->ctx = c;
    s->ctx_free = lag_eval_free;
    free(gap);
    free(jac);
    return 1;
nomem:
    nsdae_lag_nomem(L);
fail:
    lag_eval_free(c);
    free(gap);
    free(jac);
    return 0;
}
