/* The restart analysis of one mode change (Benveniste et al. 2026, sections 5-7): Sigma-method on both long
 * modes, the facts' horizon, the height range [K_*, K^*] (Theorem 2), and per height the array,
 * its matching, the impulse orders and goodness (123)-(125); the first good height gives
 * Procedure 1's restart system, a failure gives the diagnostics of its section 7.1 (Corollary 1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impulse/impulse_diag.h"
#include "impulse/impulse_internal.h"

const char *nsdae_impulse_verdict_name(nsdae_impulse_verdict v)
{
    switch (v) {
    case NSDAE_IMPULSE_OK: return "ok";
    case NSDAE_IMPULSE_PARTIAL: return "partial";
    case NSDAE_IMPULSE_UNDERDETERMINED: return "underdetermined";
    case NSDAE_IMPULSE_INCONSISTENT: return "inconsistent";
    case NSDAE_IMPULSE_NOT_RESCALABLE: return "not-rescalable";
    case NSDAE_IMPULSE_IMPULSIVE_STATE: return "impulsive-state";
    case NSDAE_IMPULSE_SINGULAR_MODE: return "singular-mode";
    }
    return "?";
}

static nsdae_status check_input(const nsdae_impulse_input *in, nsdae_error *err)
{
    if (!in || !in->pool || in->nvars <= 0 || (in->nparams > 0 && !in->params))
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "impulse: missing pool, unknowns or parameter values");
    const nsdae_impulse_eqs *l[3] = {&in->prev, &in->transient, &in->next};
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < l[k]->n; i++)
            if (!l[k]->residual || !l[k]->residual[i])
                return nsdae_error_set(err, NSDAE_INVALID_INPUT, "impulse: equation %d of the %s mode is NULL", i,
                                       k == 0 ? "previous" : k == 1 ? "transient" : "new");
    return NSDAE_OK;
}

/* Lemma 3: the guard's root fact holds at shifts 0 .. ell, ell the largest shift keeping every
 * variable of g past. */
static int facts_horizon(const imp_ctx *cx, nsdae_error *err)
{
    if (!cx->in->guard) return -1;
    int *lv, nl, ell = 1 << 20;
    if (imp_leaves(cx->in->guard, &lv, &nl, err) != NSDAE_OK) return -2;
    for (int t = 0; t < nl; t++) {
        int j = lv[2 * t], o = lv[2 * t + 1];
        int d = j < cx->in->nvars ? cx->prev.d[j] : -1;
        int l = d < 0 ? -1 : d - 1 - o;
        if (l < ell) ell = l;
    }
    free(lv);
    return nl ? ell : -1;
}

static nsdae_status ctx_init(imp_ctx *cx, const nsdae_impulse_input *in, nsdae_error *err)
{
    memset(cx, 0, sizeof *cx);
    cx->in = in;
    nsdae_status st = imp_mode_sigma_run(in, &in->prev, &cx->prev, err);
    if (st == NSDAE_OK) st = imp_mode_sigma_run(in, &in->next, &cx->next, err);
    if (st != NSDAE_OK || !cx->prev.ok || !cx->next.ok) return st;
    cx->law = malloc((size_t)(in->transient.n + 1) * sizeof *cx->law);
    if (!cx->law) return nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory");
    for (int i = 0; i < in->transient.n; i++) {
        int shared = 0;
        for (int k = 0; k < in->next.n; k++) shared |= in->next.residual[k] == in->transient.residual[i];
        if (!shared) cx->law[cx->nlaw++] = i;
    }
    cx->ell = facts_horizon(cx, err);
    if (cx->ell < -1) return err ? err->status : NSDAE_NOMEM;
    for (int i = 0; i < in->next.n; i++)
        if (cx->next.c[i] > cx->cmax) cx->cmax = cx->next.c[i];
    cx->dnext = calloc((size_t)in->next.n * (size_t)(cx->cmax + 1) + 1, sizeof *cx->dnext);
    if (!cx->dnext) return nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory");
    for (int i = 0; i < in->next.n && st == NSDAE_OK; i++) {
        const nsdae_expr **row = &cx->dnext[i * (cx->cmax + 1)];
        row[0] = in->next.residual[i];
        for (int m = 1; m <= cx->next.c[i] && st == NSDAE_OK; m++) st = nsdae_expr_dt(in->pool, row[m - 1], &row[m], err);
    }
    return st;
}

static void ctx_free(imp_ctx *cx)
{
    imp_mode_sigma_free(&cx->prev);
    imp_mode_sigma_free(&cx->next);
    free(cx->law);
    free(cx->dnext);
}

/* Theorem 2 and Appendix C of Benveniste et al. 2026: K_* (some tight variable of every tail consistency
 * equation is not past) and K^* (none is past), with (312) K >= c_f - m for the non-facts; a law equation
 * needs a variable that is not past (our rule for section 9's cascades). */
