/* What every file of the Lagrangian translation shares through its context (lagrangian_internal.h):
 * the first failure, located at an equation or a variable, and parameter binding. Apart from the
 * driver (translate_lagrangian.c) so that the step files do not depend on the file that calls them. */
#include "translate/lagrangian_internal.h"

#include "translate/equation_error.h"

#include <stdarg.h>
#include <stdio.h>

void nsdae_lag_fail(lctx *L, nsdae_status st, const nsdae_equation *eq, const char *fmt, ...)
{
    if (L->st) return;
    va_list ap;
    va_start(ap, fmt);
    L->st = translate_equation_error(L->err, st, L->m, eq, fmt, ap);
    va_end(ap);
}

/* The first equation that uses variable v at order o, or NULL. */
static const nsdae_equation *first_use(const nsdae_model *m, int v, int o)
{
    for (int k = 0; k < nsdae_model_nequations(m); k++) {
        const nsdae_equation *q = nsdae_model_equation(m, k);
        const nsdae_expr *e[4] = {q->residual, q->a, q->b, q->arg};
        for (int i = 0; i < 4; i++)
            if (e[i] && nsdae_expr_max_order(e[i], v) == o) return q;
        if (q->kind == NSDAE_EQ_SIGN && q->var == v && o == 0) return q;
    }
    return NULL;
}

void nsdae_lag_fail_var(lctx *L, int var, const char *fmt, ...)
{
    if (L->st) return;
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const nsdae_var *x = nsdae_model_var(L->m, var);
    const nsdae_equation *q = x->max_order >= 0 ? first_use(L->m, var, x->max_order) : NULL;
    if (q)
        nsdae_lag_fail(L, NSDAE_UNSUPPORTED, q, "'%s' is %s", x->name, msg);
    else
        L->st = nsdae_error_set(L->err, NSDAE_UNSUPPORTED, "%s:%d:%d: variable '%s': %s", nsdae_model_filename(L->m),
                                x->pos.line, x->pos.col, x->name, msg);
}

void nsdae_lag_nomem(lctx *L)
{
    if (!L->st) L->st = nsdae_error_set(L->err, NSDAE_NOMEM, "translate: out of memory");
}

/* e with its parameters replaced by their values, rebuilt through the simplifying constructors
 * (what nsdae_expr_simplify does), by a walk of e's tree: *budget bounds the nodes visited (a
 * subexpression shared by several paths is visited once per path); NULL when it runs out or on a
 * pool failure. */
static const nsdae_expr *bind_tree(lctx *L, const nsdae_expr *e, long *budget)
{
    if (--*budget < 0) return NULL;
    if (!e->a && e->kind != NSDAE_EXPR_PARAM) return e; /* constants, variables, time */
    if (e->kind == NSDAE_EXPR_PARAM) {
        if (e->index < 0 || e->index >= nsdae_model_nparams(L->m)) return NULL;
        return nsdae_expr_const(L->p, nsdae_model_param_values(L->m)[e->index]);
    }
    const nsdae_expr *a = e->a ? bind_tree(L, e->a, budget) : NULL;
    if (!a) return NULL;
    if (!e->b) return nsdae_expr_unary(L->p, e->kind, a);
    const nsdae_expr *b = bind_tree(L, e->b, budget);
    return b ? nsdae_expr_binary(L->p, e->kind, a, b) : NULL;
}

const nsdae_expr *nsdae_lag_bind(lctx *L, const nsdae_expr *e)
{
    const nsdae_expr *out = NULL;
    nsdae_error e2;
    if (L->st) return NULL;
    /* An equation or a gap is a few nodes; nsdae_expr_simplify costs O(pool size) (a memo by node
     * id), and binding each of the 2000 expressions of a 1000-bead column through it was most of
     * the translation. Larger trees (or a failure) take the general route. */
    long budget = 4096;
    if ((out = bind_tree(L, e, &budget)) != NULL) return out;
    if (nsdae_expr_simplify(L->p, e, nsdae_model_param_values(L->m), nsdae_model_nparams(L->m), &out, &e2))
        nsdae_lag_nomem(L);
    return out;
}
