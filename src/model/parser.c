/* The .nsm parser (declarations, experiment, the model, entry points): recursive descent over
 * the token array, lowering straight into the IR.
 *
 * Names are resolved as they are read (declarations come before use), expressions are built in
 * the model's hash-consed pool, and each equation records its source text, position and guard
 * context. Every failure sets one "file:line:col: message" and unwinds; recursion depth and the
 * size of one statement are bounded so that no input crashes or hangs the parser. */
#include "model/parser_internal.h"
#include "model/expr_internal.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- declarations and the model ------------------------------------------------------------- */

static int check_new_name(parser *P, const token *t)
{
    const char *s = P->src + t->start;
    int j;
    const nsdae_srcpos *first = NULL;
    switch (nsdae_ps_lookup(P, t, &j)) {
    case NAME_VAR: first = &P->m->vars[j].pos; break;
    case NAME_PARAM: first = &P->m->params[j].pos; break;
    case NAME_VAR_ARRAY:
    case NAME_PARAM_ARRAY: first = &P->m->arrays[j].pos; break;
    case NAME_NONE: break;
    }
    if (first) {
        nsdae_ps_perr(P, t, "duplicate declaration of '%.*s' (first declared at %d:%d)", (int)t->len, s, first->line,
                      first->col);
        return 0;
    }
    return 1;
}

static const token *expect_name(parser *P, const char *after)
{
    const token *t = nsdae_ps_peek(P);
    if (t->kind == T_IDENT) return nsdae_ps_advance(P);
    char b[64];
    nsdae_ps_perr(P, t, "expected a name after %s, found %s", after, nsdae_ps_describe(P, t, b, sizeof b));
    return NULL;
}

/* An override given before parsing takes the place of the declared value at once, so that the
 * sizes and bounds read after it see it. */
static void apply_override(parser *P, int k)
{
    for (int i = 0; i < P->nov; i++)
        if (strcmp(P->ov[i].name, P->m->param_names[k]) == 0) {
            P->m->params[k].value = P->m->param_values[k] = P->ov[i].value;
            P->m->params[k].overridden = 1;
            P->ov_used[i] = 1;
        }
}

static int add_param(parser *P, const char *name, size_t len, nsdae_srcpos pos, const nsdae_expr *e)
{
    nsdae_error e2;
    if (nsdae_ir_add_param(P->m, name, len, pos, e, &e2)) {
        nsdae_ps_nomem(P);
        return 0;
    }
    apply_override(P, P->m->nparams - 1);
    return 1;
}

/* The elements of a parameter or variable array, one scalar each, named "name[k]". */
static int add_array(parser *P, const token *name, long size, int is_param, const nsdae_expr *const *first,
                     const nsdae_expr *const *second)
{
    nsdae_model *m = P->m;
    nsdae_error e2;
    if (nsdae_ir_add_array(m, P->src + name->start, name->len, pos_of(name), is_param,
                           is_param ? m->nparams : m->nvars, (int)size, &e2)) {
        nsdae_ps_nomem(P);
        return 0;
    }
    for (long k = 1; k <= size; k++) {
        char el[NSDAE_MODEL_MAX_IDENT + 24];
        nsdae_ps_element_name(P, name, k, el, sizeof el);
        if (is_param) {
            if (!add_param(P, el, strlen(el), pos_of(name), first[k - 1])) return 0;
            continue;
        }
        if (nsdae_ir_add_var(m, el, strlen(el), pos_of(name), &e2)) {
            nsdae_ps_nomem(P);
            return 0;
        }
        m->vars[m->nvars - 1].start = first ? first[k - 1] : NULL;
        m->vars[m->nvars - 1].dstart = second ? second[k - 1] : NULL;
    }
    return 1;
}

