/* nsdae restart MODEL [--param NAME=VALUE]... [--json] [--at NAME=VALUE,... [--from MODE] [--to MODE]]:
 * the restart analysis (Benveniste et al. 2026) of every mode change of a model, or the numeric restart
 * of one mode change at a given left-limit state. The analysis itself is the library's
 * (nsdae/impulse.h); this file enumerates the changes, reads the state and prints. */
#include "cli/commands.h"
#include "cli/model_source.h"
#include "cli/options.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nsdae/impulse.h>
#include <nsdae/mode.h>

/* Enumerate every change when there are at most this many long modes (issue 10). */
#define RESTART_ALL_LIMIT 4096.0
/* Left limits are read up to this derivative order (der(der(der(x)))): enough for second-order
 * mechanics and their differentiated constraints. */
#define RESTART_MAX_ORDER 3
/* A guard counts as crossing at the --at state when |g| is below this (relative to 1 + |terms|). */
#define RESTART_GUARD_TOL 1e-8

static void usage(FILE *out)
{
    fputs("usage: nsdae restart MODEL [--param NAME=VALUE[,NAME=VALUE...]]... [--json]\n"
          "       nsdae restart MODEL --at NAME=VALUE[,NAME=VALUE...] [--from MODE] [--to MODE] [--json]\n"
          "       (both forms take --height K)\n"
          "\n"
          "Restart analysis of mode changes (Benveniste et al. 2026): for every change between two long modes that\n"
          "differ in one switch (a state guard crossing, a complementarity closing or opening, an\n"
          "exogenous 'if' on time), the mode change array, its height K, the impulse order of every\n"
          "impulsive variable, Procedure 1's restart equations relating the restart values to the left\n"
          "limits, and, when the model does not determine the restart, the diagnostics D1-D8 naming the\n"
          "equations and variables involved. Sliding (relaxed) modes are not restart modes.\n"
          "\n"
          "With --at, the numeric restart of one change at a left-limit state: the restart value of every\n"
          "state and the impulses (integrals of the impulsive multipliers). The change is --from -> --to\n"
          "when given, otherwise the one change whose guard vanishes at the state and is being crossed\n"
          "(a contact gap closing, a guard becoming true or false, time reaching an exogenous switch).\n"
          "\n"
          "options:\n"
          "  --param NAME=VALUE[,NAME=VALUE...]  override parameters (repeatable)\n"
          "  --example NAME     a built-in example: accepted as everywhere, but a built-in is a system\n"
          "                     without equations, and the restart analysis needs equations\n"
          "  --at NAME=VALUE[,...]  left limits: x=.., der(x)=.., der(der(x))=.., time=..; values not\n"
          "                     given are 0. They must satisfy the facts the analysis assumed (the guard\n"
          "                     at 0, the previous mode's equations): else no restart, the fact named\n"
          "  --from MODE, --to MODE  the change, as codes of 'nsdae analyze --mode' (e.g. 1 and 0)\n"
          "  --height K         analyse the array at height K only (default: search [K_*, K^*])\n"
          "  --json             JSON report: {\"model\", \"transitions\": [{\"from\", \"to\", \"via\",\n"
          "                     \"status\", \"diagnostics\", \"height\", \"impulse_orders\",\n"
          "                     \"restart_equations\", \"undetermined\", \"restart\", \"impulses\",\n"
          "                     \"sign_error\" (a closing contact that would need a negative percussion),\n"
          "                     \"brute_force\" (not-rescalable: the unscaled array at small eps)}]}\n"
          "  -h, --help         this text\n"
          "\n"
          "status: ok, partial, underdetermined, inconsistent, not-rescalable, impulsive-state,\n"
          "singular-mode, numerically-singular (--at), error (the change cannot be analysed: why).\n"
          "exit status: 0 done, 1 model error or failed numeric restart, 2 bad usage\n",
          out);
}

enum { OPT_PARAM = CLI_OPT_BASE, OPT_EXAMPLE, OPT_JSON, OPT_AT, OPT_FROM, OPT_TO, OPT_HEIGHT };

static const struct option long_options[] = {
    {"param", required_argument, NULL, OPT_PARAM}, {"example", required_argument, NULL, OPT_EXAMPLE},
    {"json", no_argument, NULL, OPT_JSON},         {"at", required_argument, NULL, OPT_AT},
    {"from", required_argument, NULL, OPT_FROM},   {"to", required_argument, NULL, OPT_TO},
    {"height", required_argument, NULL, OPT_HEIGHT},
    {"help", no_argument, NULL, 'h'},              {NULL, 0, NULL, 0},
};

