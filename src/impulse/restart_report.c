/* The restart report (nsdae/restart_report.h): each mode change analysed (nsdae/impulse.h) and
 * written as JSON or as the command's text: heading, status, K, impulse orders, restart equations,
 * undetermined states, diagnostics, and with left limits the numeric restart (restart values,
 * impulses, the complementarity sign check, the labelled brute force where rescaling fails). Which
 * changes: restart_changes.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impulse/restart_report_internal.h"


static void json_string(rt_text *o, const char *s)
{
    rt_putc(o, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') rt_printf(o, "\\%c", *s);
        else if ((unsigned char)*s < 0x20) rt_printf(o, "\\u%04x", (unsigned)(unsigned char)*s);
        else rt_putc(o, *s);
    }
    rt_putc(o, '"');
}

static void json_number(rt_text *o, double v)
{
    if (isfinite(v)) rt_printf(o, "%.17g", v);
    else rt_puts(o, "null");
}

/* The name of state (var, order): der(der(x)). */
static void state_name(const nsdae_model *m, int var, int order, char *buf, size_t size)
{
    size_t k = 0;
    for (int i = 0; i < order && k + 4 < size; i++) k += (size_t)snprintf(buf + k, size - k, "der(");
    k += (size_t)snprintf(buf + k, k < size ? size - k : 0, "%s", nsdae_model_var(m, var)->name);
    for (int i = 0; i < order && k + 1 < size; i++) buf[k++] = ')', buf[k] = 0;
}

static void json_names(rt_text *o, const char *key, char *const *names, int n)
{
    rt_printf(o, ", \"%s\": [", key);
    for (int i = 0; i < n; i++) {
        if (i) rt_puts(o, ", ");
        json_string(o, names[i]);
    }
    rt_putc(o, ']');
}

static void print_json_analysis(rr_ctx *c, const nsdae_impulse_result *r)
{
    rt_text *o = &c->out;
    rt_puts(o, ", \"diagnostics\": [");
    for (int i = 0; i < r->ndiags; i++) {
        rt_printf(o, "%s{\"code\": \"%s\", \"message\": ", i ? ", " : "", r->diags[i].code);
        json_string(o, r->diags[i].message);
        json_names(o, "equations", r->diags[i].equations, r->diags[i].nequations);
        json_names(o, "variables", r->diags[i].variables, r->diags[i].nvariables);
        rt_putc(o, '}');
    }
    rt_printf(o, "], \"height\": %d, \"impulse_orders\": {", r->height);
    for (int i = 0, first = 1; i < r->navars; i++)
        if (r->avars[i].mu > 0) {
            rt_printf(o, "%s", first ? "" : ", ");
            json_string(o, r->avars[i].name);
            rt_printf(o, ": %d", r->avars[i].mu), first = 0;
        }
    rt_putc(o, '}');
    json_names(o, "restart_equations", r->restart_equations, r->nrestart_equations);
    rt_puts(o, ", \"undetermined\": [");
    for (int k = 0, first = 1; k < r->nstates; k++)
        if (!r->states[k].determined) {
            char name[256];
            state_name(c->m, r->states[k].var, r->states[k].order, name, sizeof name);
            rt_printf(o, "%s", first ? "" : ", ");
            json_string(o, name), first = 0;
        }
    rt_putc(o, ']');
}

static void print_text_analysis(rr_ctx *c, const nsdae_impulse_result *r)
{
    rt_text *o = &c->out;
    rt_printf(o, "  height K = %d (searched in [%d, %d])\n", r->height, r->height_lo, r->height_hi);
    rt_puts(o, "  impulse orders:");
    int any = 0;
    for (int i = 0; i < r->navars; i++)
        if (r->avars[i].mu > 0) rt_printf(o, " %s %d;", r->avars[i].name, r->avars[i].mu), any = 1;
    rt_line(o, any ? "" : " none (no impulse)");
    if (r->nrestart_equations) rt_line(o, "  restart equations:");
    for (int i = 0; i < r->nrestart_equations; i++) rt_printf(o, "    %s\n", r->restart_equations[i]);
    for (int k = 0; k < r->nstates; k++)
        if (!r->states[k].determined) {
            char name[256];
            state_name(c->m, r->states[k].var, r->states[k].order, name, sizeof name);
            rt_printf(o, "  undetermined: %s\n", name);
        }
    for (int i = 0; i < r->ndiags; i++) rt_printf(o, "  %s: %s\n", r->diags[i].code, r->diags[i].message);
}

