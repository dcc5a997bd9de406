/* Which mode changes the restart report covers (restart_report_internal.h): every change between
 * two long modes that differ in one active switch, the elastic cascade of a contact with a restitution
 * (Benveniste et al. 2026, section 9), the `when` that fires with a change or alone, and under left
 * limits the one change whose guard vanishes there and is being crossed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impulse/restart_report_internal.h"

/* A guard counts as crossing at the left limits when |g| is below this (relative to 1 + |terms|). */
#define RR_GUARD_TOL 1e-8

/* A contact with a nonzero restitution closes through a transient mode (Benveniste et al. 2026, section 9):
 * free -> (the closed contact's equations + Newton's law) -> free. Returns the switch of such a
 * closing between from and to, or -1 (an inelastic contact, e = 0, goes straight to the closed mode). */
int rr_elastic_closing(rr_ctx *c, const int *from, const int *to)
{
    for (int k = 0; k < c->sw->ncode; k++) {
        const nsdae_switch *w = &c->sw->sw[k];
        if (w->kind != NSDAE_SWITCH_COMPL || from[k] != 1 || to[k] != 0) continue;
        const nsdae_expr *e = nsdae_model_equation(c->m, w->equation)->restitution;
        nsdae_eval_env env = {nsdae_model_param_values(c->m), nsdae_model_nparams(c->m), NULL, 0, 0, 0};
        if (e && nsdae_expr_eval(e, &env) != 0) return k;
    }
    return -1;
}

/* Whether the `when` switch w fires at the long change from -> to (from == to: with no long
 * change): its guard hw (positive where its condition holds) rises through zero there. With a
 * long change, hw must be that change's guard g up to sign, and g's crossing direction (a gap or a
 * multiplier decreasing to 0; an `if` condition becoming true as the branch index drops) must make
 * hw rise (Benveniste et al. 2026, (247): `if gamma` with `when gamma`). */
static int when_crossing(rr_ctx *c, nsdae_expr_pool *pool, const int *from, const int *to, int w);

int rr_when_fires(rr_ctx *c, nsdae_expr_pool *pool, const int *from, const int *to, int w)
{
    return when_crossing(c, pool, from, to, w) > 0;
}

/* 1: w fires at from -> to; -1: its guard is the change's but falls through zero there (the
 * `when` is tied to that switch and does not fire); 0: unrelated. */
static int when_crossing(rr_ctx *c, nsdae_expr_pool *pool, const int *from, const int *to, int w)
{
    const nsdae_switch *x = &c->sw->sw[w];
    if (x->kind != NSDAE_SWITCH_WHEN || x->parent >= 0) return 0; /* top-level transient modes only */
    const nsdae_expr *hw = NULL, *g = NULL;
    nsdae_error err = {0};
    if (nsdae_impulse_when_guard(c->m, c->sw, pool, from, w, &hw, &err) != NSDAE_OK) return 0;
    if (memcmp(from, to, (size_t)c->sw->n * sizeof *from) == 0) return 1;
    if (nsdae_impulse_guard(c->m, c->sw, pool, from, to, &g, &err) != NSDAE_OK || !g) return 0;
    int sign = g == hw ? 1 : g == nsdae_expr_unary(pool, NSDAE_EXPR_NEG, hw) ? -1 : 0;
    int k = 0;
    while (k < c->sw->ncode && from[k] == to[k]) k++;
    if (sign == 0 || k == c->sw->ncode) return 0;
    int dir = c->sw->sw[k].kind == NSDAE_SWITCH_IF_STATE ? (to[k] < from[k] ? 1 : -1) : -1;
    return sign * dir > 0 ? 1 : -1;
}

/* The `when` that fires at from -> to, or -1. */
int rr_firing_when(rr_ctx *c, const int *from, const int *to)
{
    nsdae_expr_pool *pool = NULL;
    nsdae_error err = {0};
    if (nsdae_expr_pool_create_over(nsdae_model_pool(c->m), &pool, &err) != NSDAE_OK) return -1;
    int found = -1;
    for (int w = c->sw->ncode; w < c->sw->n && found < 0; w++)
        if (rr_when_fires(c, pool, from, to, w)) found = w;
    nsdae_expr_pool_destroy(pool);
    return found;
}