typedef struct restart_cmd {
    model_source src;
    int json;
    const char *at, *from, *to;
    int height;         /* --height K, or -1: search */
    /* filled after loading */
    const nsdae_model *m;
    nsdae_switches *sw;
    double *left;       /* (RESTART_MAX_ORDER + 1) x nvars, or NULL without --at */
    double time;
    int printed;        /* transitions printed so far */
} restart_cmd;

/* --height K: a whole number in [0, 64] (the array grows as K times the equations). */
static int parse_height(const char *value, int *height)
{
    double v;
    if (!cli_parse_double(value, &v) || v != floor(v) || v < 0 || v > 64)
        return cli_bad_value("restart", "--height", value, "a whole number in [0, 64]");
    *height = (int)v;
    return 0;
}

static int parse(int argc, char **argv, restart_cmd *c)
{
    const char *value;
    int code, first, rc = 0;
    cli_options_begin();
    while (!rc && (code = cli_options_next("restart", argc, argv, "h", long_options, &value, &first)) != CLI_OPT_END) {
        if (code == 'h') {
            usage(stdout);
            return -1;
        }
        if (code == OPT_PARAM) rc = cli_params_add(&c->src.params, "restart", value);
        else if (code == OPT_EXAMPLE) c->src.example = value;
        else if (code == OPT_JSON) c->json = 1;
        else if (code == OPT_AT) c->at = value;
        else if (code == OPT_FROM) c->from = value;
        else if (code == OPT_TO) c->to = value;
        else if (code == OPT_HEIGHT) rc = parse_height(value, &c->height);
        else rc = CLI_USAGE;
    }
    if (!rc && first + 1 < argc) {
        fprintf(stderr, "nsdae restart: one model only ('%s' and '%s')\n", argv[first], argv[first + 1]);
        rc = CLI_USAGE;
    }
    if (!rc && (c->from || c->to) && !c->at) {
        fputs("nsdae restart: --from and --to name the change of a numeric restart: give --at too\n", stderr);
        rc = CLI_USAGE;
    }
    if (!rc && first < argc) c->src.path = argv[first];
    return rc;
}

/* ---- the left-limit state ---------------------------------------------------------------- */

/* "der(der(x))" -> variable of x, order 2; -1 when no such variable. */
static int leaf_of(const nsdae_model *m, const char *name, size_t len, int *order)
{
    char buf[256];
    *order = 0;
    while (len > 5 && !strncmp(name, "der(", 4) && name[len - 1] == ')') name += 4, len -= 5, ++*order;
    if (len >= sizeof buf) return -1;
    memcpy(buf, name, len);
    buf[len] = 0;
    return nsdae_model_find_var(m, buf);
}

/* Parses --at into c->left and c->time. Returns 0 or CLI_USAGE after printing. */
static int parse_at(restart_cmd *c)
{
    int n = nsdae_model_nvars(c->m);
    c->left = calloc((size_t)(RESTART_MAX_ORDER + 1) * (size_t)n + 1, sizeof *c->left);
    if (!c->left) {
        fputs("nsdae restart: out of memory\n", stderr);
        return 1;
    }
    for (const char *p = c->at; *p;) {
        const char *end = strchr(p, ','), *eq = strchr(p, '=');
        if (!end) end = p + strlen(p);
        if (!eq || eq > end) return cli_bad_value("restart", "--at", c->at, "each item is NAME=VALUE");
        char num[64];
        size_t vl = (size_t)(end - eq - 1);
        double v;
        if (vl >= sizeof num) return cli_bad_value("restart", "--at", c->at, "a value is too long");
        memcpy(num, eq + 1, vl);
        num[vl] = 0;
        if (!cli_parse_double(num, &v)) return cli_bad_value("restart", "--at", c->at, "a value is not a number");
        int order, j;
        if ((size_t)(eq - p) == 4 && !strncmp(p, "time", 4)) c->time = v;
        else if ((j = leaf_of(c->m, p, (size_t)(eq - p), &order)) < 0 || order > RESTART_MAX_ORDER)
            return cli_bad_value("restart", "--at", c->at, "a name is not a variable (or der(...) of one, order <= 3)");
        else c->left[order * n + j] = v;
        p = *end ? end + 1 : end;
    }
    return 0;
}

/* ---- printing ---------------------------------------------------------------------------- */

