/* Arrays and loops, lowered while parsing (examples/LANGUAGE.md, "Arrays and loops").
 *
 * An array `var z[N]` is N scalar unknowns named "z[1]" .. "z[N]"; an element reference `z[i+1]`
 * resolves to one of them as soon as it is read, and `for i in 1:N loop EQS end for;` is
 * unrolled by parsing its body once per value of i with i bound to a constant. Sizes, bounds and
 * indices are therefore integers known at parse time: they may use parameters (overridable:
 * those parameters are marked structural and an override re-parses the model, see ir.c) and
 * enclosing loop variables, never unknowns or time. Everything after the parser sees scalars
 * only, and unrolling costs one parse of the body per iteration: linear in the unrolled size. */
#include "model/parser_internal.h"
#include "model/expr_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void nsdae_ps_element_name(parser *P, const token *name, long k, char *buf, size_t size)
{
    snprintf(buf, size, "%.*s[%ld]", (int)name->len, P->src + name->start, k);
}

int nsdae_ps_eval_int(parser *P, const nsdae_expr *e, const token *at, const char *what, long *out)
{
    if (!nsdae_ps_require_const(P, e, at, what)) return 0;
    nsdae_ir_mark_structural(P->m, e);
    nsdae_eval_env env = {P->m->param_values, P->m->nparams, NULL, 0, 0, 0.0};
    double v = nsdae_expr_eval(e, &env);
    /* 1e9: beyond any size the limits allow, and exactly representable as a long */
    if (!isfinite(v) || v != floor(v) || fabs(v) > 1e9) {
        nsdae_ps_perr(P, at, "%s must be an integer, found %.17g", what, v);
        return 0;
    }
    *out = (long)v;
    return 1;
}

int nsdae_ps_loop_value(parser *P, const token *t, long *value)
{
    for (int k = P->nloops - 1; k >= 0; k--)
        if (P->loops[k].len == t->len && memcmp(P->loops[k].name, P->src + t->start, t->len) == 0) {
            *value = P->loops[k].value;
            return 1;
        }
    return 0;
}

/* Counts n more unrolled items (iterations, elements) against MAX_UNROLLED. */
static int count_unrolled(parser *P, const token *at, long n)
{
    P->unrolled += n;
    if (P->unrolled <= MAX_UNROLLED) return 1;
    nsdae_ps_perr(P, at, "arrays and loops unroll to more than %ld elements and iterations", MAX_UNROLLED);
    return 0;
}

int nsdae_ps_parse_size(parser *P, const token *name, long *size)
{
    nsdae_ps_advance(P); /* '[' */
    P->ops = 0;
    const token *at = nsdae_ps_peek(P);
    char what[NSDAE_MODEL_MAX_IDENT + 32];
    snprintf(what, sizeof what, "the size of '%.*s'", (int)name->len, P->src + name->start);
    const nsdae_expr *e = nsdae_ps_parse_expr(P);
    if (!e || !nsdae_ps_eval_int(P, e, at, what, size)) return 0;
    if (*size < 1) {
        nsdae_ps_perr(P, at, "%s must be a positive integer, found %ld", what, *size);
        return 0;
    }
    if (nsdae_ps_peek(P)->kind == T_COMMA) {
        nsdae_ps_perr(P, nsdae_ps_peek(P), "'%.*s': arrays have one dimension (use one array per row, or a loop)",
                      (int)name->len, P->src + name->start);
        return 0;
    }
    return nsdae_ps_expect(P, T_RBRACKET, " after the array size") && count_unrolled(P, at, *size);
}