/* parameter NAME = EXPR;  parameter NAME[SIZE] = VALUES; */
static int parse_parameter(parser *P)
{
    nsdae_ps_advance(P);
    const token *name = expect_name(P, "'parameter'");
    long size = 0;
    if (!name || !check_new_name(P, name)) return 0;
    if (nsdae_ps_peek(P)->kind == T_LBRACKET && !nsdae_ps_parse_size(P, name, &size)) return 0;
    if (!nsdae_ps_expect(P, T_ASSIGN, " after the parameter name")) return 0;
    P->ops = 0;
    if (size > 0) {
        const nsdae_expr **vals = malloc((size_t)size * sizeof *vals);
        if (!vals) { nsdae_ps_nomem(P); return 0; }
        int ok = nsdae_ps_parse_array_values(P, name, size, "a parameter value", vals) &&
                 nsdae_ps_expect(P, T_SEMI, " after the parameter value") && add_array(P, name, size, 1, vals, NULL);
        free(vals);
        return ok;
    }
    const token *at = nsdae_ps_peek(P);
    const nsdae_expr *e = nsdae_ps_parse_expr(P);
    if (!nsdae_ps_require_const(P, e, at, "a parameter value") ||
        !nsdae_ps_expect(P, T_SEMI, " after the parameter value"))
        return 0;
    return add_param(P, P->src + name->start, name->len, pos_of(name), e);
}

/* (start = V, dstart = V) of a declaration; arrays (size > 0) get size values each. */
static int parse_starts(parser *P, const token *name, long size, const nsdae_expr **start, const nsdae_expr **dstart)
{
    int have_start = 0, have_dstart = 0;
    do {
        const token *mod = nsdae_ps_peek(P);
        int is_start = nsdae_ps_tok_is(P, mod, "start"), is_dstart = nsdae_ps_tok_is(P, mod, "dstart");
        if (!is_start && !is_dstart) {
            char b[64];
            nsdae_ps_perr(P, mod, "expected 'start' or 'dstart' in the declaration of '%.*s', found %s",
                          (int)name->len, P->src + name->start, nsdae_ps_describe(P, mod, b, sizeof b));
            return 0;
        }
        if ((is_start && have_start) || (is_dstart && have_dstart)) {
            nsdae_ps_perr(P, mod, "'%s' given twice", is_start ? "start" : "dstart");
            return 0;
        }
        nsdae_ps_advance(P);
        if (!nsdae_ps_expect(P, T_ASSIGN, is_start ? " after 'start'" : " after 'dstart'")) return 0;
        P->ops = 0;
        const char *what = is_start ? "a start value" : "a dstart value";
        const nsdae_expr **out = is_start ? start : dstart;
        if (size > 0) {
            if (!nsdae_ps_parse_array_values(P, name, size, what, out)) return 0;
        } else {
            const token *at = nsdae_ps_peek(P);
            out[0] = nsdae_ps_parse_expr(P);
            if (!nsdae_ps_require_const(P, out[0], at, what)) return 0;
        }
        if (is_start) have_start = 1;
        else have_dstart = 1;
    } while (nsdae_ps_accept(P, T_COMMA));
    return nsdae_ps_expect(P, T_RPAREN, " after the start values");
}

/* var NAME[(start = .., dstart = ..)];  var NAME[SIZE][(...)]; */
static int parse_var(parser *P)
{
    nsdae_ps_advance(P);
    const token *name = expect_name(P, "'var'");
    long size = 0;
    if (!name || !check_new_name(P, name)) return 0;
    if (nsdae_ps_peek(P)->kind == T_LBRACKET && !nsdae_ps_parse_size(P, name, &size)) return 0;
    size_t n = size > 0 ? (size_t)size : 1;
    const nsdae_expr **vals = calloc(2 * n, sizeof *vals);
    if (!vals) { nsdae_ps_nomem(P); return 0; }
    int ok = (!nsdae_ps_accept(P, T_LPAREN) || parse_starts(P, name, size, vals, vals + n)) &&
             nsdae_ps_expect(P, T_SEMI, " after the variable declaration");
    if (ok && size > 0) ok = add_array(P, name, size, 0, vals, vals + n);
    else if (ok) {
        nsdae_error e2;
        ok = nsdae_ir_add_var(P->m, P->src + name->start, name->len, pos_of(name), &e2) == NSDAE_OK;
        if (!ok) nsdae_ps_nomem(P);
        else {
            P->m->vars[P->m->nvars - 1].start = vals[0];
            P->m->vars[P->m->nvars - 1].dstart = vals[1];
        }
    }
    free(vals);
    return ok;
}