static void json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20) printf("\\u%04x", (unsigned)(unsigned char)*s);
        else putchar(*s);
    }
    putchar('"');
}

static void json_number(double v)
{
    if (isfinite(v)) printf("%.17g", v);
    else fputs("null", stdout);
}

/* The name of state (var, order): der(der(x)). */
static void state_name(const nsdae_model *m, int var, int order, char *buf, size_t size)
{
    size_t k = 0;
    for (int i = 0; i < order && k + 4 < size; i++) k += (size_t)snprintf(buf + k, size - k, "der(");
    k += (size_t)snprintf(buf + k, k < size ? size - k : 0, "%s", nsdae_model_var(m, var)->name);
    for (int i = 0; i < order && k + 1 < size; i++) buf[k++] = ')', buf[k] = 0;
}

static void json_names(const char *key, char *const *names, int n)
{
    printf(", \"%s\": [", key);
    for (int i = 0; i < n; i++) {
        if (i) fputs(", ", stdout);
        json_string(names[i]);
    }
    putchar(']');
}

static void print_json_analysis(const restart_cmd *c, const nsdae_impulse_result *r)
{
    fputs(", \"diagnostics\": [", stdout);
    for (int i = 0; i < r->ndiags; i++) {
        printf("%s{\"code\": \"%s\", \"message\": ", i ? ", " : "", r->diags[i].code);
        json_string(r->diags[i].message);
        json_names("equations", r->diags[i].equations, r->diags[i].nequations);
        json_names("variables", r->diags[i].variables, r->diags[i].nvariables);
        putchar('}');
    }
    printf("], \"height\": %d, \"impulse_orders\": {", r->height);
    for (int i = 0, first = 1; i < r->navars; i++)
        if (r->avars[i].mu > 0) {
            printf("%s", first ? "" : ", ");
            json_string(r->avars[i].name);
            printf(": %d", r->avars[i].mu), first = 0;
        }
    putchar('}');
    json_names("restart_equations", r->restart_equations, r->nrestart_equations);
    fputs(", \"undetermined\": [", stdout);
    for (int k = 0, first = 1; k < r->nstates; k++)
        if (!r->states[k].determined) {
            char name[256];
            state_name(c->m, r->states[k].var, r->states[k].order, name, sizeof name);
            printf("%s", first ? "" : ", ");
            json_string(name), first = 0;
        }
    putchar(']');
}

static void print_text_analysis(const restart_cmd *c, const nsdae_impulse_result *r)
{
    printf("  height K = %d (searched in [%d, %d])\n", r->height, r->height_lo, r->height_hi);
    fputs("  impulse orders:", stdout);
    int any = 0;
    for (int i = 0; i < r->navars; i++)
        if (r->avars[i].mu > 0) printf(" %s %d;", r->avars[i].name, r->avars[i].mu), any = 1;
    puts(any ? "" : " none (no impulse)");
    if (r->nrestart_equations) puts("  restart equations:");
    for (int i = 0; i < r->nrestart_equations; i++) printf("    %s\n", r->restart_equations[i]);
    for (int k = 0; k < r->nstates; k++)
        if (!r->states[k].determined) {
            char name[256];
            state_name(c->m, r->states[k].var, r->states[k].order, name, sizeof name);
            printf("  undetermined: %s\n", name);
        }
    for (int i = 0; i < r->ndiags; i++) printf("  %s: %s\n", r->diags[i].code, r->diags[i].message);
}

/* The sign the complementarity requires (issue 10): a contact closing between from and to (or
 * through the transient) takes a percussion of its multiplier b >= 0; a negative one means the
 * closed mode is not the new mode (the gap was opening). Checked when b is one unknown. Writes the
 * reason and returns 1 when violated. */