/* The analysis input of the change from -> to: straight, or the elastic cascade. */
nsdae_status rr_change_input(rr_ctx *c, const int *from, const int *to, int elastic, const int *via,
                                 int when, nsdae_expr_pool *pool, nsdae_impulse_input *in, nsdae_impulse_modes **store,
                                 nsdae_error *err)
{
    const nsdae_expr *guard = NULL, *law = NULL;
    if (when >= 0) { /* a user `when`: its then branch is the transient mode, its law included */
        nsdae_status st = memcmp(from, to, (size_t)c->sw->n * sizeof *from)
                              ? nsdae_impulse_guard(c->m, c->sw, pool, from, to, &guard, err)
                              : nsdae_impulse_when_guard(c->m, c->sw, pool, from, when, &guard, err);
        if (!st) st = nsdae_impulse_input_from_modes(c->m, c->sw, pool, from, via, to, guard, in, store, err);
        return st;
    }
    nsdae_status st = nsdae_impulse_guard(c->m, c->sw, pool, from, to, &guard, err);
    if (!st && elastic >= 0) st = nsdae_impulse_newton_law(c->m, c->sw, pool, elastic, &law, err);
    if (!st)
        st = nsdae_impulse_input_from_modes(c->m, c->sw, pool, from, elastic >= 0 ? to : NULL, elastic >= 0 ? from : to,
                                            guard, in, store, err);
    if (!st && law) st = nsdae_impulse_modes_add_transient(*store, in, law, "Newton's law", err);
    return st;
}

int rr_sliding(const nsdae_switches *s, const int *choice)
{
    for (int k = 0; k < s->ncode; k++)
        if (s->sw[k].sliding && choice[k] == s->sw[k].nchoices - 1 && nsdae_mode_switch_active(s, choice, k)) return 1;
    return 0;
}

/* Whether `when` w is tied to some long change from `from` (its guard is that change's): it fires
 * with that change, or cannot fire from `from` at all. */
int rr_fired_by_change(rr_ctx *c, nsdae_expr_pool *pool, const int *from, int w)
{
    const nsdae_switches *s = c->sw;
    int *to = calloc((size_t)s->n + 1, sizeof *to), hit = 0;
    char code[128];
    nsdae_error err = {0};
    for (int k = 0; to && k < s->ncode && !hit; k++) {
        if (!nsdae_mode_switch_active(s, from, k)) continue;
        for (int ch = 0; ch < s->sw[k].nchoices && !hit; ch++) {
            if (ch == from[k]) continue;
            memcpy(to, from, (size_t)s->n * sizeof *to);
            to[k] = ch;
            nsdae_mode_format(s, to, code, sizeof code);
            if (nsdae_mode_parse(s, code, to, &err) != NSDAE_OK || rr_sliding(s, to)) continue;
            hit = when_crossing(c, pool, from, to, w) != 0;
        }
    }
    free(to);
    return hit;
}

/* Calls fn for every change between two non-sliding long modes that differ in one active long
 * switch; stops at the first nonzero return. */
int rr_for_each_change(rr_ctx *c, rr_change_fn fn, void *data)
{
    const nsdae_switches *s = c->sw;
    int n = s->n + 1, rc = 0;
    int *from = calloc((size_t)n, sizeof *from), *to = calloc((size_t)n, sizeof *to);
    char code[128];
    nsdae_error err = {0};
    if (!from || !to) rc = RR_NOMEM;
    if (!rc) nsdae_mode_first(s, from);
    for (int more = !rc; more && !rc; more = nsdae_mode_next(s, from)) {
        if (rr_sliding(s, from)) continue;
        for (int k = 0; k < s->ncode && !rc; k++) {
            if (!nsdae_mode_switch_active(s, from, k)) continue;
            for (int ch = 0; ch < s->sw[k].nchoices && !rc; ch++) {
                if (ch == from[k]) continue;
                memcpy(to, from, (size_t)s->n * sizeof *to);
                to[k] = ch;
                nsdae_mode_format(s, to, code, sizeof code); /* canonical: nested choices reset */
                if (nsdae_mode_parse(s, code, to, &err) != NSDAE_OK || rr_sliding(s, to)) continue;
                rc = fn(c, from, to, data);
            }
        }
    }
    free(from);
    free(to);
    return rc;
}

