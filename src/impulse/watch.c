/* Mode changes along a time-stepping run, held against the restart analysis (issue 10, digest 1.13
 * [IMPL]): the time stepper crosses mode changes without locating them, and where the analysis says the
 * model does not determine the restart (partial, underdetermined) the minimal-norm scheme's pick is a
 * regularisation, not physics. The watch reads each step's mode off the step's values (the active
 * pattern of each set-valued row), and analyses each new (from, to) pair once.
 *
 * The mode of a step, per long switch (nsdae/mode.h's choices):
 *   COMPL `0 <= a _|_ b >= 0`: 0 (a = 0, closed) when b > tol, 1 (b = 0) when a > tol;
 *   SIGN  `v in [lo, hi] sign(e)`: 1 when v = hi, 2 when v = lo, 0 (sliding, e = 0) strictly inside;
 *   IF    the first branch whose condition holds, at the step's time and state.
 * A row that is both (a = b = 0, a grazing contact) or a state guard on its surface (where the
 * stepper's relaxation slides) keeps its previous choice: no change is read from round-off. Cost per
 * step: one evaluation of each switch's expressions; the analysis runs once per new pair. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nsdae/tolerances.h>

#include "impulse/impulse_internal.h"

typedef struct seen_pair {
    char from[NSDAE_IMPULSE_CODE_MAX], to[NSDAE_IMPULSE_CODE_MAX];
} seen_pair;

struct nsdae_impulse_watch {
    const nsdae_model *m;
    nsdae_switches *sw;
    nsdae_expr_pool *pool;          /* switching functions of the state guards */
    const nsdae_expr **h;           /* per block, per condition: its switching function (NULL: and/or) */
    int *h_first;                   /* per switch: index of its first condition in h, -1 */
    int *cur, *prev;                /* choice arrays (n entries) */
    int have_prev;
    seen_pair *seen;
    int nseen, capseen;
    int failure_said;
};

void nsdae_impulse_watch_destroy(nsdae_impulse_watch *w)
{
    if (!w) return;
    nsdae_mode_switches_destroy(w->sw);
    nsdae_expr_pool_destroy(w->pool);
    free(w->h);
    free(w->h_first);
    free(w->cur);
    free(w->prev);
    free(w->seen);
    free(w);
}

nsdae_status nsdae_impulse_watch_create(const nsdae_model *m, nsdae_impulse_watch **out, nsdae_error *err)
{
    *out = NULL;
    nsdae_impulse_watch *w = calloc(1, sizeof *w);
    if (!w) return nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory for the mode watch");
    w->m = m;
    nsdae_status st = nsdae_mode_switches(m, &w->sw, err);
    if (st == NSDAE_OK) st = nsdae_expr_pool_create_over(nsdae_model_pool(m), &w->pool, err);
    int n = st == NSDAE_OK ? w->sw->n : 0, nh = 0;
    for (int k = 0; k < n; k++)
        if (w->sw->sw[k].block >= 0) nh += nsdae_model_block(m, w->sw->sw[k].block)->nbranches;
    if (st == NSDAE_OK) {
        w->h = calloc((size_t)nh + 1, sizeof *w->h);
        w->h_first = malloc(((size_t)n + 1) * sizeof *w->h_first);
        w->cur = calloc((size_t)n + 1, sizeof *w->cur);
        w->prev = calloc((size_t)n + 1, sizeof *w->prev);
        if (!w->h || !w->h_first || !w->cur || !w->prev)
            st = nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory for the mode watch");
    }
    for (int k = 0, at = 0; st == NSDAE_OK && k < n; k++) {
        const nsdae_switch *s = &w->sw->sw[k];
        w->h_first[k] = -1;
        if (s->block < 0 || s->kind == NSDAE_SWITCH_WHEN) continue;
        const nsdae_block *b = nsdae_model_block(m, s->block);
        w->h_first[k] = at;
        for (int c = 0; c < b->nbranches - 1; c++) w->h[at + c] = nsdae_mode_switching_function(w->pool, b->conds[c]);
        at += b->nbranches;
    }
    if (st != NSDAE_OK) {
        nsdae_impulse_watch_destroy(w);
        return st;
    }
    *out = w;
    return NSDAE_OK;
}

/* The choice of switch k at the step (env), or -1 when the step does not tell (keep the previous). */
static int choice_of(const nsdae_impulse_watch *w, int k, const nsdae_eval_env *env, double tol)
{
    const nsdae_switch *s = &w->sw->sw[k];
    if (s->kind == NSDAE_SWITCH_COMPL) {
        const nsdae_equation *q = nsdae_model_equation(w->m, s->equation);
        double a = nsdae_expr_eval(q->a, env), b = nsdae_expr_eval(q->b, env);
        return b > tol && !(a > tol) ? 0 : a > tol && !(b > tol) ? 1 : -1;
    }
    if (s->kind == NSDAE_SWITCH_SIGN) {
        const nsdae_equation *q = nsdae_model_equation(w->m, s->equation);
        double v = env->vars[q->var], lo = nsdae_expr_eval(q->lo, env), hi = nsdae_expr_eval(q->hi, env);
        if (!isfinite(v)) return -1;
        return fabs(v - hi) <= tol * (1 + fabs(hi)) ? 1 : fabs(v - lo) <= tol * (1 + fabs(lo)) ? 2 : 0;
    }
    if (s->kind != NSDAE_SWITCH_IF_TIME && s->kind != NSDAE_SWITCH_IF_STATE) return -1;
    const nsdae_block *b = nsdae_model_block(w->m, s->block);
    for (int c = 0; c < b->nbranches - 1; c++) {
        const nsdae_expr *h = w->h[w->h_first[k] + c];
        double hv = h ? nsdae_expr_eval(h, env) : NAN;
        if (s->kind == NSDAE_SWITCH_IF_STATE && h && fabs(hv) <= tol) return -1; /* on the surface */
        if (nsdae_cond_eval(b->conds[c], env)) return c;
    }
    return b->nbranches - 1;
}