static int negative_percussion(const restart_cmd *c, const nsdae_impulse_result *r, const int *from, const int *to,
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

/* Digest 4.2 item 9: where rescaling fails (D4) the unscaled array at a small eps still gives the
 * restart values up to O(eps) (Benveniste et al. 2021, section 2.5.3), ill-conditioned as eps -> 0.
 * Printed under its own key and label so that it is never taken for the structural restart. */
#define RESTART_BRUTE_EPS 1e-6

static int print_brute_force(const restart_cmd *c, const nsdae_impulse_result *r)
{
    double *plus = calloc((size_t)r->nstates + 1, sizeof *plus);
    nsdae_impulse_numeric num = {0};
    nsdae_error err = {0};
    static const char label[] = "brute force (not a structural restart): the unscaled mode change array solved at a "
                                "finite eps, accurate to O(eps) and ill-conditioned as eps -> 0";
    int rc = !plus || nsdae_impulse_brute_force(r, c->left, RESTART_MAX_ORDER, RESTART_BRUTE_EPS, plus, NULL, &num, &err);
    if (c->json) {
        fputs(", \"brute_force\": {\"label\": ", stdout);
        json_string(label);
        printf(", \"eps\": %g, \"restart\": {", RESTART_BRUTE_EPS);
        for (int k = 0; !rc && k < r->nstates; k++) {
            char name[256];
            state_name(c->m, r->states[k].var, r->states[k].order, name, sizeof name);
            printf("%s", k ? ", " : "");
            json_string(name);
            fputs(": ", stdout);
            json_number(plus[k]);
        }
        putchar('}');
        if (rc) fputs(", \"error\": ", stdout), json_string(plus ? err.message : "out of memory");
        putchar('}');
    } else if (rc) {
        printf("  brute force at eps = %g failed: %s\n", RESTART_BRUTE_EPS, plus ? err.message : "out of memory");
    } else {
        printf("  %s (eps = %g):\n", label, RESTART_BRUTE_EPS);
        for (int k = 0; k < r->nstates; k++) {
            char name[256];
            state_name(c->m, r->states[k].var, r->states[k].order, name, sizeof name);
            printf("    %s = %.15g\n", name, plus[k]);
        }
    }
    free(plus);
    return rc;
}

/* The restart values and impulses at c->left: "restart": {state: value}, "impulses": {var: value}
 * (the rescaled multipliers at t*, e.g. the rope's percussion). Returns 0 or 1 (restart failed:
 * *status says numerically-singular when D7). */
static int print_numeric(const restart_cmd *c, const nsdae_impulse_result *r, const int *from, const int *to,
                         const char **status)
{
    if (!r->system && r->brute && r->verdict == NSDAE_IMPULSE_NOT_RESCALABLE) return print_brute_force(c, r);
    double *plus = calloc((size_t)r->nstates + 1, sizeof *plus), *aux = calloc((size_t)r->navars + 1, sizeof *aux);
    nsdae_impulse_numeric num = {0};
    nsdae_error err = {0};
    char why[512];
    int rc = !plus || !aux || !r->system;
    if (!rc && nsdae_impulse_restart_at(r, c->left, RESTART_MAX_ORDER, c->time, plus, aux, &num, &err) != NSDAE_OK) rc = 1;
    if (num.singular) *status = "numerically-singular";
    if (c->json) {
        printf(", \"restart\": {");
        for (int k = 0; !rc && k < r->nstates; k++) {
            char name[256];
            state_name(c->m, r->states[k].var, r->states[k].order, name, sizeof name);
            printf("%s", k ? ", " : "");
            json_string(name);
            fputs(": ", stdout);
            json_number(plus[k]);
        }
        printf("}, \"impulses\": {");
        for (int a = 0, first = 1; !rc && a < r->navars; a++) {
            const nsdae_impulse_avar *v = &r->avars[a];
            if (v->role != NSDAE_IMPULSE_HEAD || v->order != 0 || v->shift != 0 || v->mu != 1 || isnan(aux[a])) continue;
            printf("%s", first ? "" : ", ");
            json_string(nsdae_model_var(c->m, v->var)->name);
            fputs(": ", stdout);
            json_number(aux[a]), first = 0;
        }
        putchar('}');
        if (rc) printf(", \"restart_error\": "), json_string(r->system ? err.message : "no restart system");
        if (!rc && negative_percussion(c, r, from, to, aux, why, sizeof why)) printf(", \"sign_error\": "), json_string(why);
    } else if (rc) {
        printf("  numeric restart failed: %s\n", r->system ? err.message : "no restart system (see the diagnostics)");
    } else {
        for (int k = 0; k < r->nstates; k++) {
            char name[256];
            state_name(c->m, r->states[k].var, r->states[k].order, name, sizeof name);
            printf("  restart %s = %.15g\n", name, plus[k]);
        }
        for (int a = 0; a < r->navars; a++) {
            const nsdae_impulse_avar *v = &r->avars[a];
            if (v->role == NSDAE_IMPULSE_HEAD && v->order == 0 && v->shift == 0 && v->mu == 1 && !isnan(aux[a]))
                printf("  impulse %s = %.15g\n", nsdae_model_var(c->m, v->var)->name, aux[a]);
        }
        if (num.nonlinear) puts("  note: the restart system is nonlinear: its solution is only locally unique (Newton from the left limits picked this one)");
        if (negative_percussion(c, r, from, to, aux, why, sizeof why)) printf("  sign error: %s\n", why);
    }
    free(plus);
    free(aux);
    return rc;
}

/* A contact with a nonzero restitution closes through a transient mode (Benveniste et al. 2026, section 9):
 * free -> (the closed contact's equations + Newton's law) -> free. Returns the switch of such a
 * closing between from and to, or -1 (an inelastic contact, e = 0, goes straight to the closed mode). */
static int elastic_closing(const restart_cmd *c, const int *from, const int *to)
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
static int when_crossing(const restart_cmd *c, nsdae_expr_pool *pool, const int *from, const int *to, int w);

static int when_fires(const restart_cmd *c, nsdae_expr_pool *pool, const int *from, const int *to, int w)
{
    return when_crossing(c, pool, from, to, w) > 0;
}

/* 1: w fires at from -> to; -1: its guard is the change's but falls through zero there (the
 * `when` is tied to that switch and does not fire); 0: unrelated. */
static int when_crossing(const restart_cmd *c, nsdae_expr_pool *pool, const int *from, const int *to, int w)
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
static int firing_when(const restart_cmd *c, const int *from, const int *to)
{
    nsdae_expr_pool *pool = NULL;
    nsdae_error err = {0};
    if (nsdae_expr_pool_create_over(nsdae_model_pool(c->m), &pool, &err) != NSDAE_OK) return -1;
    int found = -1;
    for (int w = c->sw->ncode; w < c->sw->n && found < 0; w++)
        if (when_fires(c, pool, from, to, w)) found = w;
    nsdae_expr_pool_destroy(pool);
    return found;
}

/* Heading of a transition (from -> [via ->] to); text mode adds the modes in words. */
static void print_heading(restart_cmd *c, const int *from, const int *via, int via_when, const int *to)
{
    char a[128], v[128] = "", b[128];
    nsdae_mode_format(c->sw, from, a, sizeof a);
    if (via) nsdae_mode_format(c->sw, via, v, sizeof v);
    nsdae_mode_format(c->sw, to, b, sizeof b);
    if (c->json) {
        printf("%s\n    {\"from\": ", c->printed ? "," : "");
        json_string(a);
        fputs(", \"to\": ", stdout);
        json_string(b);
        fputs(", \"via\": [", stdout);
        if (via) json_string(v);
        putchar(']');
    } else {
        char *la = NULL, *lb = NULL;
        nsdae_error err = {0};
        nsdae_mode_label(c->m, c->sw, from, &la, &err);
        nsdae_mode_label(c->m, c->sw, via ? via : to, &lb, &err);
        char *lt = NULL;
        if (via && via_when) nsdae_mode_label(c->m, c->sw, to, &lt, &err);
        if (via && via_when)
            printf("%s%s -> %s -> %s (%s -> transient: %s -> %s)\n", c->printed ? "\n" : "", a, v, b, la ? la : "?",
                   lb ? lb : "?", lt ? lt : "?");
        else if (via)
            printf("%s%s -> %s -> %s (%s -> transient: %s with Newton's law -> %s)\n", c->printed ? "\n" : "", a, v, b,
                   la ? la : "?", lb ? lb : "?", la ? la : "?");
        else printf("%s%s -> %s (%s -> %s)\n", c->printed ? "\n" : "", a, b, la ? la : "?", lb ? lb : "?");
        free(la);
        free(lb);
        free(lt);
    }
    c->printed++;
}

/* The analysis input of the change from -> to: straight, or the elastic cascade. */
static nsdae_status change_input(const restart_cmd *c, const int *from, const int *to, int elastic, const int *via,
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
    if (!st) st = nsdae_impulse_input_from_modes(c->m, c->sw, pool, from, elastic >= 0 ? to : NULL, elastic >= 0 ? from : to,
                                                 guard, in, store, err);
    if (!st && law) st = nsdae_impulse_modes_add_transient(*store, in, law, "Newton's law", err);
    return st;
}

/* Analyses the change from -> to and prints it (with the numeric restart under --at). Returns 0,
 * or 1 when the numeric restart failed or memory ran out. */
static int one_change(restart_cmd *c, const int *from, const int *to, int when)
{
    nsdae_error err = {0};
    nsdae_impulse_input in;
    nsdae_impulse_modes *store = NULL;
    nsdae_impulse_result *r = NULL;
    nsdae_impulse_options opt = {c->height};
    nsdae_expr_pool *pool = NULL; /* the analysis' expressions, over the model's read-only pool */
    int elastic = when >= 0 ? -1 : elastic_closing(c, from, to);
    int *via = calloc((size_t)c->sw->n + 1, sizeof *via);
    nsdae_status st = via ? nsdae_expr_pool_create_over(nsdae_model_pool(c->m), &pool, &err)
                          : nsdae_error_set(&err, NSDAE_NOMEM, "out of memory");
    if (!st && when >= 0) memcpy(via, to, (size_t)c->sw->n * sizeof *via), via[when] = 1;
    if (!st) st = change_input(c, from, to, elastic, via, when, pool, &in, &store, &err);
    if (!st) st = nsdae_impulse_analyze(&in, &opt, &r, &err);
    if (when >= 0) print_heading(c, from, via, 1, to);
    else print_heading(c, from, elastic >= 0 ? to : NULL, 0, elastic >= 0 ? from : to);
    free(via);
    int rc = st == NSDAE_NOMEM || (st && c->left);
    if (st) {
        if (c->json) fputs(", \"status\": \"error\", \"message\": ", stdout), json_string(err.message), putchar('}');
        else printf("  status: error: %s\n", err.message);
    } else {
        const char *status = nsdae_impulse_verdict_name(r->verdict);
        if (c->json) {
            print_json_analysis(c, r);
            if (c->left) rc = print_numeric(c, r, from, to, &status);
            fputs(", \"status\": ", stdout), json_string(status), putchar('}');
        } else {
            printf("  status: %s\n", status);
            print_text_analysis(c, r);
            if (c->left) rc = print_numeric(c, r, from, to, &status);
            if (c->left && !strcmp(status, "numerically-singular")) puts("  status: numerically-singular (D7)");
        }
    }
    nsdae_impulse_result_destroy(r);
    nsdae_impulse_modes_destroy(store);
    nsdae_expr_pool_destroy(pool);
    return rc;
}

/* ---- which changes ----------------------------------------------------------------------- */

/* Whether the long mode `choice` is a sliding (relaxed) mode: no restart mode. */
static int sliding(const nsdae_switches *s, const int *choice)
{
    for (int k = 0; k < s->ncode; k++)
        if (s->sw[k].sliding && choice[k] == s->sw[k].nchoices - 1 && nsdae_mode_switch_active(s, choice, k)) return 1;
    return 0;
}

typedef int (*change_fn)(restart_cmd *c, const int *from, const int *to, void *data);

/* Whether `when` w is tied to some long change from `from` (its guard is that change's): it fires
 * with that change, or cannot fire from `from` at all. */
static int when_crossing(const restart_cmd *c, nsdae_expr_pool *pool, const int *from, const int *to, int w);

static int fired_by_change(restart_cmd *c, nsdae_expr_pool *pool, const int *from, int w)
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
            if (nsdae_mode_parse(s, code, to, &err) != NSDAE_OK || sliding(s, to)) continue;
            hit = when_crossing(c, pool, from, to, w) != 0;
        }
    }
    free(to);
    return hit;
}