const nsdae_expr *nsdae_ps_parse_element(parser *P, const token *name, name_kind kind, int index)
{
    const char *s = P->src + name->start;
    int n = (int)name->len;
    if (kind == NAME_NONE) {
        nsdae_ps_perr(P, name, "unknown array '%.*s'", n, s);
        return NULL;
    }
    if (kind == NAME_VAR || kind == NAME_PARAM) {
        nsdae_srcpos d = kind == NAME_VAR ? P->m->vars[index].pos : P->m->params[index].pos;
        nsdae_ps_perr(P, name, "'%.*s' is not an array (declared at %d:%d without a size)", n, s, d.line, d.col);
        return NULL;
    }
    nsdae_ps_advance(P); /* '[' */
    const token *at = nsdae_ps_peek(P);
    char what[NSDAE_MODEL_MAX_IDENT + 32];
    snprintf(what, sizeof what, "the index of '%.*s'", n, s);
    const nsdae_expr *e = nsdae_ps_parse_expr(P);
    long k;
    if (!e || !nsdae_ps_eval_int(P, e, at, what, &k)) return NULL;
    if (!nsdae_ps_expect(P, T_RBRACKET, " after the index")) return NULL;
    const nsdae_ir_array *a = &P->m->arrays[index];
    if (k < 1 || k > a->size) {
        nsdae_ps_perr(P, name, "index %ld is out of range for '%.*s' (size %d: indices 1..%d)", k, n, s, a->size,
                      a->size);
        return NULL;
    }
    int j = a->first + (int)(k - 1);
    return nsdae_ps_checked(P, a->is_param ? nsdae_expr_param(P->m->pool, j) : nsdae_expr_var(P->m->pool, j, 0));
}

/* Binds loop variable t (already read) to value; the name must not hide a declaration or an
 * enclosing loop variable (it would silently change what the body means). */
static int push_loop(parser *P, const token *t)
{
    long dummy;
    const char *s = P->src + t->start;
    if (nsdae_ps_lookup(P, t, NULL) != NAME_NONE || nsdae_ps_loop_value(P, t, &dummy)) {
        nsdae_ps_perr(P, t, "loop variable '%.*s' hides a declared name or an enclosing loop variable", (int)t->len,
                      s);
        return 0;
    }
    if (P->nloops >= MAX_LOOPS) {
        nsdae_ps_perr(P, t, "loops and array constructors nested more than %d deep", MAX_LOOPS);
        return 0;
    }
    P->loops[P->nloops++] = (loop_binding){s, t->len, 0};
    return 1;
}

/* `i in A:B` of a loop or constructor (after 'for'): pushes i, gives the bounds. */
static int parse_iterator(parser *P, long *lo, long *hi)
{
    const token *iv = nsdae_ps_peek(P);
    if (iv->kind != T_IDENT) {
        char b[64];
        nsdae_ps_perr(P, iv, "expected the loop variable after 'for', found %s", nsdae_ps_describe(P, iv, b, sizeof b));
        return 0;
    }
    nsdae_ps_advance(P);
    if (!nsdae_ps_expect(P, T_IN, " after the loop variable")) return 0;
    P->ops = 0;
    const token *at = nsdae_ps_peek(P);
    const nsdae_expr *a = nsdae_ps_parse_expr(P);
    if (!a || !nsdae_ps_eval_int(P, a, at, "the lower loop bound", lo)) return 0;
    if (!nsdae_ps_expect(P, T_COLON, " between the loop bounds (for i in A:B)")) return 0;
    at = nsdae_ps_peek(P);
    const nsdae_expr *b = nsdae_ps_parse_expr(P);
    if (!b || !nsdae_ps_eval_int(P, b, at, "the upper loop bound", hi)) return 0;
    return push_loop(P, iv);
}

/* Skips an empty loop's body up to its 'end for' (bodies are only parsed per iteration, and
 * with no iteration there is no value of i to parse them with). */
static void skip_body(parser *P)
{
    int depth = 0;
    for (;;) {
        const token *t = nsdae_ps_peek(P);
        if (t->kind == T_EOF) return;
        if (t->kind == T_LOOP) depth++;
        if (t->kind == T_END && nsdae_ps_peek_at(P, 1)->kind == T_FOR && depth-- == 0) return;
        nsdae_ps_advance(P);
    }
}