static void height_range(const imp_ctx *cx, int *lo, int *hi)
{
    const nsdae_impulse_input *in = cx->in;
    int kmax = cx->cmax + 4;
    *lo = *hi = -1;
    for (int K = 0; K <= kmax && *hi < 0; K++) {
        int p_lo = 1, p_hi = 1;
        for (int i = 0; i < in->next.n; i++) {
            int c = cx->next.c[i];
            for (int m = 0; m < c; m++) {
                if (imp_is_fact(cx, i, m, K)) continue;
                if (K < c - m) p_lo = p_hi = 0;
                int some_free = 0, some_past = 0;
                for (int j = 0; j < in->nvars; j++) {
                    int dj = cx->next.d[j];
                    if (dj < 0 || nsdae_expr_max_order(in->next.residual[i], j) != dj - c) continue;
                    if (imp_is_past(cx, j, dj - c + m, K)) some_past = 1;
                    else some_free = 1;
                }
                if (!some_free) p_lo = 0;
                if (some_past) p_hi = 0;
            }
        }
        for (int t = 0; t < cx->nlaw; t++) {
            if (K <= cx->ell && in->guard &&
                imp_proportional(in, in->transient.residual[cx->law[t]], in->guard, 2 * in->nvars))
                continue; /* a fact at this height */
            int some_free = 0;
            for (int j = 0; j < in->nvars; j++) {
                int o = nsdae_expr_max_order(in->transient.residual[cx->law[t]], j);
                for (int q = 0; q <= o; q++) some_free |= !imp_is_past(cx, j, q, K);
            }
            if (!some_free) p_lo = p_hi = 0;
        }
        if (p_lo && *lo < 0) *lo = K;
        if (p_hi) *hi = K;
    }
    if (*lo < 0) *lo = kmax;
    /* A cascade has the transient mode at t* and the new long mode after it (1.14 [IMPL], the
     * alternative reading; the paper goes from A_0 to A_1 for (172)): K >= 1. At K = 0 the new
     * mode's k3 (lambda = 0) would sit at t* with the transient law and hide (192)'s D2. */
    if (in->transient.n > 0 && *lo < 1) *lo = 1;
    if (*hi < *lo) *hi = *lo;
}

nsdae_status imp_try_height(imp_ctx *cx, int K, nsdae_impulse_result *r, imp_array *a, int *mu, int *keep,
                            nsdae_error *err);

void nsdae_impulse_result_destroy(nsdae_impulse_result *r)
{
    if (!r) return;
    for (int i = 0; i < r->navars; i++) free(r->avars[i].name);
    free(r->avars);
    imp_diags_free(r);
    free(r->states);
    for (int i = 0; i < r->nrestart_equations; i++) free(r->restart_equations[i]);
    free(r->restart_equations);
    imp_system_free(r->system);
    imp_system_free(r->brute);
    free(r);
}

nsdae_status imp_finish(imp_ctx *cx, const imp_array *a, const int *mu, const int *keep, nsdae_impulse_result *r,
                        nsdae_error *err);

nsdae_status nsdae_impulse_analyze(const nsdae_impulse_input *in, const nsdae_impulse_options *opt,
                                   nsdae_impulse_result **out, nsdae_error *err)
{
    *out = NULL;
    nsdae_status st = check_input(in, err);
    if (st != NSDAE_OK) return st;
    nsdae_impulse_result *r = calloc(1, sizeof *r);
    if (!r) return nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory");
    imp_ctx cx;
    st = ctx_init(&cx, in, err);
    if (st == NSDAE_OK && (!cx.prev.ok || !cx.next.ok)) {
        r->verdict = NSDAE_IMPULSE_SINGULAR_MODE;
        if (!imp_diag_add(r, "D1", "the %s mode fails the Sigma-method: %s", cx.prev.ok ? "new" : "previous",
                          cx.prev.ok ? cx.next.why : cx.prev.why))
            st = nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory");
        ctx_free(&cx);
        if (st != NSDAE_OK) nsdae_impulse_result_destroy(r);
        else *out = r;
        return st;
    }
    if (st == NSDAE_OK) height_range(&cx, &r->height_lo, &r->height_hi);
    int lo = opt && opt->height >= 0 ? opt->height : r->height_lo;
    int hi = opt && opt->height >= 0 ? opt->height : r->height_hi;
    imp_array a = {0};
    int *mu = NULL, *keep = NULL;
    for (int K = lo; st == NSDAE_OK && K <= hi; K++) {
        imp_array_free(&a);
        free(mu);
        free(keep);
        mu = keep = NULL;
        imp_diags_free(r);
        cx.covered = 0;
        st = imp_array_build(&cx, K, &a, err);
        if (st != NSDAE_OK) break;
        mu = calloc((size_t)a.nv + 1, sizeof *mu);
        keep = calloc((size_t)a.nv + 1, sizeof *keep);
        if (!mu || !keep) st = nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory");
        if (st == NSDAE_OK) st = imp_try_height(&cx, K, r, &a, mu, keep, err);
        if (st == NSDAE_OK && r->verdict == NSDAE_IMPULSE_OK) break;
    }
    if (st == NSDAE_OK) st = imp_finish(&cx, &a, mu, keep, r, err);
    imp_array_free(&a);
    free(mu);
    free(keep);
    ctx_free(&cx);
    if (st != NSDAE_OK) nsdae_impulse_result_destroy(r);
    else *out = r;
    return st;
}

int nsdae_impulse_mu(const nsdae_impulse_result *r, int var, int order, int shift)
{
    for (int i = 0; i < r->navars; i++)
        if (r->avars[i].var == var && r->avars[i].order == order && r->avars[i].shift == shift) return r->avars[i].mu;
    return -2;
}