/* Calls fn for every change between two non-sliding long modes that differ in one active long
 * switch; stops at the first nonzero return. */
static int for_each_change(restart_cmd *c, change_fn fn, void *data)
{
    const nsdae_switches *s = c->sw;
    int n = s->n + 1, rc = 0;
    int *from = calloc((size_t)n, sizeof *from), *to = calloc((size_t)n, sizeof *to);
    char code[128];
    nsdae_error err = {0};
    if (!from || !to) rc = 1;
    if (!rc) nsdae_mode_first(s, from);
    for (int more = !rc; more && !rc; more = nsdae_mode_next(s, from)) {
        if (sliding(s, from)) continue;
        for (int k = 0; k < s->ncode && !rc; k++) {
            if (!nsdae_mode_switch_active(s, from, k)) continue;
            for (int ch = 0; ch < s->sw[k].nchoices && !rc; ch++) {
                if (ch == from[k]) continue;
                memcpy(to, from, (size_t)s->n * sizeof *to);
                to[k] = ch;
                nsdae_mode_format(s, to, code, sizeof code); /* canonical: nested choices reset */
                if (nsdae_mode_parse(s, code, to, &err) != NSDAE_OK || sliding(s, to)) continue;
                rc = fn(c, from, to, data);
            }
        }
    }
    free(from);
    free(to);
    return rc;
}