/* The sign the complementarity requires (issue 10): a contact closing between from and to (or
 * through the transient) takes a percussion of its multiplier b >= 0; a negative one means the
 * closed mode is not the new mode (the gap was opening). Checked when b is one unknown. Writes the
 * reason and returns 1 when violated. */
static int negative_percussion(rr_ctx *c, const nsdae_impulse_result *r, const int *from, const int *to,
                               const double *aux, char *why, size_t size)
{
    for (int k = 0; k < c->sw->ncode; k++) {
        const nsdae_switch *w = &c->sw->sw[k];
        if (w->kind != NSDAE_SWITCH_COMPL || from[k] != 1 || to[k] != 0) continue;
        const nsdae_expr *b = nsdae_model_equation(c->m, w->equation)->b;
        for (int a = 0; a < r->navars; a++) {
            const nsdae_impulse_avar *v = &r->avars[a];
            if (v->role != NSDAE_IMPULSE_HEAD || v->order != 0 || v->shift != 0 || isnan(aux[a]) ||
                b->kind != NSDAE_EXPR_VAR || b->index != v->var || b->order != 0 || aux[a] >= 0)
                continue;
            snprintf(why, size, "the percussion of %s is %.6g < 0: the contact of line %d would pull, so the closed "
                                "mode is not the new mode (the gap is opening)",
                     nsdae_model_var(c->m, v->var)->name, aux[a], w->pos.line);
            return 1;
        }
    }
    return 0;
}

/* The members "state": restart value, ... of every state of r (plus: r->nstates values). */
static void json_states(rr_ctx *c, const nsdae_impulse_result *r, const double *plus)
{
    for (int k = 0; k < r->nstates; k++) {
        char name[256];
        state_name(c->m, r->states[k].var, r->states[k].order, name, sizeof name);
        rt_printf(&c->out, "%s", k ? ", " : "");
        json_string(&c->out, name);
        rt_puts(&c->out, ": ");
        json_number(&c->out, plus[k]);
    }
}

/* Digest 4.2 item 9: where rescaling fails (D4) the unscaled array at a small eps still gives the
 * restart values up to O(eps) (Benveniste et al. 2021, section 2.5.3), ill-conditioned as eps -> 0.
 * Printed under its own key and label so that it is never taken for the structural restart. */
#define RESTART_BRUTE_EPS 1e-6

static int print_brute_force(rr_ctx *c, const nsdae_impulse_result *r)
{
    rt_text *o = &c->out;
    double *plus = calloc((size_t)r->nstates + 1, sizeof *plus);
    nsdae_impulse_numeric num = {0};
    nsdae_error err = {0};
    static const char label[] = "brute force (not a structural restart): the unscaled mode change array solved at a "
                                "finite eps, accurate to O(eps) and ill-conditioned as eps -> 0";
    int rc = !plus ||
             nsdae_impulse_brute_force(r, c->left, NSDAE_RESTART_MAX_ORDER, RESTART_BRUTE_EPS, plus, NULL, &num, &err);
    if (c->json) {
        rt_puts(o, ", \"brute_force\": {\"label\": ");
        json_string(o, label);
        rt_printf(o, ", \"eps\": %g, \"restart\": {", RESTART_BRUTE_EPS);
        if (!rc) json_states(c, r, plus);
        rt_putc(o, '}');
        if (rc) rt_puts(o, ", \"error\": "), json_string(o, plus ? err.message : "out of memory");
        rt_putc(o, '}');
    } else if (rc) {
        rt_printf(o, "  brute force at eps = %g failed: %s\n", RESTART_BRUTE_EPS, plus ? err.message : "out of memory");
    } else {
        rt_printf(o, "  %s (eps = %g):\n", label, RESTART_BRUTE_EPS);
        for (int k = 0; k < r->nstates; k++) {
            char name[256];
            state_name(c->m, r->states[k].var, r->states[k].order, name, sizeof name);
            rt_printf(o, "    %s = %.15g\n", name, plus[k]);
        }
    }
    free(plus);
    return rc;
}

