/* One height K of the analysis: redundant laws (D8), the covering matching (D2, D3), the impulse
 * orders (D4) and goodness (124) (D5) and (125) (D6, with Corollary 1's partial restart). Sets
 * r->verdict and the diagnostics; keep[v] marks the dependent variables the restart determines. */
#include <stdlib.h>
#include <string.h>

#include "impulse/impulse_diag.h"
#include "impulse/impulse_internal.h"

#define NOMEM(err) nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory")

/* D8: a law equation equal, up to a constant factor, to a must-enable equation of the tail is
 * discarded (fused), and equality must be checked at run time when not syntactic. */
static nsdae_status drop_redundant_laws(imp_ctx *cx, imp_array *a, nsdae_impulse_result *r, nsdae_error *err)
{
    for (int i = 0; i < a->ne; i++) {
        imp_aeq *law = &a->e[i];
        if (law->kind != IMP_EQ_LAW || law->fact) continue;
        for (int k = 0; k < a->ne; k++) {
            imp_aeq *e = &a->e[k];
            if (e->kind != IMP_EQ_MODEL || !e->tail || !e->ena || e->fact) continue;
            if (!imp_proportional(cx->in, law->expr, e->expr, IMP_LEAF(cx->in, a->nv))) continue;
            law->fact = 1;
            nsdae_impulse_diag *d = imp_diag_add(r, "D8", "the hot-restart law is redundant with a must-enable "
                                                 "equation of the new mode: discarded%s",
                                                 law->expr == e->expr ? "" : " (equal up to a constant factor "
                                                 "here; check their values agree at run time)");
            if (!d || imp_diag_eq(cx, a, d, i) || imp_diag_eq(cx, a, d, k)) return NOMEM(err);
            break;
        }
    }
    return NSDAE_OK;
}

/* Names equation i and its dependent variables in d. */
static int diag_eq_and_vars(imp_ctx *cx, imp_array *a, nsdae_impulse_diag *d, int i)
{
    if (imp_diag_eq(cx, a, d, i)) return -1;
    for (int t = 0; t < a->e[i].ndep; t++)
        if (imp_diag_var(cx, a, d, a->e[i].dep[t])) return -1;
    return 0;
}

static nsdae_status report_conflict(imp_ctx *cx, imp_array *a, const int *var_match, int bad,
                                    nsdae_impulse_result *r, nsdae_error *err)
{
    imp_aeq *e = &a->e[bad];
    nsdae_impulse_diag *d;
    r->verdict = NSDAE_IMPULSE_INCONSISTENT;
    if (e->ndep == 0)
        d = imp_diag_add(r, "D3", "a must-enable equation involves only variables fixed by the previous mode, is "
                         "not a fact of the guard and not entailed by the previous mode: it is violated at the "
                         "mode change (inconsistent specification)");
    else
        d = imp_diag_add(r, "D3", "must-enable equations conflict (over-determined): they cannot all be enabled; "
                         "augmenting the array will not change this");
    if (!d || imp_diag_eq(cx, a, d, bad)) return NOMEM(err);
    /* the over-determined part: alternating paths equation -> its variables -> their equations */
    char *in_part = calloc((size_t)a->ne + 1, 1);
    if (!in_part) return NOMEM(err);
    in_part[bad] = 1;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 0; i < a->ne; i++) {
            if (!in_part[i]) continue;
            for (int t = 0; t < a->e[i].ndep; t++) {
                int q = var_match[a->e[i].dep[t]];
                if (q >= 0 && !in_part[q]) in_part[q] = 1, changed = 1;
            }
        }
    }
    nsdae_status st = NSDAE_OK;
    for (int i = 0; i < a->ne && st == NSDAE_OK; i++)
        if (in_part[i] && diag_eq_and_vars(cx, a, d, i)) st = NOMEM(err);
    free(in_part);
    return st;
}

static nsdae_status report_unmatched(imp_ctx *cx, imp_array *a, const int *var_match, nsdae_impulse_result *r,
                                     nsdae_error *err)
{
    r->verdict = NSDAE_IMPULSE_UNDERDETERMINED;
    nsdae_impulse_diag *d = imp_diag_add(r, "D2", "under-determined mode change: a dependent variable cannot be "
                                         "matched, further augmenting the array height will not solve this; add a "
                                         "hot-restart constraint (impact law)");
    int *under = calloc((size_t)a->nv + 1, sizeof *under);
    if (!d || !under) {
        free(under);
        return NOMEM(err);
    }
    /* the DM under-determined part: every variable an unmatched one reaches by alternating paths */
    imp_under_part(a, var_match, under);
    nsdae_status st = NSDAE_OK;
    for (int v = 0; v < a->nv && st == NSDAE_OK; v++)
        if (under[v] && imp_diag_var(cx, a, d, v)) st = NOMEM(err);
    for (int i = 0; i < a->ne && st == NSDAE_OK; i++)
        if (a->e[i].matched >= 0 && under[a->e[i].matched] && imp_diag_eq(cx, a, d, i)) st = NOMEM(err);
    free(under);
    return st;
}