static int print_change(restart_cmd *c, const int *from, const int *to, void *data)
{
    (void)data;
    return one_change(c, from, to, firing_when(c, from, to));
}

/* Every `when` that fires with no long change, from every long mode: prev -> [prev, fired] -> prev. */
static int print_lone_whens(restart_cmd *c)
{
    const nsdae_switches *s = c->sw;
    int *from = calloc((size_t)s->n + 1, sizeof *from), rc = !from;
    nsdae_expr_pool *pool = NULL;
    nsdae_error err = {0};
    if (!rc) rc = nsdae_expr_pool_create_over(nsdae_model_pool(c->m), &pool, &err) != NSDAE_OK;
    if (!rc) nsdae_mode_first(s, from);
    for (int more = !rc; more && !rc; more = nsdae_mode_next(s, from)) {
        if (sliding(s, from)) continue;
        for (int w = s->ncode; w < s->n && !rc; w++)
            if (when_fires(c, pool, from, from, w) && !fired_by_change(c, pool, from, w)) rc = one_change(c, from, from, w);
    }
    nsdae_expr_pool_destroy(pool);
    free(from);
    return rc;
}

/* Auto-detection under --at: a change whose guard vanishes at the left limits and is being
 * crossed (a closing gap approaching, a switching function moving towards the new branch). */