/* The numeric experiment settings: name, what a message calls it, the admitted range. */
typedef struct experiment_number {
    const char *key, *what;
    double lo, hi;          /* lo < v <= hi when lo_open, else lo <= v <= hi */
    int lo_open;
} experiment_number;

static const experiment_number experiment_numbers[] = {
    {"stop", "the stop time", 0.0, INFINITY, 1},
    {"step", "the step", 0.0, INFINITY, 1},
    {"theta", "theta", 0.5, 1.0, 0},   /* the theta-method's range (README, theta-method) */
    {"gamma", "gamma", 0.5, 1.0, 0},
};
enum { EXPERIMENT_NUMBERS = sizeof experiment_numbers / sizeof *experiment_numbers };

static const nsdae_expr **experiment_slot(nsdae_model *m, int k)
{
    const nsdae_expr **slots[EXPERIMENT_NUMBERS] = {&m->stop_expr, &m->step_expr, &m->theta_expr, &m->gamma_expr};
    return slots[k];
}

/* One numeric setting after its '=': a constant expression inside the setting's range. */
static int parse_experiment_number(parser *P, int k)
{
    const experiment_number *x = &experiment_numbers[k];
    nsdae_eval_env env = {P->m->param_values, P->m->nparams, NULL, 0, 0, 0.0};
    P->ops = 0;
    const token *at = nsdae_ps_peek(P);
    const nsdae_expr *e = nsdae_ps_parse_expr(P);
    if (!nsdae_ps_require_const(P, e, at, x->what)) return 0;
    double v = nsdae_expr_eval(e, &env);
    if (x->lo_open ? !(v > x->lo) : !(v >= x->lo && v <= x->hi)) {
        if (x->lo_open) nsdae_ps_perr(P, at, "experiment %s must be positive, found %g", x->key, v);
        else nsdae_ps_perr(P, at, "experiment %s must be in [%g, %g], found %g", x->key, x->lo, x->hi, v);
        return 0;
    }
    *experiment_slot(P->m, k) = e;
    return 1;
}

/* experiment stop = T, step = H [, scheme = NAME] [, theta = TH] [, gamma = G];
 * (settings in any order, each at most once) */
static int parse_experiment(parser *P, int *seen)
{
    const token *t_exp = nsdae_ps_advance(P);
    if (*seen) {
        nsdae_ps_perr(P, t_exp, "a second 'experiment' annotation");
        return 0;
    }
    *seen = 1;
    int have_scheme = 0, have[EXPERIMENT_NUMBERS] = {0};
    do {
        const token *key = nsdae_ps_peek(P);
        int k = -1, is_scheme = nsdae_ps_tok_is(P, key, "scheme");
        for (int i = 0; i < EXPERIMENT_NUMBERS; i++)
            if (nsdae_ps_tok_is(P, key, experiment_numbers[i].key)) k = i;
        if (k < 0 && !is_scheme) {
            char b[64];
            nsdae_ps_perr(P, key, "expected 'stop', 'step', 'scheme', 'theta' or 'gamma' in the experiment, found %s",
                          nsdae_ps_describe(P, key, b, sizeof b));
            return 0;
        }
        if (is_scheme ? have_scheme : have[k]) {
            nsdae_ps_perr(P, key, "experiment setting '%.*s' given twice", (int)key->len, P->src + key->start);
            return 0;
        }
        nsdae_ps_advance(P);
        if (!nsdae_ps_expect(P, T_ASSIGN, " after the experiment setting")) return 0;
        if (is_scheme) {
            const token *v = expect_name(P, "'scheme ='");
            if (!v) return 0;
            char *s = nsdae_ps_slice(P, v, v);
            if (!s) { nsdae_ps_nomem(P); return 0; }
            P->m->experiment.scheme = s;
            have_scheme = 1;
            continue;
        }
        if (!parse_experiment_number(P, k)) return 0;
        have[k] = 1;
    } while (nsdae_ps_accept(P, T_COMMA));
    return nsdae_ps_expect(P, T_SEMI, " at the end of the experiment annotation");
}

