/* Walking a DAG without recursion. Node ids are a topological order (an operand is created, and
 * numbered, before any node that uses it), so the reachable nodes sorted by id can be processed in
 * one forward pass: the order of the symbolic differentiation, the rebuilding transforms and the
 * expression tape. nsdae_expr_eval walks the tree with explicit stacks instead. Either way an
 * expression nested 10^5 deep costs heap, not call stack. */
#include "model/expr_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

static int cmp_id(const void *a, const void *b)
{
    int x = (*(const nsdae_expr *const *)a)->id, y = (*(const nsdae_expr *const *)b)->id;
    return x < y ? -1 : x > y;
}

int nsdae_expr_closure_nodes(const nsdae_expr *const *roots, int nroots, nsdae_expr_closure *c)
{
    c->nodes = NULL;
    c->slot = NULL;
    c->count = 0;
    c->max_id = -1;
    nsdae_id_map seen = {NULL, NULL, 0, 0};
    size_t cap = (size_t)nroots + 16, top = 0, ncap = 16;
    const nsdae_expr **stack = malloc(cap * sizeof *stack);
    const nsdae_expr **nodes = malloc(ncap * sizeof *nodes);
    if (!stack || !nodes) goto nomem;
    for (int k = 0; k < nroots; k++)
        if (roots[k]) {
            stack[top++] = roots[k];
            if (roots[k]->id > c->max_id) c->max_id = roots[k]->id;
        }
    while (top > 0) {
        const nsdae_expr *n = stack[--top];
        if (nsdae_id_map_get(&seen, n->id)) continue;
        if (!nsdae_id_map_put(&seen, n->id, n)) goto nomem;
        if ((size_t)c->count == ncap) {
            ncap *= 2;
            const nsdae_expr **v = realloc(nodes, ncap * sizeof *v);
            if (!v) goto nomem;
            nodes = v;
        }
        nodes[c->count++] = n;
        if (top + 2 > cap) {
            cap *= 2;
            const nsdae_expr **s2 = realloc(stack, cap * sizeof *s2);
            if (!s2) goto nomem;
            stack = s2;
        }
        if (n->a && !nsdae_id_map_get(&seen, n->a->id)) stack[top++] = n->a;
        if (n->b && !nsdae_id_map_get(&seen, n->b->id)) stack[top++] = n->b;
    }
    qsort(nodes, (size_t)c->count, sizeof *nodes, cmp_id); /* ids are a topological order */
    c->nodes = nodes;
    free(stack);
    nsdae_id_map_free(&seen);
    return 1;
nomem:
    free(stack);
    free(nodes);
    nsdae_id_map_free(&seen);
    c->count = 0;
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

/* A post-order walk with explicit stacks (frames and operand values), the order of the former
 * recursive evaluation: the cost is that of the tree (a shared subexpression is walked once per
 * use, which the tape avoids) and needs no table sized by the pool, so evaluating one expression
 * of a large model stays cheap; the stacks grow on the heap past SMALL levels. */
enum { SMALL = 128 };

typedef struct frame {
    const nsdae_expr *e;
    int state; /* operands pushed so far: 0, 1 (a), 2 (a and b) */
} frame;

static int grow(void **buf, void *small, size_t *cap, size_t elem)
{
    size_t ncap = 2 * *cap;
    void *n = *buf == small ? malloc(ncap * elem) : realloc(*buf, ncap * elem);
    if (!n) return 0;
    if (*buf == small) memcpy(n, small, *cap * elem);
    *buf = n;
    *cap = ncap;
    return 1;
}

double nsdae_expr_eval(const nsdae_expr *e, const nsdae_eval_env *env)
{
    if (!e) return NAN;
    frame fsmall[SMALL];
    double vsmall[SMALL];
    frame *fr = fsmall;
    double *val = vsmall;
    size_t fcap = SMALL, vcap = SMALL, top = 0, nv = 0;
    double r = NAN;
    fr[top++] = (frame){e, 0};
    while (top > 0) {
        frame *f = &fr[top - 1];
        const nsdae_expr *n = f->e;
        const nsdae_expr *next = f->state == 0 ? n->a : f->state == 1 ? n->b : NULL;
        if (next) {
            f->state++;
            if (top == fcap && !grow((void **)&fr, fsmall, &fcap, sizeof *fr)) goto done;
            fr[top++] = (frame){next, 0};
            continue;
        }
        if (nv + 1 >= vcap && !grow((void **)&val, vsmall, &vcap, sizeof *val)) goto done;
        if (!n->a) {
            val[nv++] = leaf_value(n, env);
        } else {
            double b = n->b ? val[--nv] : 0.0;
            double a = val[--nv];
            val[nv++] = nsdae_expr_apply(n->kind, a, b);
        }
        top--;
    }
    r = val[0];
done:
    if (fr != fsmall) free(fr);
    if (val != vsmall) free(val);
    return r;
}