typedef struct found {
    int n;
    int *from, *to;
    char first[256], second[256];
} found;

/* The guard of from -> to for detection: the library's, or for an exogenous `if` the switching
 * function of its condition (time - t_e for `time >= t_e`), which --at reads at time=T. */
static const nsdae_expr *detection_guard(restart_cmd *c, nsdae_expr_pool *pool, const int *from, const int *to, int k)
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
static int vanishes_at(const restart_cmd *c, nsdae_expr_pool *pool, const nsdae_expr *g, double *rate)
{
    const nsdae_expr *dg = NULL;
    nsdae_error err = {0};
    if (!g || nsdae_expr_dt(pool, g, &dg, &err) != NSDAE_OK) return 0;
    nsdae_eval_env env = {nsdae_model_param_values(c->m), nsdae_model_nparams(c->m), c->left, nsdae_model_nvars(c->m),
                          RESTART_MAX_ORDER, c->time};
    double gv = nsdae_expr_eval(g, &env), scale = 1 + fabs(c->time);
    *rate = nsdae_expr_eval(dg, &env);
    for (int i = 0; i < (RESTART_MAX_ORDER + 1) * nsdae_model_nvars(c->m); i++)
        if (fabs(c->left[i]) > scale) scale = fabs(c->left[i]);
    return fabs(gv) <= RESTART_GUARD_TOL * scale * scale;
}

/* A `when` firing at the --at state with no long change: its guard vanishes there and rises.
 * Sets from = to = the long mode (the first one from which it fires). */
static int lone_when_at(restart_cmd *c, int *from, int *to)
{
    const nsdae_switches *s = c->sw;
    nsdae_expr_pool *pool = NULL;
    nsdae_error err = {0};
    int hit = 0;
    if (nsdae_expr_pool_create_over(nsdae_model_pool(c->m), &pool, &err) != NSDAE_OK) return 0;
    nsdae_mode_first(s, from);
    for (int more = 1; more && !hit; more = nsdae_mode_next(s, from)) {
        if (sliding(s, from)) continue;
        for (int w = s->ncode; w < s->n && !hit; w++) {
            const nsdae_expr *h = NULL;
            double rate = 0;
            if (!when_fires(c, pool, from, from, w) || fired_by_change(c, pool, from, w)) continue;
            hit = nsdae_impulse_when_guard(c->m, s, pool, from, w, &h, &err) == NSDAE_OK && vanishes_at(c, pool, h, &rate) &&
                  rate > 0;
        }
    }
    if (hit) memcpy(to, from, (size_t)s->n * sizeof *to);
    nsdae_expr_pool_destroy(pool);
    return hit;
}

static int crossing(restart_cmd *c, const int *from, const int *to)
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
                          RESTART_MAX_ORDER, c->time};
    double gv = nsdae_expr_eval(g, &env), dv = nsdae_expr_eval(dg, &env), scale = 1 + fabs(c->time);
    nsdae_expr_pool_destroy(pool);
    for (int i = 0; i < (RESTART_MAX_ORDER + 1) * nsdae_model_nvars(c->m); i++)
        if (fabs(c->left[i]) > scale) scale = fabs(c->left[i]);
    if (!(fabs(gv) <= RESTART_GUARD_TOL * scale * scale)) return 0;
    /* a gap closes (a multiplier vanishes) from above; an `if` enters branch j < i as its condition
     * becomes true, leaves it as it becomes false */
    if (w->kind == NSDAE_SWITCH_COMPL) return dv < 0;
    if (w->kind == NSDAE_SWITCH_IF_STATE || w->kind == NSDAE_SWITCH_IF_TIME) return to[k] < from[k] ? dv > 0 : dv < 0;
    return 1;
}

