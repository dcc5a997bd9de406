/* Model IR -> Lagrangian contact form (translate_lagrangian.h): classification of the variables
 * and contacts (lagrangian_classify.c), equations of motion (lagrangian_motion.c), then the system
 * with its owned callbacks (lagrangian_eval.c). This file holds the driver and the messages. */
#include "translate/lagrangian_internal.h"

#include "translate/equation_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

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

int nsdae_translate_has_impact_law(const nsdae_model *m)
{
    for (int k = 0; m && k < nsdae_model_nequations(m); k++) {
        const nsdae_equation *q = nsdae_model_equation(m, k);
        if (q->kind == NSDAE_EQ_COMPL && q->restitution) return 1;
    }
    return 0;
}

static void lctx_free(lctx *L)
{
    for (int c = 0; L->contacts && c < L->ncontacts; c++) free(L->contacts[c].grad);
    free(L->contacts);
    free(L->coord); free(L->coord_of_var); free(L->contact_of_var);
    free(L->motion); free(L->mass); free(L->force);
}

/* Sizes, start values, restitutions, names and defaults of the finished system. */
static nsdae_lagrangian *assemble(lctx *L)
{
    nsdae_lagrangian *s = NULL;
    nsdae_error e2;
    if (nsdae_lagrangian_create(L->ndof, L->ncontacts, &s, &e2) != NSDAE_OK) {
        nsdae_lag_nomem(L);
        return NULL;
    }
    int ok = 1;
    for (int j = 0; j < L->ndof && ok; j++) {
        int v = L->coord[j];
        s->q0[j] = nsdae_model_start_value(L->m, v, 0);
        s->v0[j] = nsdae_model_start_value(L->m, v, 1);
        ok = nsdae_lagrangian_set_name(s, 'q', j, nsdae_model_var(L->m, v)->name, &e2) == NSDAE_OK;
    }
    for (int c = 0; c < L->ncontacts && ok; c++) {
        s->restitution[c] = L->contacts[c].e;
        ok = nsdae_lagrangian_set_name(s, 'c', c, nsdae_model_var(L->m, L->contacts[c].var)->name, &e2) == NSDAE_OK;
    }
    if (!ok) nsdae_lag_nomem(L);
    const nsdae_experiment *x = nsdae_model_experiment(L->m);
    s->stop_time = x->stop;
    s->step = x->step;
    if (ok && nsdae_lag_install(L, s) && nsdae_lagrangian_validate(s, &e2) != NSDAE_OK)
        nsdae_lag_fail(L, NSDAE_UNSUPPORTED, NULL, "the translated Lagrangian system is invalid: %s", e2.message);
    if (L->st) {
        nsdae_lagrangian_destroy(s);
        return NULL;
    }
    return s;
}

nsdae_status nsdae_translate_lagrangian(const nsdae_model *m, nsdae_lagrangian **out, nsdae_error *err)
{
    if (!out) return nsdae_error_set(err, NSDAE_INVALID_INPUT, "translate: no output");
    *out = NULL;
    if (!m) return nsdae_error_set(err, NSDAE_INVALID_INPUT, "translate: no model");
    lctx L = {0};
    L.m = m;
    L.p = nsdae_model_pool(m);
    L.err = err;
    L.nvars = nsdae_model_nvars(m);
    size_t nv = (size_t)L.nvars + 1;
    L.coord = malloc(nv * sizeof *L.coord);
    L.coord_of_var = malloc(nv * sizeof *L.coord_of_var);
    L.contact_of_var = malloc(nv * sizeof *L.contact_of_var);
    L.motion = calloc(nv, sizeof *L.motion);
    L.mass = calloc(nv * nv, sizeof *L.mass);
    L.force = calloc(nv, sizeof *L.force);
    if (!L.coord || !L.coord_of_var || !L.contact_of_var || !L.motion || !L.mass || !L.force) {
        nsdae_lag_nomem(&L);
    } else {
        for (int v = 0; v < L.nvars; v++) L.coord_of_var[v] = L.contact_of_var[v] = -1;
        if (nsdae_lag_classify(&L) && nsdae_lag_motion(&L)) *out = assemble(&L);
    }
    if (!L.st && nsdae_expr_pool_failed(L.p)) nsdae_lag_nomem(&L);
    if (L.st && *out) {
        nsdae_lagrangian_destroy(*out);
        *out = NULL;
    }
    nsdae_status st = L.st;
    lctx_free(&L);
    return st;
}
