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

const nsdae_expr *nsdae_lag_bind(lctx *L, const nsdae_expr *e)
{
    const nsdae_expr *out = NULL;
    nsdae_error e2;
    if (L->st) return NULL;
    if (nsdae_expr_simplify(L->p, e, nsdae_model_param_values(L->m), nsdae_model_nparams(L->m), &out, &e2))
        nsdae_lag_nomem(L);
    return out;
}