/* The step's long mode into w->cur (canonical); 0 when it equals w->prev. */
static int read_mode(nsdae_impulse_watch *w, const nsdae_eval_env *env, double tol)
{
    const nsdae_switches *s = w->sw;
    memcpy(w->cur, w->prev, (size_t)s->n * sizeof *w->cur);
    for (int k = 0; k < s->ncode; k++) {
        if (!nsdae_mode_switch_active(s, w->cur, k)) continue;
        int c = choice_of(w, k, env, tol);
        if (c >= 0) w->cur[k] = c;
    }
    char code[NSDAE_IMPULSE_CODE_MAX];
    nsdae_error err = {0};
    nsdae_mode_format(s, w->cur, code, sizeof code);
    if (nsdae_mode_parse(s, code, w->cur, &err) != NSDAE_OK) memcpy(w->cur, w->prev, (size_t)s->n * sizeof *w->cur);
    return memcmp(w->cur, w->prev, (size_t)s->n * sizeof *w->cur) != 0;
}

/* The analysis of from -> to: its verdict, or -1 with *why when it could not run. */
static int analyse_change(const nsdae_impulse_watch *w, const int *from, const int *to, nsdae_impulse_crossing *c)
{
    nsdae_expr_pool *pool = NULL;
    nsdae_impulse_modes *store = NULL;
    nsdae_impulse_result *r = NULL;
    nsdae_impulse_input in;
    nsdae_impulse_options opt = {-1};
    nsdae_error err = {0};
    const nsdae_expr *guard = NULL;
    nsdae_status st = nsdae_expr_pool_create_over(nsdae_model_pool(w->m), &pool, &err);
    if (st == NSDAE_OK) st = nsdae_impulse_guard(w->m, w->sw, pool, from, to, &guard, &err);
    if (st == NSDAE_OK)
        st = nsdae_impulse_input_from_modes(w->m, w->sw, pool, from, NULL, to, guard, &in, &store, &err);
    if (st == NSDAE_OK) st = nsdae_impulse_analyze(&in, &opt, &r, &err);
    int verdict = st == NSDAE_OK ? (int)r->verdict : -1;
    if (st != NSDAE_OK) snprintf(c->message, sizeof c->message, "%s", err.message);
    else if (r->ndiags) snprintf(c->message, sizeof c->message, "%s: %s", r->diags[0].code, r->diags[0].message);
    else c->message[0] = '\0';
    nsdae_impulse_result_destroy(r);
    nsdae_impulse_modes_destroy(store);
    nsdae_expr_pool_destroy(pool);
    return verdict;
}

/* Records the pair; 0 when it was seen before (or memory ran out: said nothing rather than twice). */
static int first_time(nsdae_impulse_watch *w, const char *from, const char *to)
{
    for (int i = 0; i < w->nseen; i++)
        if (!strcmp(w->seen[i].from, from) && !strcmp(w->seen[i].to, to)) return 0;
    if (w->nseen == w->capseen) {
        int cap = w->capseen ? 2 * w->capseen : 8;
        seen_pair *p = realloc(w->seen, (size_t)cap * sizeof *p);
        if (!p) return 0;
        w->seen = p, w->capseen = cap;
    }
    snprintf(w->seen[w->nseen].from, sizeof w->seen[w->nseen].from, "%s", from);
    snprintf(w->seen[w->nseen].to, sizeof w->seen[w->nseen].to, "%s", to);
    w->nseen++;
    return 1;
}

int nsdae_impulse_watch_step(nsdae_impulse_watch *w, double t, const double *x, int max_order,
                             nsdae_impulse_crossing *c)
{
    if (!w || !x || w->sw->ncode == 0) return 0;
    int nv = nsdae_model_nvars(w->m);
    double scale = 1;
    for (int i = 0; i < (max_order + 1) * nv; i++)
        if (fabs(x[i]) > scale) scale = fabs(x[i]);
    nsdae_eval_env env = {nsdae_model_param_values(w->m), nsdae_model_nparams(w->m), x, nv, max_order, t};
    int changed = read_mode(w, &env, NSDAE_TOL_COMPLEMENTARITY * scale);
    int had = w->have_prev;
    w->have_prev = 1;
    int *swap = w->prev;
    w->prev = w->cur, w->cur = swap; /* prev: this step's mode; cur: the previous one */
    if (!had || !changed) return 0;
    memset(c, 0, sizeof *c);
    c->t = t;
    nsdae_mode_format(w->sw, w->cur, c->from, sizeof c->from);
    nsdae_mode_format(w->sw, w->prev, c->to, sizeof c->to);
    if (!first_time(w, c->from, c->to)) return 0;
    int verdict = analyse_change(w, w->cur, w->prev, c);
    if (verdict < 0) {
        c->analysis_failed = 1;
        if (w->failure_said) return 0;
        w->failure_said = 1;
        return 1;
    }
    c->verdict = (nsdae_impulse_verdict)verdict;
    return c->verdict == NSDAE_IMPULSE_PARTIAL || c->verdict == NSDAE_IMPULSE_UNDERDETERMINED;
}
