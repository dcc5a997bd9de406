/* The matching of the mode change array (our two-phase construction, for Benveniste et al.
 * 2026, Theorem 2): first every must-enable equation is matched (augmenting paths from the
 * equations), then every dependent variable (augmenting paths from the variables). An augmenting
 * path never unmatches a vertex, so the second phase keeps the first phase's equations matched;
 * by Mendelsohn-Dulmage a matching covering both sets exists iff each phase succeeds. Unmatched
 * equations are the disabled ones. */
#include <stdlib.h>
#include <string.h>

#include "impulse/impulse_internal.h"

typedef struct cover {
    imp_array *a;
    int allow_reluctant;
    int *var_match;
    char *seen_v, *seen_e;
} cover;

static int usable(const imp_aeq *e)
{
    return !e->fact && e->ndep > 0;
}

static int aug_from_eq(cover *c, int ei)
{
    imp_aeq *e = &c->a->e[ei];
    for (int t = 0; t < e->ndep; t++) {
        int v = e->dep[t];
        if (c->seen_v[v]) continue;
        c->seen_v[v] = 1;
        if (c->var_match[v] < 0 || aug_from_eq(c, c->var_match[v])) {
            c->var_match[v] = ei;
            e->matched = v;
            return 1;
        }
    }
    return 0;
}

static int contains(const imp_aeq *e, int v)
{
    for (int t = 0; t < e->ndep; t++)
        if (e->dep[t] == v) return 1;
    return 0;
}

static int aug_from_var(cover *c, int v)
{
    for (int ei = 0; ei < c->a->ne; ei++) {
        imp_aeq *e = &c->a->e[ei];
        if (c->seen_e[ei] || !usable(e) || !contains(e, v) || (e->reluctant && !c->allow_reluctant)) continue;
        c->seen_e[ei] = 1;
        if (e->matched < 0 || aug_from_var(c, e->matched)) {
            e->matched = v;
            c->var_match[v] = ei;
            return 1;
        }
    }
    return 0;
}

nsdae_status imp_cover(imp_array *a, int *var_match, int *bad_eq, int *bad_var, nsdae_error *err)
{
    cover c = {a, 0, var_match, calloc((size_t)a->nv + 1, 1), calloc((size_t)a->ne + 1, 1)};
    if (!c.seen_v || !c.seen_e) {
        free(c.seen_v);
        free(c.seen_e);
        return nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory for the matching");
    }
    *bad_eq = *bad_var = -1;
    for (int v = 0; v < a->nv; v++) var_match[v] = -1;
    for (int i = 0; i < a->ne; i++) a->e[i].matched = -1;
    /* 1. every must-enable equation (one with no dependent variable can never be matched) */
    for (int i = 0; i < a->ne; i++) {
        if (a->e[i].fact || !a->e[i].ena) continue;
        memset(c.seen_v, 0, (size_t)a->nv);
        if (!aug_from_eq(&c, i) && *bad_eq < 0) *bad_eq = i;
    }
    /* 2. every dependent variable (one occurring in some non-fact equation); in a cascade, first
     *    without the new mode's equations that the transient mode replaces (our rule for the
     *    cascades of Benveniste et al. 2026, section 9: they would forbid the impulse, e.g.
     *    lambda = 0 at t*), then with them only for variables that occur in no other equation
     *    (e.g. s at t*, defined by k4 alone) */
    for (int pass = 0; pass < 2; pass++) {
        c.allow_reluctant = pass;
        for (int v = 0; v < a->nv; v++) {
            if (a->v[v].past || var_match[v] >= 0) continue;
            int occurs = 0, elsewhere = 0;
            for (int i = 0; i < a->ne; i++)
                if (usable(&a->e[i]) && contains(&a->e[i], v)) occurs = 1, elsewhere |= !a->e[i].reluctant;
            if (!occurs || (pass == 1 && elsewhere)) continue;
            memset(c.seen_e, 0, (size_t)a->ne);
            aug_from_var(&c, v);
        }
    }
    for (int v = 0; v < a->nv && *bad_var < 0; v++) {
        int occurs = 0;
        for (int i = 0; i < a->ne && !occurs; i++) occurs = usable(&a->e[i]) && contains(&a->e[i], v);
        if (occurs && !a->v[v].past && var_match[v] < 0) *bad_var = v;
    }
    free(c.seen_v);
    free(c.seen_e);
    return NSDAE_OK;
}

/* Alternating paths from the unmatched dependent variables: variable -> an enabled (matched)
 * equation containing it -> that equation's matched variable. */
void imp_under_part(const imp_array *a, const int *var_match, int *under)
{
    for (int v = 0; v < a->nv; v++) under[v] = !a->v[v].past && var_match[v] < 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 0; i < a->ne; i++) {
            const imp_aeq *e = &a->e[i];
            if (e->matched < 0 || under[e->matched]) continue;
            for (int t = 0; t < e->ndep; t++)
                if (under[e->dep[t]]) {
                    under[e->matched] = 1;
                    changed = 1;
                    break;
                }
        }
    }
}
