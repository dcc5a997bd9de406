/* Walking a DAG without recursion. Node ids are a topological order (an operand is created, and
 * numbered, before any node that uses it), so the reachable nodes sorted by id can be processed in
 * one forward pass: this is the evaluation order of nsdae_expr_eval, of the symbolic
 * differentiation and of the expression tape. An explicit stack finds the reachable nodes, so an
 * expression nested 10^5 deep costs heap, not call stack. */
#include "model/expr_internal.h"

#include <math.h>
#include <stdlib.h>

int nsdae_expr_closure_build(const nsdae_expr *const *roots, int nroots, nsdae_expr_closure *c)
{
    c->nodes = NULL;
    c->slot = NULL;
    c->count = 0;
    c->max_id = -1;
    for (int k = 0; k < nroots; k++)
        if (roots[k] && roots[k]->id > c->max_id) c->max_id = roots[k]->id;
    size_t nid = (size_t)c->max_id + 1;
    const nsdae_expr **by_id = calloc(nid + 1, sizeof *by_id);
    size_t cap = (size_t)nroots + 16, top = 0;
    const nsdae_expr **stack = malloc(cap * sizeof *stack);
    if (!by_id || !stack) goto nomem;
    /* 1. Mark every reachable node in by_id (a node is pushed at most once per parent). */
    for (int k = 0; k < nroots; k++)
        if (roots[k]) stack[top++] = roots[k];
    while (top > 0) {
        const nsdae_expr *n = stack[--top];
        if (by_id[n->id]) continue;
        by_id[n->id] = n;
        c->count++;
        if (top + 2 > cap) {
            cap *= 2;
            const nsdae_expr **s2 = realloc(stack, cap * sizeof *s2);
            if (!s2) goto nomem;
            stack = s2;
        }
        if (n->a && !by_id[n->a->id]) stack[top++] = n->a;
        if (n->b && !by_id[n->b->id]) stack[top++] = n->b;
    }
    /* 2. Read them back in id order. */
    c->nodes = malloc(((size_t)c->count + 1) * sizeof *c->nodes);
    c->slot = malloc(nid * sizeof *c->slot + 1);
    if (!c->nodes || !c->slot) goto nomem;
    int k = 0;
    for (size_t id = 0; id < nid; id++) {
        c->slot[id] = by_id[id] ? k : -1;
        if (by_id[id]) c->nodes[k++] = by_id[id];
    }
    free(by_id);
    free(stack);
    return 1;
nomem:
    free(by_id);
    free(stack);
    nsdae_expr_closure_free(c);
    return 0;
}

void nsdae_expr_closure_free(nsdae_expr_closure *c)
{
    free(c->nodes);
    free(c->slot);
    c->nodes = NULL;
    c->slot = NULL;
    c->count = 0;
    c->max_id = -1;
}

static double leaf_value(const nsdae_expr *e, const nsdae_eval_env *env)
{
    switch (e->kind) {
    case NSDAE_EXPR_CONST: return e->value;
    case NSDAE_EXPR_PARAM:
        return env && env->params && e->index >= 0 && e->index < env->nparams ? env->params[e->index] : NAN;
    case NSDAE_EXPR_VAR:
        if (!env || !env->vars || e->index < 0 || e->index >= env->nvars || e->order < 0 ||
            e->order > env->max_order)
            return NAN;
        return env->vars[(size_t)e->order * (size_t)env->nvars + (size_t)e->index];
    case NSDAE_EXPR_TIME: return env ? env->time : NAN;
    default: return NAN;
    }
}

/* One forward pass over the closure; each shared subexpression is evaluated once. */
double nsdae_expr_eval(const nsdae_expr *e, const nsdae_eval_env *env)
{
    if (!e) return NAN;
    if (!e->a) return leaf_value(e, env);
    nsdae_expr_closure c;
    if (!nsdae_expr_closure_build(&e, 1, &c)) return NAN;
    double *w = malloc((size_t)c.count * sizeof *w);
    double r = NAN;
    if (w) {
        for (int k = 0; k < c.count; k++) {
            const nsdae_expr *n = c.nodes[k];
            if (!n->a) {
                w[k] = leaf_value(n, env);
                continue;
            }
            double b = n->b ? w[c.slot[n->b->id]] : 0.0;
            w[k] = nsdae_expr_apply(n->kind, w[c.slot[n->a->id]], b);
        }
        r = w[c.count - 1]; /* the root has the largest id */
    }
    free(w);
    nsdae_expr_closure_free(&c);
    return r;
}