static void parse_model(parser *P)
{
    if (!nsdae_ps_expect(P, T_MODEL, " at the start of the file")) return;
    const token *name = expect_name(P, "'model'");
    if (!name) return;
    P->m->name = nsdae_ps_slice(P, name, name);
    if (!P->m->name) { nsdae_ps_nomem(P); return; }
    int seen_experiment = 0, in_equations = 0;
    while (!P->st) {
        const token *t = nsdae_ps_peek(P);
        char b[64];
        switch (t->kind) {
        case T_PARAMETER: parse_parameter(P); break;
        case T_VAR: parse_var(P); break;
        case T_EXPERIMENT: parse_experiment(P, &seen_experiment); break;
        case T_EQUATION:
            nsdae_ps_advance(P);
            in_equations = 1;
            nsdae_ps_parse_equation_list(P, 0);
            break;
        case T_END: {
            nsdae_ps_advance(P);
            const token *n2 = nsdae_ps_peek(P);
            if (n2->kind == T_IF || n2->kind == T_WHEN || n2->kind == T_FOR) {
                const char *kw = n2->kind == T_IF ? "if" : n2->kind == T_WHEN ? "when" : "for";
                nsdae_ps_perr(P, t, "'end %s' without a matching '%s'", kw, kw);
                return;
            }
            if (n2->kind != T_IDENT || n2->len != strlen(P->m->name) ||
                memcmp(P->src + n2->start, P->m->name, n2->len) != 0) {
                nsdae_ps_perr(P, n2, "expected 'end %s;', found %s", P->m->name, nsdae_ps_describe(P, n2, b, sizeof b));
                return;
            }
            nsdae_ps_advance(P);
            if (!nsdae_ps_expect(P, T_SEMI, " after the model name")) return;
            if (nsdae_ps_peek(P)->kind != T_EOF)
                nsdae_ps_perr(P, nsdae_ps_peek(P), "expected end of file after 'end %s;', found %s", P->m->name,
                              nsdae_ps_describe(P, nsdae_ps_peek(P), b, sizeof b));
            return;
        }
        case T_EOF: nsdae_ps_perr(P, t, "expected 'end %s;' before end of file", P->m->name); return;
        default:
            if (in_equations)
                nsdae_ps_perr(P, t, "expected an equation, found %s", nsdae_ps_describe(P, t, b, sizeof b));
            else
                nsdae_ps_perr(P, t, "expected 'parameter', 'var', 'equation' or 'end', found %s",
                              nsdae_ps_describe(P, t, b, sizeof b));
            return;
        }
    }
}

/* Every override must name a parameter of the model as built with them (an element "m[12]"
 * disappears when the size it depends on shrinks). */
static void check_overrides_used(parser *P)
{
    for (int i = 0; i < P->nov && !P->st; i++)
        if (!P->ov_used[i])
            P->st = nsdae_error_set(P->err, NSDAE_INVALID_INPUT, "model %s has no parameter '%s'",
                                    P->m->name ? P->m->name : "?", P->ov[i].name);
}

/* Keeps the text when the model has structural parameters (overriding one re-parses it). */
static void keep_source(parser *P, const char *text, size_t length)
{
    int structural = 0;
    for (int k = 0; k < P->m->nparams && !structural; k++) structural = P->m->param_structural[k];
    if (!structural) return;
    P->m->source = malloc(length + 1);
    if (!P->m->source) {
        nsdae_ps_nomem(P);
        return;
    }
    memcpy(P->m->source, text, length);
    P->m->source[length] = '\0';
    P->m->source_len = length;
}