/* The restart values and impulses at c->left: "restart": {state: value}, "impulses": {var: value}
 * (the rescaled multipliers at t*, e.g. the rope's percussion). Returns 0 or 1 (restart failed:
 * *status says numerically-singular when D7). */
static int print_numeric(rr_ctx *c, const nsdae_impulse_result *r, const int *from, const int *to,
                         const char **status)
{
    rt_text *o = &c->out;
    if (!r->system && r->brute && r->verdict == NSDAE_IMPULSE_NOT_RESCALABLE) return print_brute_force(c, r);
    double *plus = calloc((size_t)r->nstates + 1, sizeof *plus), *aux = calloc((size_t)r->navars + 1, sizeof *aux);
    nsdae_impulse_numeric num = {0};
    nsdae_error err = {0};
    char why[512];
    int rc = !plus || !aux || !r->system;
    if (!rc &&
        nsdae_impulse_restart_at(r, c->left, NSDAE_RESTART_MAX_ORDER, c->time, plus, aux, &num, &err) != NSDAE_OK)
        rc = 1;
    if (num.singular) *status = "numerically-singular";
    if (c->json) {
        rt_printf(o, ", \"restart\": {");
        if (!rc) json_states(c, r, plus);
        rt_printf(o, "}, \"impulses\": {");
        for (int a = 0, first = 1; !rc && a < r->navars; a++) {
            const nsdae_impulse_avar *v = &r->avars[a];
            if (v->role != NSDAE_IMPULSE_HEAD || v->order != 0 || v->shift != 0 || v->mu != 1 || isnan(aux[a]))
                continue;
            rt_printf(o, "%s", first ? "" : ", ");
            json_string(o, nsdae_model_var(c->m, v->var)->name);
            rt_puts(o, ": ");
            json_number(o, aux[a]), first = 0;
        }
        rt_putc(o, '}');
        if (rc) rt_printf(o, ", \"restart_error\": "), json_string(o, r->system ? err.message : "no restart system");
        if (!rc && negative_percussion(c, r, from, to, aux, why, sizeof why))
            rt_printf(o, ", \"sign_error\": "), json_string(o, why);
    } else if (rc) {
        rt_printf(o, "  numeric restart failed: %s\n",
                  r->system ? err.message : "no restart system (see the diagnostics)");
    } else {
        for (int k = 0; k < r->nstates; k++) {
            char name[256];
            state_name(c->m, r->states[k].var, r->states[k].order, name, sizeof name);
            rt_printf(o, "  restart %s = %.15g\n", name, plus[k]);
        }
        for (int a = 0; a < r->navars; a++) {
            const nsdae_impulse_avar *v = &r->avars[a];
            if (v->role == NSDAE_IMPULSE_HEAD && v->order == 0 && v->shift == 0 && v->mu == 1 && !isnan(aux[a]))
                rt_printf(o, "  impulse %s = %.15g\n", nsdae_model_var(c->m, v->var)->name, aux[a]);
        }
        if (num.nonlinear)
            rt_line(o, "  note: the restart system is nonlinear: its solution is only locally unique (Newton from the "
                       "left limits picked this one)");
        if (negative_percussion(c, r, from, to, aux, why, sizeof why)) rt_printf(o, "  sign error: %s\n", why);
    }
    free(plus);
    free(aux);
    return rc;
}