static int detect(restart_cmd *c, const int *from, const int *to, void *data)
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

/* The change of a numeric restart: --from/--to, or the one crossing at the state. Returns 0 with
 * from/to set, or the exit status after printing. */
static int pick_change(restart_cmd *c, int *from, int *to)
{
    nsdae_error err = {0};
    if (c->from || c->to) {
        if (!c->from || !c->to) {
            fputs("nsdae restart: give both --from and --to (or neither: the change is then found at the state)\n",
                  stderr);
            return CLI_USAGE;
        }
        if (nsdae_mode_parse(c->sw, c->from, from, &err) || nsdae_mode_parse(c->sw, c->to, to, &err)) {
            fprintf(stderr, "nsdae restart: --from/--to: %s\n", err.message);
            return CLI_USAGE;
        }
        return 0;
    }
    found f = {0, from, to, "", ""};
    if (for_each_change(c, detect, &f)) return 1;
    if (f.n == 1 || (f.n == 0 && lone_when_at(c, from, to))) return 0;
    if (f.n == 0)
        fputs("nsdae restart: no guard or contact gap is being crossed at the --at state: name the change with "
              "--from and --to\n",
              stderr);
    else
        fprintf(stderr, "nsdae restart: %d changes are possible at the --at state (%s, %s%s): name one with --from and "
                        "--to\n", f.n, f.first, f.second, f.n > 2 ? ", ..." : "");
    return 1;
}

static int run(restart_cmd *c)
{
    int rc = 0;
    if (c->at && (rc = parse_at(c))) return rc;
    int *from = calloc((size_t)c->sw->n + 1, sizeof *from), *to = calloc((size_t)c->sw->n + 1, sizeof *to);
    if (!from || !to) rc = 1;
    if (!rc && c->at) rc = pick_change(c, from, to);
    double total = nsdae_mode_count(c->sw);
    if (!rc && !c->at && total > RESTART_ALL_LIMIT) {
        fprintf(stderr, "nsdae restart: %.0f long modes (more than %.0f): name one change with --at, --from and --to\n",
                total, RESTART_ALL_LIMIT);
        rc = 1;
    }
    if (!rc) {
        if (c->json) printf("{\"model\": "), json_string(nsdae_model_name(c->m)), printf(", \"transitions\": [");
        else printf("model %s: %.0f long mode%s, %d switch%s\n\n", nsdae_model_name(c->m), total, total == 1 ? "" : "s",
                    c->sw->ncode, c->sw->ncode == 1 ? "" : "es");
        if (c->at) rc = one_change(c, from, to, firing_when(c, from, to));
        else if (!(rc = for_each_change(c, print_change, NULL))) rc = print_lone_whens(c);
        if (c->json) puts("\n]}");
        else if (!c->printed) puts("no mode change (the model has one long mode)");
    }
    free(from);
    free(to);
    return rc;
}

int nsdae_cmd_restart(int argc, char **argv)
{
    restart_cmd c = {0};
    c.height = -1;
    model_source_init(&c.src);
    nsdae_error err = {0};
    int rc = parse(argc, argv, &c);
    if (rc < 0) {
        rc = 0;
        goto done;
    }
    if (!rc) rc = model_source_load(&c.src, "restart", CLI_USAGE);
    if (rc) goto done;
    if (!c.src.model) {
        fprintf(stderr, "nsdae restart: --example %s is built into nsdae as a system, not as equations: the restart "
                        "analysis needs the model's equations; give a model file (examples/*.nsm) instead\n",
                c.src.example);
        rc = 1;
        goto done;
    }
    c.m = c.src.model;
    if (nsdae_mode_switches(c.m, &c.sw, &err) != NSDAE_OK) {
        fprintf(stderr, "%s\n", err.message);
        rc = 1;
        goto done;
    }
    rc = run(&c);
done:
    free(c.left);
    nsdae_mode_switches_destroy(c.sw);
    model_source_free(&c.src);
    return rc;
}
