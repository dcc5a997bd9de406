/* The Sigma-method on one long mode of a mode change (Benveniste et al. 2026, section 3.2): offsets c
 * (equations), d (unknowns) and a transversal, through the structural stage's public analysis. Unknowns
 * that do not occur in the mode are left out of its signature matrix (d = -1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nsdae/structural.h>

#include "impulse/impulse_internal.h"

static char *dup_text(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p) memcpy(p, s, n);
    return p;
}

/* Fills sigma[i][col[j]] from the leaves of each residual; col[] numbers the occurring unknowns. */
static nsdae_status fill_sigma(const nsdae_impulse_input *in, const nsdae_impulse_eqs *eqs, const int *col,
                               nsdae_sigma *sg, nsdae_error *err)
{
    for (int i = 0; i < eqs->n; i++) {
        int *lv, nl;
        nsdae_status st = imp_leaves(eqs->residual[i], &lv, &nl, err);
        if (st != NSDAE_OK) return st;
        for (int t = 0; t < nl && st == NSDAE_OK; t++)
            if (lv[2 * t] < in->nvars) st = nsdae_sigma_raise(sg, i, col[lv[2 * t]], lv[2 * t + 1], err);
        free(lv);
        if (st != NSDAE_OK) return st;
    }
    return NSDAE_OK;
}

nsdae_status imp_mode_sigma_run(const nsdae_impulse_input *in, const nsdae_impulse_eqs *eqs, imp_mode_sigma *s,
                                nsdae_error *err)
{
    memset(s, 0, sizeof *s);
    int nv = in->nvars, ncol = 0;
    int *col = malloc((size_t)(nv ? nv : 1) * sizeof *col);
    s->c = calloc((size_t)(eqs->n ? eqs->n : 1), sizeof *s->c);
    s->match = calloc((size_t)(eqs->n ? eqs->n : 1), sizeof *s->match);
    s->d = malloc((size_t)(nv ? nv : 1) * sizeof *s->d);
    if (!col || !s->c || !s->match || !s->d) {
        free(col);
        return nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory for the Sigma-method");
    }
    /* 1. the unknowns that occur in the mode */
    for (int j = 0; j < nv; j++) col[j] = -1, s->d[j] = -1;
    for (int i = 0; i < eqs->n; i++)
        for (int j = 0; j < nv; j++)
            if (col[j] < 0 && nsdae_expr_max_order(eqs->residual[i], j) >= 0) col[j] = 0;
    for (int j = 0; j < nv; j++)
        if (col[j] == 0) col[j] = ncol++;
    /* 2. signature matrix and analysis */
    nsdae_sigma *sg = NULL;
    nsdae_structural_result *r = NULL;
    nsdae_status st = nsdae_sigma_create(eqs->n, ncol, &sg, err);
    if (st == NSDAE_OK) st = fill_sigma(in, eqs, col, sg, err);
    for (int i = 0; st == NSDAE_OK && i < eqs->n && eqs->name && eqs->name[i]; i++)
        st = nsdae_sigma_set_name(sg, 'e', i, eqs->name[i], err);
    for (int j = 0; st == NSDAE_OK && j < nv; j++)
        if (col[j] >= 0 && in->var_names) st = nsdae_sigma_set_name(sg, 'v', col[j], in->var_names[j], err);
    if (st == NSDAE_OK) st = nsdae_structural_analyze(sg, &r, err);
    /* 3. copy c, d, transversal back to the model's numbering */
    if (st == NSDAE_OK) {
        s->ok = r->verdict == NSDAE_STRUCTURAL_OK;
        if (!s->ok) {
            char buf[256];
            snprintf(buf, sizeof buf, "the mode is structurally %s (%d equations, %d unknowns): no finite transversal",
                     nsdae_structural_verdict_name(r->verdict), eqs->n, ncol);
            s->why = dup_text(buf);
            if (!s->why) st = nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory");
        } else {
            int *inv = malloc((size_t)(ncol ? ncol : 1) * sizeof *inv);
            if (!inv) st = nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory");
            for (int j = 0; inv && j < nv; j++)
                if (col[j] >= 0) inv[col[j]] = j, s->d[j] = r->d[col[j]];
            for (int i = 0; inv && i < eqs->n; i++) s->c[i] = r->c[i], s->match[i] = inv[r->transversal[i]];
            free(inv);
        }
    }
    nsdae_structural_result_destroy(r);
    nsdae_sigma_destroy(sg);
    free(col);
    return st;
}

void imp_mode_sigma_free(imp_mode_sigma *s)
{
    free(s->c);
    free(s->d);
    free(s->match);
    free(s->why);
    memset(s, 0, sizeof *s);
}
