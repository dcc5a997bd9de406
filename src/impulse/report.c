/* Fills the result of the analysis at the height analysed last: the array variables with their
 * roles and impulse orders, the new mode's states and how their restart values are found, and
 * (for a good or partial solution) Procedure 1's restart system, printed and kept for the
 * numeric restart. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impulse/impulse_diag.h"
#include "impulse/impulse_internal.h"

#define NOMEM(err) nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory")

static char *dup_text(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p) memcpy(p, s, n);
    return p;
}

static nsdae_status fill_avars(const imp_ctx *cx, const imp_array *a, const int *mu, nsdae_impulse_result *r,
                               nsdae_error *err)
{
    r->avars = calloc((size_t)a->nv + 1, sizeof *r->avars);
    if (!r->avars) return NOMEM(err);
    for (int v = 0; v < a->nv; v++) {
        char buf[256];
        const imp_avar *x = &a->v[v];
        imp_avar_name(cx, x, buf, sizeof buf);
        nsdae_impulse_avar *o = &r->avars[r->navars++];
        *o = (nsdae_impulse_avar){x->var, x->m, x->k,
                                  x->past ? NSDAE_IMPULSE_PAST : x->k == a->K ? NSDAE_IMPULSE_TAIL : NSDAE_IMPULSE_HEAD,
                                  x->past ? 0 : (mu ? mu[v] : -1), dup_text(buf)};
        if (!o->name) return NOMEM(err);
    }
    return NSDAE_OK;
}

static nsdae_status fill_states(const imp_ctx *cx, const imp_array *a, const int *keep, nsdae_impulse_result *r,
                                nsdae_error *err)
{
    const nsdae_impulse_input *in = cx->in;
    int n = 0;
    for (int j = 0; j < in->nvars; j++) n += cx->next.d[j] > 0 ? cx->next.d[j] : 0;
    r->states = calloc((size_t)n + 1, sizeof *r->states);
    if (!r->states) return NOMEM(err);
    int usable = r->system && (r->verdict == NSDAE_IMPULSE_OK || r->verdict == NSDAE_IMPULSE_PARTIAL);
    for (int j = 0; j < in->nvars; j++)
        for (int d = 0; d < cx->next.d[j]; d++) {
            nsdae_impulse_state *s = &r->states[r->nstates++];
            int v = imp_find_avar(a, j, d, a->K);
            *s = (nsdae_impulse_state){j, d, 0, 0, -1, v};
            if (imp_is_past(cx, j, d, a->K)) {
                s->continuous = s->determined = usable;
                continue;
            }
            if (v < 0 || !usable || !keep[v]) continue;
            for (int u = 0; u < r->system->n; u++)
                if (r->system->unk[u] == v) s->unknown = u, s->determined = 1;
        }
    return NSDAE_OK;
}

/* Printable names for the leaves of A_*: left limits pre(x), restart values x+ (tail),
 * rescaled impulsive auxiliaries down(x@t*) = e^mu x (head), other head variables x@t*. */
static nsdae_status print_system(const imp_ctx *cx, const imp_array *a, nsdae_impulse_result *r, nsdae_error *err)
{
    const nsdae_impulse_system *s = r->system;
    char **names = calloc((size_t)s->nleaf + 1, sizeof *names);
    nsdae_status st = names ? NSDAE_OK : NOMEM(err);
    for (int j = 0; st == NSDAE_OK && j < s->nleaf; j++) {
        char buf[300], an[256];
        if (j < cx->in->nvars) snprintf(buf, sizeof buf, "pre(%s)", cx->in->var_names ? cx->in->var_names[j] : "x");
        else if (j < IMP_LEAF(cx->in, 0)) snprintf(buf, sizeof buf, "?");
        else {
            const imp_avar *x = &a->v[j - IMP_LEAF(cx->in, 0)];
            imp_avar_name(cx, x, an, sizeof an);
            int mu = r->avars[j - IMP_LEAF(cx->in, 0)].mu;
            if (x->k == a->K) *strchr(an, '@') = 0, snprintf(buf, sizeof buf, "%s+", an);
            else if (mu > 0) snprintf(buf, sizeof buf, "down(%s)", an); /* e^mu x */
            else snprintf(buf, sizeof buf, "%s", an);
        }
        names[j] = dup_text(buf);
        if (!names[j]) st = NOMEM(err);
    }
    r->restart_equations = st == NSDAE_OK ? calloc((size_t)s->n + 1, sizeof(char *)) : NULL;
    if (st == NSDAE_OK && !r->restart_equations) st = NOMEM(err);
    for (int i = 0; st == NSDAE_OK && i < s->n; i++) {
        char buf[1024];
        size_t len = nsdae_expr_print(s->eq[i], (const char *const *)names, s->nleaf, cx->in->param_names,
                                      cx->in->nparams, buf + 4, sizeof buf - 4);
        (void)len;
        memcpy(buf, "0 = ", 4);
        r->restart_equations[r->nrestart_equations] = dup_text(buf);
        if (!r->restart_equations[r->nrestart_equations]) st = NOMEM(err);
        else r->nrestart_equations++;
    }
    for (int j = 0; names && j < s->nleaf; j++) free(names[j]);
    free(names);
    return st;
}

nsdae_status imp_finish(imp_ctx *cx, const imp_array *a, const int *mu, const int *keep, nsdae_impulse_result *r,
                        nsdae_error *err)
{
    nsdae_status st = fill_avars(cx, a, mu, r, err);
    if (st == NSDAE_OK && (r->verdict == NSDAE_IMPULSE_OK || r->verdict == NSDAE_IMPULSE_PARTIAL))
        st = imp_procedure(cx, a, mu, keep, &r->system, err);
    if (st == NSDAE_OK && r->system) st = print_system(cx, a, r, err);
    if (st == NSDAE_OK && cx->covered) st = imp_brute(cx, a, mu, keep, &r->brute, err);
    if (st == NSDAE_OK) st = fill_states(cx, a, keep, r, err);
    return st;
}