typedef struct found {
    int n;
    int *from, *to;
    char first[256], second[256];
} found;

/* The guard of from -> to for detection: the library's, or for an exogenous `if` the switching
 * function of its condition (time - t_e for `time >= t_e`), which --at reads at time=T. */
static const nsdae_expr *detection_guard(rr_ctx *c, nsdae_expr_pool *pool, const int *from, const int *to, int k)
{
    const nsdae_switch *w = &c->sw->sw[k];
    const nsdae_expr *g = NULL;
    nsdae_error err = {0};
    if (w->kind != NSDAE_SWITCH_IF_TIME)
        return nsdae_impulse_guard(c->m, c->sw, pool, from, to, &g, &err) == NSDAE_OK ? g : NULL;
    const nsdae_block *blk = nsdae_model_block(c->m, w->block);
    int b = from[k] < to[k] ? from[k] : to[k];
    return b < blk->nbranches - 1 ? nsdae_mode_switching_function(pool, blk->conds[b]) : NULL;
}

/* g and its time derivative at the --at state; 0 when g does not vanish there. */
static int vanishes_at(rr_ctx *c, nsdae_expr_pool *pool, const nsdae_expr *g, double *rate)
{
    const nsdae_expr *dg = NULL;
    nsdae_error err = {0};
    if (!g || nsdae_expr_dt(pool, g, &dg, &err) != NSDAE_OK) return 0;
    nsdae_eval_env env = {nsdae_model_param_values(c->m), nsdae_model_nparams(c->m), c->left, nsdae_model_nvars(c->m),
                          NSDAE_RESTART_MAX_ORDER, c->time};
    double gv = nsdae_expr_eval(g, &env), scale = 1 + fabs(c->time);
    *rate = nsdae_expr_eval(dg, &env);
    for (int i = 0; i < (NSDAE_RESTART_MAX_ORDER + 1) * nsdae_model_nvars(c->m); i++)
        if (fabs(c->left[i]) > scale) scale = fabs(c->left[i]);
    return fabs(gv) <= RR_GUARD_TOL * scale * scale;
}

/* A `when` firing at the --at state with no long change: its guard vanishes there and rises.
 * Sets from = to = the long mode (the first one from which it fires). */
static int lone_when_at(rr_ctx *c, int *from, int *to)
{
    const nsdae_switches *s = c->sw;
    nsdae_expr_pool *pool = NULL;
    nsdae_error err = {0};
    int hit = 0;
    if (nsdae_expr_pool_create_over(nsdae_model_pool(c->m), &pool, &err) != NSDAE_OK) return 0;
    nsdae_mode_first(s, from);
    for (int more = 1; more && !hit; more = nsdae_mode_next(s, from)) {
        if (rr_sliding(s, from)) continue;
        for (int w = s->ncode; w < s->n && !hit; w++) {
            const nsdae_expr *h = NULL;
            double rate = 0;
            if (!rr_when_fires(c, pool, from, from, w) || rr_fired_by_change(c, pool, from, w)) continue;
            hit = nsdae_impulse_when_guard(c->m, s, pool, from, w, &h, &err) == NSDAE_OK &&
                  vanishes_at(c, pool, h, &rate) && rate > 0;
        }
    }
    if (hit) memcpy(to, from, (size_t)s->n * sizeof *to);
    nsdae_expr_pool_destroy(pool);
    return hit;
}

