/* Model IR -> Lagrangian contact form (translate_lagrangian.h): classification of the variables
 * and contacts (lagrangian_classify.c), equations of motion (lagrangian_motion.c), then the system
 * with its owned callbacks (lagrangian_eval.c). This file holds the driver; the failure messages
 * and parameter binding every step uses are in lagrangian_context.c. */
#include "translate/lagrangian_internal.h"
#include "translate/experiment.h"

#include <stdlib.h>

int nsdae_translate_has_impact_law(const nsdae_model *m)
{
    for (int k = 0; m && k < nsdae_model_nequations(m); k++) {
        const nsdae_equation *q = nsdae_model_equation(m, k);
        if (q->kind == NSDAE_EQ_COMPL && (q->restitution || q->friction)) return 1;
    }
    return 0;
}

static void lctx_free(lctx *L)
{
    nsdae_lag_rows_free(&L->grad);
    nsdae_lag_rows_free(&L->mass);
    free(L->contacts); free(L->fric);
    free(L->coord); free(L->coord_of_var); free(L->contact_of_var);
    free(L->motion); free(L->force); free(L->points);
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
        s->friction[c] = L->contacts[c].mu;
        ok = nsdae_lagrangian_set_name(s, 'c', c, nsdae_model_var(L->m, L->contacts[c].var)->name, &e2) == NSDAE_OK;
    }
    if (!ok) nsdae_lag_nomem(L);
    nsdae_tr_experiment_defaults(L->m, &s->stop_time, &s->step, s->scheme, &s->theta, &s->gamma);
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
    nsdae_status fst = nsdae_model_check_finite(m, err);
    if (fst != NSDAE_OK) return fst;
    lctx L = {0};
    L.m = m;
    L.err = err;
    /* the system keeps no expression: what translation builds dies with L.p (its tapes are copies) */
    nsdae_status pst = nsdae_expr_pool_create_over(nsdae_model_pool(m), &L.p, err);
    if (pst != NSDAE_OK) return pst;
    L.nvars = nsdae_model_nvars(m);
    size_t nv = (size_t)L.nvars + 1;
    L.coord = malloc(nv * sizeof *L.coord);
    L.coord_of_var = malloc(nv * sizeof *L.coord_of_var);
    L.contact_of_var = malloc(nv * sizeof *L.contact_of_var);
    L.motion = calloc(nv, sizeof *L.motion);
    L.force = calloc(nv, sizeof *L.force);
    if (!L.coord || !L.coord_of_var || !L.contact_of_var || !L.motion || !L.force) {
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
    nsdae_expr_pool_destroy(L.p);
    return st;
}
