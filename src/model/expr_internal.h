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

#endif