/* Heading of a transition (from -> [via ->] to); text mode adds the modes in words. */
static void print_heading(rr_ctx *c, const int *from, const int *via, int via_when, const int *to)
{
    rt_text *o = &c->out;
    char a[128], v[128] = "", b[128];
    nsdae_mode_format(c->sw, from, a, sizeof a);
    if (via) nsdae_mode_format(c->sw, via, v, sizeof v);
    nsdae_mode_format(c->sw, to, b, sizeof b);
    if (c->json) {
        rt_printf(o, "%s\n    {\"from\": ", c->printed ? "," : "");
        json_string(o, a);
        rt_puts(o, ", \"to\": ");
        json_string(o, b);
        rt_puts(o, ", \"via\": [");
        if (via) json_string(o, v);
        rt_putc(o, ']');
    } else {
        char *la = NULL, *lb = NULL;
        nsdae_error err = {0};
        nsdae_mode_label(c->m, c->sw, from, &la, &err);
        nsdae_mode_label(c->m, c->sw, via ? via : to, &lb, &err);
        char *lt = NULL;
        if (via && via_when) nsdae_mode_label(c->m, c->sw, to, &lt, &err);
        if (via && via_when)
            rt_printf(o, "%s%s -> %s -> %s (%s -> transient: %s -> %s)\n", c->printed ? "\n" : "", a, v, b,
                      la ? la : "?", lb ? lb : "?", lt ? lt : "?");
        else if (via)
            rt_printf(o, "%s%s -> %s -> %s (%s -> transient: %s with Newton's law -> %s)\n", c->printed ? "\n" : "", a,
                      v, b, la ? la : "?", lb ? lb : "?", la ? la : "?");
        else rt_printf(o, "%s%s -> %s (%s -> %s)\n", c->printed ? "\n" : "", a, b, la ? la : "?", lb ? lb : "?");
        free(la);
        free(lb);
        free(lt);
    }
    c->printed++;
}

/* Analyses the change from -> to and writes it (with the numeric restart under left limits): 0, or
 * RR_NOMEM. A failed numeric restart sets c->restart_failed and the report goes on. */
static int one_change(rr_ctx *c, const int *from, const int *to, int when)
{
    rt_text *o = &c->out;
    nsdae_error err = {0};
    nsdae_impulse_input in;
    nsdae_impulse_modes *store = NULL;
    nsdae_impulse_result *r = NULL;
    nsdae_impulse_options opt = {c->height};
    nsdae_expr_pool *pool = NULL; /* the analysis' expressions, over the model's read-only pool */
    int elastic = when >= 0 ? -1 : rr_elastic_closing(c, from, to);
    int *via = calloc((size_t)c->sw->n + 1, sizeof *via);
    nsdae_status st = via ? nsdae_expr_pool_create_over(nsdae_model_pool(c->m), &pool, &err)
                          : nsdae_error_set(&err, NSDAE_NOMEM, "out of memory");
    if (!st && when >= 0) memcpy(via, to, (size_t)c->sw->n * sizeof *via), via[when] = 1;
    if (!st) st = rr_change_input(c, from, to, elastic, via, when, pool, &in, &store, &err);
    if (!st) st = nsdae_impulse_analyze(&in, &opt, &r, &err);
    if (when >= 0) print_heading(c, from, via, 1, to);
    else print_heading(c, from, elastic >= 0 ? to : NULL, 0, elastic >= 0 ? from : to);
    free(via);
    int rc = st == NSDAE_NOMEM ? RR_NOMEM : 0;
    if (st && c->left) c->restart_failed = 1;
    if (st) {
        if (c->json) rt_puts(o, ", \"status\": \"error\", \"message\": "), json_string(o, err.message), rt_putc(o, '}');
        else rt_printf(o, "  status: error: %s\n", err.message);
    } else {
        const char *status = nsdae_impulse_verdict_name(r->verdict);
        if (c->json) {
            print_json_analysis(c, r);
            if (c->left && print_numeric(c, r, from, to, &status)) c->restart_failed = 1;
            rt_puts(o, ", \"status\": "), json_string(o, status), rt_putc(o, '}');
        } else {
            rt_printf(o, "  status: %s\n", status);
            print_text_analysis(c, r);
            if (c->left && print_numeric(c, r, from, to, &status)) c->restart_failed = 1;
            if (c->left && !strcmp(status, "numerically-singular")) rt_line(o, "  status: numerically-singular (D7)");
        }
    }
    nsdae_impulse_result_destroy(r);
    nsdae_impulse_modes_destroy(store);
    nsdae_expr_pool_destroy(pool);
    return rc;
}

/* ---- which changes ----------------------------------------------------------------------- */

static int print_change(rr_ctx *c, const int *from, const int *to, void *data)
{
    (void)data;
    return one_change(c, from, to, rr_firing_when(c, from, to));
}

