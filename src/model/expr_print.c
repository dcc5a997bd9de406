/* Printing expressions in .nsm syntax, with the fewest parentheses that reparse to the same tree. */
#include "model/expr_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct writer {
    char *buf;
    size_t size, len; /* len counts what the full text needs */
    const char *const *vn;
    int nv;
    const char *const *pn;
    int np;
} writer;

static void put(writer *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = w->len < w->size ? w->size - w->len : 0;
    int n = vsnprintf(room ? w->buf + w->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0) w->len += (size_t)n;
}

/* Precedence: 1 additive, 2 multiplicative, 3 unary minus, 4 power, 5 atom. */
static int prec(const nsdae_expr *e)
{
    switch (e->kind) {
    case NSDAE_EXPR_ADD: case NSDAE_EXPR_SUB: return 1;
    case NSDAE_EXPR_MUL: case NSDAE_EXPR_DIV: return 2;
    case NSDAE_EXPR_NEG: return 3;
    case NSDAE_EXPR_POW: return 4;
    case NSDAE_EXPR_CONST: return e->value < 0 ? 3 : 5;
    default: return 5;
    }
}

static const char *fname(nsdae_expr_kind k)
{
    switch (k) {
    case NSDAE_EXPR_SIN: return "sin";
    case NSDAE_EXPR_COS: return "cos";
    case NSDAE_EXPR_EXP: return "exp";
    case NSDAE_EXPR_LOG: return "log";
    case NSDAE_EXPR_SQRT: return "sqrt";
    case NSDAE_EXPR_ABS: return "abs";
    case NSDAE_EXPR_SIGN: return "sign";
    case NSDAE_EXPR_MIN: return "min";
    case NSDAE_EXPR_MAX: return "max";
    case NSDAE_EXPR_PRE: return "pre";
    default: return "?";
    }
}

static void print_number(writer *w, double v)
{
    char tmp[40];
    snprintf(tmp, sizeof tmp, "%.15g", v);
    if (strtod(tmp, NULL) != v) snprintf(tmp, sizeof tmp, "%.17g", v);
    put(w, "%s", tmp);
}

static void pr(writer *w, const nsdae_expr *e, int min_prec)
{
    int paren = prec(e) < min_prec;
    if (paren) put(w, "(");
    switch (e->kind) {
    case NSDAE_EXPR_CONST: print_number(w, e->value); break;
    case NSDAE_EXPR_PARAM:
        if (w->pn && e->index >= 0 && e->index < w->np && w->pn[e->index]) put(w, "%s", w->pn[e->index]);
        else put(w, "p%d", e->index);
        break;
    case NSDAE_EXPR_VAR:
        for (int k = 0; k < e->order; k++) put(w, "der(");
        if (w->vn && e->index >= 0 && e->index < w->nv && w->vn[e->index]) put(w, "%s", w->vn[e->index]);
        else put(w, "v%d", e->index);
        for (int k = 0; k < e->order; k++) put(w, ")");
        break;
    case NSDAE_EXPR_TIME: put(w, "time"); break;
    case NSDAE_EXPR_ADD: pr(w, e->a, 1); put(w, " + "); pr(w, e->b, 1); break;
    case NSDAE_EXPR_SUB: pr(w, e->a, 1); put(w, " - "); pr(w, e->b, 2); break;
    case NSDAE_EXPR_MUL: pr(w, e->a, 2); put(w, "*"); pr(w, e->b, 3); break;
    case NSDAE_EXPR_DIV: pr(w, e->a, 2); put(w, "/"); pr(w, e->b, 4); break;
    case NSDAE_EXPR_POW: pr(w, e->a, 5); put(w, "^"); pr(w, e->b, 3); break;
    case NSDAE_EXPR_NEG: put(w, "-"); pr(w, e->a, 3); break;
    case NSDAE_EXPR_MIN: case NSDAE_EXPR_MAX:
        put(w, "%s(", fname(e->kind)); pr(w, e->a, 0); put(w, ", "); pr(w, e->b, 0); put(w, ")");
        break;
    default: put(w, "%s(", fname(e->kind)); pr(w, e->a, 0); put(w, ")"); break;
    }
    if (paren) put(w, ")");
}

size_t nsdae_expr_print(const nsdae_expr *e, const char *const *var_names, int nvars,
                        const char *const *param_names, int nparams, char *buf, size_t size)
{
    writer w = {buf, size, 0, var_names, nvars, param_names, nparams};
    if (buf && size) buf[0] = '\0';
    if (!e) put(&w, "<null>");
    else pr(&w, e, 0);
    if (buf && size && w.len >= size && size >= 4) memcpy(buf + size - 4, "...", 4);
    return w.len;
}
