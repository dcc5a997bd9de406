/* Impulse orders (rescaling offsets) as the least solution of the difference-bound system of Theorem 3
 * (Benveniste et al. 2026, section 7.2): for a matched equation f with x_f in L_f, the matched term must
 * dominate, n_xf + mu_xf >= n_x + mu_x for every other x in L_f, and >= the exponent of the part free of
 * dependent variables. Longest path by Bellman-Ford from mu = 0; a vertex still rising after |V| rounds
 * lies on (or after) a positive cycle: mu = infinity, not rescalable. Then (130): variables outside L_f of
 * a matched equation must have mu = 0, and an equation matched through a nonlinear term must have every
 * linear term at mu = 0 too (clutch nonlinear in tau, D4). */
#include <stdlib.h>

#include "impulse/impulse_internal.h"

int imp_eq_mu(const imp_array *a, const imp_aeq *e, const int *mu)
{
    (void)a;
    int m = e->rest_n > 0 ? e->rest_n : 0;
    for (int t = 0; t < e->ndep; t++) {
        int x = e->lin[t] ? e->nexp[t] + mu[e->dep[t]] : 0;
        if (x > m) m = x;
    }
    return m;
}

static int matched_slot(const imp_aeq *e)
{
    for (int t = 0; t < e->ndep; t++)
        if (e->dep[t] == e->matched) return t;
    return -1;
}

/* One relaxation round over every matched linear equation; returns whether some mu rose. With
 * inf != NULL, a rise marks the variable infinite instead. */
static int relax(const imp_array *a, int *mu, int *inf)
{
    int changed = 0;
    for (int i = 0; i < a->ne; i++) {
        const imp_aeq *e = &a->e[i];
        int f = e->matched < 0 ? -1 : matched_slot(e);
        if (f < 0 || !e->lin[f]) continue;
        int need = e->rest_n >= 0 ? e->rest_n - e->nexp[f] : 0;
        for (int t = 0; t < e->ndep; t++)
            if (t != f && e->lin[t]) {
                int w = mu[e->dep[t]] + e->nexp[t] - e->nexp[f];
                if (inf && inf[e->dep[t]]) w = 1 << 28;
                if (w > need) need = w;
            }
        if (need > mu[e->matched]) {
            if (inf && !inf[e->matched]) inf[e->matched] = 1, changed = 1;
            if (!inf) mu[e->matched] = need, changed = 1;
        }
    }
    return changed;
}

int imp_offsets(const imp_array *a, int *mu, int *inf)
{
    for (int v = 0; v < a->nv; v++) mu[v] = 0, inf[v] = 0;
    int round = 0;
    while (relax(a, mu, NULL) && ++round <= a->nv) {
    }
    if (round > a->nv) {
        while (relax(a, mu, inf)) {
        }
        return 1;
    }
    return 0;
}

int imp_check_nonlinear(const imp_array *a, const int *mu, const int *keep, int *bad_eq)
{
    *bad_eq = -1;
    for (int i = 0; i < a->ne; i++) {
        const imp_aeq *e = &a->e[i];
        int f = e->matched < 0 || !keep[e->matched] ? -1 : matched_slot(e);
        if (f < 0) continue;
        for (int t = 0; t < e->ndep; t++) {
            int bad = !e->lin[t] ? mu[e->dep[t]] != 0 : !e->lin[f] && e->nexp[t] + mu[e->dep[t]] > 0;
            if (bad && *bad_eq < 0) *bad_eq = i;
        }
    }
    return *bad_eq >= 0;
}