/* Every `when` that fires with no long change, from every long mode: prev -> [prev, fired] -> prev. */
static int print_lone_whens(rr_ctx *c)
{
    const nsdae_switches *s = c->sw;
    int *from = calloc((size_t)s->n + 1, sizeof *from), rc = from ? 0 : RR_NOMEM;
    nsdae_expr_pool *pool = NULL;
    nsdae_error err = {0};
    if (!rc && nsdae_expr_pool_create_over(nsdae_model_pool(c->m), &pool, &err) != NSDAE_OK) rc = RR_NOMEM;
    if (!rc) nsdae_mode_first(s, from);
    for (int more = !rc; more && !rc; more = nsdae_mode_next(s, from)) {
        if (rr_sliding(s, from)) continue;
        for (int w = s->ncode; w < s->n && !rc; w++)
            if (rr_when_fires(c, pool, from, from, w) && !rr_fired_by_change(c, pool, from, w))
                rc = one_change(c, from, from, w);
    }
    nsdae_expr_pool_destroy(pool);
    free(from);
    return rc;
}

static nsdae_status report(rr_ctx *c, nsdae_error *err)
{
    rt_text *o = &c->out;
    int *from = calloc((size_t)c->sw->n + 1, sizeof *from), *to = calloc((size_t)c->sw->n + 1, sizeof *to);
    nsdae_status st = from && to ? NSDAE_OK : nsdae_error_set(err, NSDAE_NOMEM, "restart: out of memory");
    if (!st && c->left) st = rr_pick_change(c, from, to, err);
    double total = nsdae_mode_count(c->sw);
    if (!st && !c->left && total > NSDAE_RESTART_ALL_LIMIT)
        st = nsdae_error_set(err, NSDAE_LIMIT, "restart: %.0f long modes (more than %.0f)", total,
                             NSDAE_RESTART_ALL_LIMIT);
    if (!st) {
        if (c->json)
            rt_puts(o, "{\"model\": "), json_string(o, nsdae_model_name(c->m)), rt_puts(o, ", \"transitions\": [");
        else rt_printf(o, "model %s: %.0f long mode%s, %d switch%s\n\n", nsdae_model_name(c->m), total,
                       total == 1 ? "" : "s", c->sw->ncode, c->sw->ncode == 1 ? "" : "es");
        int rc = 0;
        if (c->left) rc = one_change(c, from, to, rr_firing_when(c, from, to));
        else if (!(rc = rr_for_each_change(c, print_change, NULL))) rc = print_lone_whens(c);
        if (c->json) rt_line(o, "\n]}");
        else if (!c->printed) rt_line(o, "no mode change (the model has one long mode)");
        if (rc || c->out.nomem) st = nsdae_error_set(err, NSDAE_NOMEM, "restart: out of memory for the report");
    }
    free(from);
    free(to);
    return st;
}

nsdae_status nsdae_restart_report(const nsdae_model *m, const nsdae_restart_request *req, char **out,
                                  int *restart_failed, nsdae_error *err)
{
    if (out) *out = NULL;
    if (restart_failed) *restart_failed = 0;
    if (!m || !req || !out) return nsdae_error_set(err, NSDAE_INVALID_INPUT, "restart: no model, request or output");
    if ((req->from || req->to) && !req->left)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "restart: from and to name the change of a numeric restart: "
                               "give the left limits too");
    rr_ctx c = {0};
    c.m = m, c.from = req->from, c.to = req->to, c.left = req->left, c.time = req->time;
    c.height = req->height < 0 ? -1 : req->height, c.json = !req->text;
    nsdae_status st = nsdae_mode_switches(m, &c.sw, err);
    if (!st) st = report(&c, err);
    nsdae_mode_switches_destroy(c.sw);
    if (!st && !(*out = rt_take(&c.out)))
        st = nsdae_error_set(err, NSDAE_NOMEM, "restart: out of memory for the report");
    rt_free(&c.out);
    if (!st && restart_failed) *restart_failed = c.restart_failed;
    return st;
}

void nsdae_restart_report_free(char *report)
{
    free(report);
}