static int crossing(rr_ctx *c, const int *from, const int *to)
{
    int k = 0;
    while (from[k] == to[k]) k++;
    const nsdae_switch *w = &c->sw->sw[k];
    nsdae_expr_pool *pool = NULL;
    nsdae_error err = {0};
    if (nsdae_expr_pool_create_over(nsdae_model_pool(c->m), &pool, &err) != NSDAE_OK) return 0;
    const nsdae_expr *g = detection_guard(c, pool, from, to, k), *dg = NULL;
    if (!g || nsdae_expr_dt(pool, g, &dg, &err) != NSDAE_OK) {
        nsdae_expr_pool_destroy(pool);
        return 0;
    }
    nsdae_eval_env env = {nsdae_model_param_values(c->m), nsdae_model_nparams(c->m), c->left, nsdae_model_nvars(c->m),
                          NSDAE_RESTART_MAX_ORDER, c->time};
    double gv = nsdae_expr_eval(g, &env), dv = nsdae_expr_eval(dg, &env), scale = 1 + fabs(c->time);
    nsdae_expr_pool_destroy(pool);
    for (int i = 0; i < (NSDAE_RESTART_MAX_ORDER + 1) * nsdae_model_nvars(c->m); i++)
        if (fabs(c->left[i]) > scale) scale = fabs(c->left[i]);
    if (!(fabs(gv) <= RR_GUARD_TOL * scale * scale)) return 0;
    /* a gap closes (a multiplier vanishes) from above; an `if` enters branch j < i as its condition
     * becomes true, leaves it as it becomes false */
    if (w->kind == NSDAE_SWITCH_COMPL) return dv < 0;
    if (w->kind == NSDAE_SWITCH_IF_STATE || w->kind == NSDAE_SWITCH_IF_TIME) return to[k] < from[k] ? dv > 0 : dv < 0;
    return 1;
}

static int detect(rr_ctx *c, const int *from, const int *to, void *data)
{
    found *f = data;
    if (!crossing(c, from, to)) return 0;
    char a[120], b[120];
    nsdae_mode_format(c->sw, from, a, sizeof a);
    nsdae_mode_format(c->sw, to, b, sizeof b);
    if (f->n == 0) {
        memcpy(f->from, from, (size_t)c->sw->n * sizeof *from);
        memcpy(f->to, to, (size_t)c->sw->n * sizeof *to);
        snprintf(f->first, sizeof f->first, "%s -> %s", a, b);
    } else if (f->n == 1) {
        snprintf(f->second, sizeof f->second, "%s -> %s", a, b);
    }
    f->n++;
    return 0;
}

/* The change of a numeric restart: the request's codes, or the one crossing at the state. */
nsdae_status rr_pick_change(rr_ctx *c, int *from, int *to, nsdae_error *err)
{
    if (c->from || c->to) {
        if (!c->from || !c->to)
            return nsdae_error_set(err, NSDAE_INVALID_INPUT, "restart: give both from and to modes (or neither: the "
                                   "change is then found at the left limits)");
        /* the parser's own message, prefixed: formatting err->message into itself overlaps */
        nsdae_error parse = {0};
        if (nsdae_mode_parse(c->sw, c->from, from, &parse) || nsdae_mode_parse(c->sw, c->to, to, &parse))
            return nsdae_error_set(err, NSDAE_INVALID_INPUT, "restart: %s", parse.message);
        return NSDAE_OK;
    }
    found f = {0, from, to, "", ""};
    if (rr_for_each_change(c, detect, &f)) return nsdae_error_set(err, NSDAE_NOMEM, "restart: out of memory");
    if (f.n == 1 || (f.n == 0 && lone_when_at(c, from, to))) return NSDAE_OK;
    if (f.n == 0)
        return nsdae_error_set(err, NSDAE_NO_SOLUTION, "restart: no guard or contact gap is being crossed at the left "
                               "limits");
    return nsdae_error_set(err, NSDAE_NO_SOLUTION, "restart: %d changes are possible at the left limits (%s, %s%s)",
                           f.n, f.first, f.second, f.n > 2 ? ", ..." : "");
}