nsdae_status nsdae_model_parse_with(const char *text, size_t length, const char *filename,
                                    const nsdae_ir_override *ov, int nov, nsdae_model **out, nsdae_error *err)
{
    *out = NULL;
    if (!filename) filename = "<string>";
    if (!text) return nsdae_error_set(err, NSDAE_INVALID_INPUT, "%s: no model text", filename);
    parser P;
    memset(&P, 0, sizeof P);
    P.src = text;
    P.file = filename;
    P.err = err;
    P.block = P.branch = -1;
    P.ov = ov;
    P.nov = nov;
    if (nov > 0 && !(P.ov_used = calloc((size_t)nov, 1)))
        return nsdae_error_set(err, NSDAE_NOMEM, "%s: out of memory while parsing", filename);
    nsdae_status st = nsdae_lex(text, length, filename, &P.toks, err);
    if (!st) st = nsdae_ir_create(filename, &P.m, err);
    if (st) {
        nsdae_tokens_free(&P.toks);
        free(P.ov_used);
        return st;
    }
    parse_model(&P);
    nsdae_tokens_free(&P.toks);
    if (!P.st && nsdae_expr_pool_failed(P.m->pool)) nsdae_ps_nomem(&P);
    check_overrides_used(&P);
    if (!P.st) keep_source(&P, text, length);
    if (!P.st) P.st = nsdae_ir_finish(P.m, err);
    free(P.ov_used);
    if (P.st) {
        nsdae_model_destroy(P.m);
        return P.st;
    }
    *out = P.m;
    return NSDAE_OK;
}

nsdae_status nsdae_model_parse_string(const char *text, size_t length, const char *filename, nsdae_model **out,
                                      nsdae_error *err)
{
    return nsdae_model_parse_with(text, length, filename, NULL, 0, out, err);
}

/* "N MiB" for the limit and the size: a model is reported in the unit it is measured in, not as
 * the bytes read before giving up. */
static nsdae_status too_large(const char *path, double bytes, int exact, nsdae_error *err)
{
    return nsdae_error_set(err, NSDAE_PARSE, "%s:1:1: model file too large (%s%.1f MiB; the limit is %zu MiB)", path,
                           exact ? "" : "more than ", bytes / (1 << 20), NSDAE_MODEL_MAX_BYTES >> 20);
}

nsdae_status nsdae_model_parse_file(const char *path, nsdae_model **out, nsdae_error *err)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) return nsdae_error_set(err, NSDAE_IO, "%s: cannot open the model file: %s", path, strerror(errno));
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0) {
        nsdae_status st = S_ISDIR(sb.st_mode)
                              ? nsdae_error_set(err, NSDAE_IO, "%s: is a directory, not a model file", path)
                          : S_ISREG(sb.st_mode) && (uintmax_t)sb.st_size > NSDAE_MODEL_MAX_BYTES
                              ? too_large(path, (double)sb.st_size, 1, err)
                              : NSDAE_OK;
        if (st != NSDAE_OK) {
            fclose(f);
            return st;
        }
    }
    size_t cap = 1 << 14, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (n == cap) {
            if (cap > NSDAE_MODEL_MAX_BYTES) break;
            char *b2 = realloc(buf, cap * 2);
            if (!b2) { free(buf); buf = NULL; break; }
            buf = b2;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    int ioerr = ferror(f) ? errno : 0;
    fclose(f);
    if (!buf) return nsdae_error_set(err, NSDAE_NOMEM, "%s: out of memory reading the model", path);
    if (ioerr) {
        free(buf);
        return nsdae_error_set(err, NSDAE_IO, "%s: read error: %s", path, strerror(ioerr));
    }
    if (n > NSDAE_MODEL_MAX_BYTES) {   /* a pipe or device: its size is known only this far */
        free(buf);
        return too_large(path, (double)NSDAE_MODEL_MAX_BYTES, 0, err);
    }
    nsdae_status st = nsdae_model_parse_string(buf, n, path, out, err);
    free(buf);
    return st;
}
