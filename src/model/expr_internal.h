/* Helpers shared by the expression files (not public). */
#ifndef NSDAE_MODEL_EXPR_INTERNAL_H
#define NSDAE_MODEL_EXPR_INTERNAL_H

#include <nsdae/model.h>

int nsdae_expr_is_binary(nsdae_expr_kind kind);
int nsdae_expr_is_unary(nsdae_expr_kind kind);
/* The numeric operation of a kind (b ignored for unary kinds). */
double nsdae_expr_apply(nsdae_expr_kind kind, double a, double b);

/* Short constructors used throughout (NULL-propagating like the public ones). */
#define X_ADD(p, a, b) nsdae_expr_binary((p), NSDAE_EXPR_ADD, (a), (b))
#define X_SUB(p, a, b) nsdae_expr_binary((p), NSDAE_EXPR_SUB, (a), (b))
#define X_MUL(p, a, b) nsdae_expr_binary((p), NSDAE_EXPR_MUL, (a), (b))
#define X_DIV(p, a, b) nsdae_expr_binary((p), NSDAE_EXPR_DIV, (a), (b))
#define X_POW(p, a, b) nsdae_expr_binary((p), NSDAE_EXPR_POW, (a), (b))
#define X_NEG(p, a) nsdae_expr_unary((p), NSDAE_EXPR_NEG, (a))
#define X_C(p, v) nsdae_expr_const((p), (v))

/* A leaf rewriting: returns the replacement of a leaf (CONST/PARAM/VAR/TIME) or NULL to keep it.
 * nsdae_expr_rebuild applies it bottom-up through the simplifying constructors, memoised on
 * node ids so that shared subexpressions are rebuilt once. Returns NULL on failure. */
typedef const nsdae_expr *(*nsdae_leaf_map)(nsdae_expr_pool *pool, const nsdae_expr *leaf, void *ctx);
const nsdae_expr *nsdae_expr_rebuild(nsdae_expr_pool *pool, const nsdae_expr *e, nsdae_leaf_map map, void *ctx);

/* The nodes reachable from a set of roots, each once, in increasing id order: children come
 * before their parents, so one forward pass over `nodes` evaluates or transforms the batch with
 * no recursion. slot[id] (for id <= max_id) is the position of node id in `nodes`, or -1. */
typedef struct nsdae_expr_closure {
    const nsdae_expr **nodes;
    int count;
    int *slot;
    int max_id;
} nsdae_expr_closure;

/* NULL roots are skipped. Returns 0 when out of memory (c is then empty). Cost O(max_id) memory
 * and time for the slot table plus O(count) for the walk. */
int nsdae_expr_closure_build(const nsdae_expr *const *roots, int nroots, nsdae_expr_closure *c);
void nsdae_expr_closure_free(nsdae_expr_closure *c);


/* Affine decomposition over a range of leaves, keeping only the leaves that occur: the form a
 * translation of n unknowns needs, where every row names a few of the 2n leaves and a slot per leaf
 * and row would cost O(n^2). Leaf index = var * norders + order for var < nvars, order < norders.
 * The work area (O(nvars norders) memory, made once) is reused by every call. */
typedef struct nsdae_affine_term {
    int leaf;
    const nsdae_expr *coef;
} nsdae_affine_term;
typedef struct nsdae_affine_work nsdae_affine_work;
nsdae_status nsdae_affine_work_create(int nvars, int norders, nsdae_affine_work **out, nsdae_error *err);
void nsdae_affine_work_destroy(nsdae_affine_work *w);
/* e = sum_i terms[i].coef * leaf(terms[i].leaf) + rest, each occurring leaf once (in no particular
 * order); the terms live in w until its next use. Errors as nsdae_expr_affine. Cost O(size of e x
 * its depth), independent of the number of leaves. */
nsdae_status nsdae_expr_affine_terms(nsdae_expr_pool *pool, const nsdae_expr *e, nsdae_affine_work *w,
                                     const char *const *var_names, int nvars, const nsdae_affine_term **terms,
                                     int *nterms, const nsdae_expr **rest, nsdae_error *err);


/* Node id -> pointer (NULL: absent), O(1) expected per operation and O(entries) memory whatever
 * the pool's size: the memo of a walk over a part of a large pool. Zero-initialise to start. */
typedef struct nsdae_id_map {
    int *keys;            /* -1: empty slot */
    const void **vals;
    size_t cap, n;        /* cap a power of two, n <= cap / 2 */
} nsdae_id_map;
/* 0 when out of memory (or id < 0). */
int nsdae_id_map_put(nsdae_id_map *m, int id, const void *v);
const void *nsdae_id_map_get(const nsdae_id_map *m, int id);
void nsdae_id_map_free(nsdae_id_map *m);

/* The reachable nodes of a closure (nodes, count) without the slot table: O(count log count)
 * whatever the pool's size (slot NULL, max_id the largest root id). The walks that rebuild or
 * differentiate one expression of a large pool use it. */
int nsdae_expr_closure_nodes(const nsdae_expr *const *roots, int nroots, nsdae_expr_closure *c);

#endif