static nsdae_status report_infinite(imp_ctx *cx, imp_array *a, const int *inf, int bad_eq,
                                    nsdae_impulse_result *r, nsdae_error *err)
{
    r->verdict = NSDAE_IMPULSE_NOT_RESCALABLE;
    nsdae_impulse_diag *d = imp_diag_add(r, "D4", "not rescalable: an impulsive variable occurs inside a nonlinear "
                                         "term (or the impulse orders are infinite); the brute-force array with a "
                                         "small e may still apply");
    if (!d) return NOMEM(err);
    if (bad_eq >= 0 && diag_eq_and_vars(cx, a, d, bad_eq)) return NOMEM(err);
    for (int v = 0; v < a->nv; v++)
        if (inf[v] && imp_diag_var(cx, a, d, v)) return NOMEM(err);
    return NSDAE_OK;
}

/* (125): a rescaled impulsive head derivative must expand inside the array. Offenders are
 * unmatched (Corollary 1); the DM under-determined part they reach is then not determined, and
 * keep[v] marks the rest (whose impulse orders do not depend on the removed equations: each
 * equation only bounds its own matched variable). */
static nsdae_status check_expansion(imp_ctx *cx, imp_array *a, int *var_match, const int *mu, int *keep,
                                    nsdae_impulse_result *r, nsdae_error *err)
{
    nsdae_impulse_diag *d = NULL;
    for (int v = 0; v < a->nv; v++) {
        imp_avar *x = &a->v[v];
        if (x->past || x->k >= a->K || mu[v] <= 0) continue;
        int n = mu[v] < x->m ? mu[v] : x->m;
        if (imp_find_avar(a, x->var, x->m - n, x->k + n) >= 0) continue;
        if (!d) d = imp_diag_add(r, "D6", "only a partial restart: an impulsive derivative would need a variable "
                                 "beyond the last instant (125); the states reached from it are not determined");
        if (!d || imp_diag_var(cx, a, d, v) || (var_match[v] >= 0 && imp_diag_eq(cx, a, d, var_match[v])))
            return NOMEM(err);
        if (var_match[v] >= 0) a->e[var_match[v]].matched = -1;
        var_match[v] = -1;
    }
    if (d) r->verdict = NSDAE_IMPULSE_PARTIAL;
    imp_under_part(a, var_match, keep);
    for (int v = 0; v < a->nv; v++) keep[v] = !a->v[v].past && !keep[v] && var_match[v] >= 0;
    return NSDAE_OK;
}

/* Impulse orders, then (125) with Corollary 1, (130) and (124) on the determined part. */
static nsdae_status check_offsets(imp_ctx *cx, imp_array *a, int *var_match, int *inf, int *mu, int *keep,
                                  nsdae_impulse_result *r, nsdae_error *err)
{
    int bad_eq;
    if (imp_offsets(a, mu, inf)) {
        for (int v = 0; v < a->nv; v++) keep[v] = !a->v[v].past && var_match[v] >= 0;
        return report_infinite(cx, a, inf, -1, r, err);
    }
    nsdae_status st = check_expansion(cx, a, var_match, mu, keep, r, err);
    if (st == NSDAE_OK && imp_check_nonlinear(a, mu, keep, &bad_eq)) return report_infinite(cx, a, inf, bad_eq, r, err);
    nsdae_impulse_diag *d = NULL;
    for (int v = 0; v < a->nv && st == NSDAE_OK; v++) {
        if (!keep[v] || a->v[v].k != a->K || mu[v] == 0) continue;
        if (!d) d = imp_diag_add(r, "D5", "a restart variable would be impulsive (124): no hot restart, the "
                                 "model needs an explicit reset");
        if (!d || imp_diag_var(cx, a, d, v)) st = NOMEM(err);
    }
    if (d) r->verdict = NSDAE_IMPULSE_IMPULSIVE_STATE;
    return st;
}

nsdae_status imp_try_height(imp_ctx *cx, int K, nsdae_impulse_result *r, imp_array *a, int *mu, int *keep,
                            nsdae_error *err)
{
    r->height = K;
    r->verdict = NSDAE_IMPULSE_OK;
    int *var_match = malloc((size_t)a->nv * 2 * sizeof(int) + sizeof(int));
    if (!var_match) return NOMEM(err);
    int *inf = var_match + a->nv;
    int bad_eq, bad_var;
    nsdae_status st = drop_redundant_laws(cx, a, r, err);
    if (st == NSDAE_OK) st = imp_cover(a, var_match, &bad_eq, &bad_var, err);
    if (st == NSDAE_OK && bad_eq >= 0) st = report_conflict(cx, a, var_match, bad_eq, r, err);
    else if (st == NSDAE_OK && bad_var >= 0) st = report_unmatched(cx, a, var_match, r, err);
    cx->covered = st == NSDAE_OK && bad_eq < 0 && bad_var < 0;
    if (cx->covered) st = check_offsets(cx, a, var_match, inf, mu, keep, r, err);
    free(var_match);
    return st;
}