int nsdae_ps_parse_for(parser *P)
{
    const token *t_for = nsdae_ps_advance(P);
    long lo, hi;
    if (!parse_iterator(P, &lo, &hi)) return -1;
    if (!nsdae_ps_expect(P, T_LOOP, " after the loop range")) {
        P->nloops--;
        return -1;
    }
    size_t body = P->pos;
    int count = 0;
    if (hi < lo) skip_body(P);
    else if (!count_unrolled(P, t_for, hi - lo + 1)) return -1;
    for (long v = lo; v <= hi && !P->st; v++) {
        P->pos = body;
        P->loops[P->nloops - 1].value = v;
        int n = nsdae_ps_parse_equation_list(P, 1);
        if (n < 0) break;
        count += n;
    }
    P->nloops--;
    if (P->st) return -1;
    if (!nsdae_ps_expect(P, T_END, " to close the 'for' loop") ||
        !nsdae_ps_expect(P, T_FOR, " after 'end' (to close the 'for' loop)") ||
        !nsdae_ps_expect(P, T_SEMI, " after 'end for'"))
        return -1;
    return count;
}

/* The position of the 'for' of a constructor `{e for i in a:b}` ('{' just read), or 0 when the
 * braces hold a plain list. */
static size_t constructor_for(parser *P)
{
    int depth = 0;
    for (size_t i = P->pos; i < P->toks.n; i++) {
        tok_kind k = P->toks.v[i].kind;
        if (k == T_LPAREN || k == T_LBRACKET || k == T_LBRACE) depth++;
        if (k == T_RPAREN || k == T_RBRACKET || k == T_RBRACE) {
            if (depth == 0) return 0;
            depth--;
        }
        if (k == T_FOR && depth == 0) return i;
        if (k == T_SEMI || k == T_EOF) return 0;
    }
    return 0;
}

/* {e for i in a:b}: e parsed once per i. */
static int parse_constructor(parser *P, const token *name, const token *open, size_t at_for, long size,
                             const char *what, const nsdae_expr **vals)
{
    size_t first = P->pos;
    P->pos = at_for + 1;
    long lo, hi;
    if (!parse_iterator(P, &lo, &hi)) return 0;
    int ok = nsdae_ps_expect(P, T_RBRACE, " to close the array constructor");
    size_t after = P->pos;
    long n = hi < lo ? 0 : hi - lo + 1;
    if (ok && n != size) {
        nsdae_ps_perr(P, open, "%s of '%.*s': the constructor has %ld element%s but the array has %ld", what,
                      (int)name->len, P->src + name->start, n, n == 1 ? "" : "s", size);
        ok = 0;
    }
    for (long v = lo; ok && v <= hi; v++) {
        P->pos = first;
        P->loops[P->nloops - 1].value = v;
        P->ops = 0;
        const token *at = nsdae_ps_peek(P);
        vals[v - lo] = nsdae_ps_parse_expr(P);
        ok = nsdae_ps_require_const(P, vals[v - lo], at, what);
        if (ok && P->pos != at_for) {
            char b[64];
            nsdae_ps_perr(P, nsdae_ps_peek(P), "expected 'for' in the array constructor, found %s",
                          nsdae_ps_describe(P, nsdae_ps_peek(P), b, sizeof b));
            ok = 0;
        }
    }
    P->nloops--;
    P->pos = after;
    return ok;
}

int nsdae_ps_parse_array_values(parser *P, const token *name, long size, const char *what, const nsdae_expr **vals)
{
    const token *open = nsdae_ps_peek(P);
    if (!nsdae_ps_accept(P, T_LBRACE)) { /* one expression for every element */
        const nsdae_expr *e = nsdae_ps_parse_expr(P);
        if (!nsdae_ps_require_const(P, e, open, what)) return 0;
        for (long k = 0; k < size; k++) vals[k] = e;
        return 1;
    }
    size_t at_for = constructor_for(P);
    if (at_for) return parse_constructor(P, name, open, at_for, size, what, vals);
    long n = 0;
    do {
        const token *at = nsdae_ps_peek(P);
        P->ops = 0;
        const nsdae_expr *e = nsdae_ps_parse_expr(P);
        if (!nsdae_ps_require_const(P, e, at, what)) return 0;
        if (n < size) vals[n] = e;
        n++;
    } while (nsdae_ps_accept(P, T_COMMA));
    if (!nsdae_ps_expect(P, T_RBRACE, " to close the array")) return 0;
    if (n != size) {
        nsdae_ps_perr(P, open, "%s of '%.*s': %ld value%s given but the array has %ld", what, (int)name->len,
                      P->src + name->start, n, n == 1 ? "" : "s", size);
        return 0;
    }
    return 1;
}
