/* Parser helpers: token access, error reporting, limits. */
#include "model/parser_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const token *nsdae_ps_peek(parser *P) { return &P->toks.v[P->pos]; }
const token *nsdae_ps_peek_at(parser *P, size_t k)
{
    size_t i = P->pos + k;
    return &P->toks.v[i < P->toks.n ? i : P->toks.n - 1];
}
const token *nsdae_ps_advance(parser *P)
{
    const token *t = &P->toks.v[P->pos];
    if (t->kind != T_EOF) P->pos++;
    return t;
}
int nsdae_ps_accept(parser *P, tok_kind k)
{
    if (nsdae_ps_peek(P)->kind != k) return 0;
    nsdae_ps_advance(P);
    return 1;
}

/* Reports an error at token t (only the first error is kept). Inside a loop body the position
 * is the same for every iteration, so the message also names the iteration: "(with i = 3)". */
void nsdae_ps_perr(parser *P, const token *t, const char *fmt, ...)
{
    if (P->st) return;
    char msg[360], ctx[160] = "";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    size_t n = 0;
    for (int k = 0; k < P->nloops && n < sizeof ctx; k++)
        n += (size_t)snprintf(ctx + n, sizeof ctx - n, "%s%.*s = %ld", k ? ", " : " (with ",
                              (int)(P->loops[k].len > 20 ? 20 : P->loops[k].len), P->loops[k].name,
                              P->loops[k].value);
    if (P->nloops && n + 1 < sizeof ctx) strcat(ctx, ")");
    P->st = nsdae_error_set(P->err, NSDAE_PARSE, "%s:%d:%d: %s%s", P->file, t->line, t->col, msg, ctx);
}

void nsdae_ps_nomem(parser *P)
{
    if (!P->st) P->st = nsdae_error_set(P->err, NSDAE_NOMEM, "%s: out of memory while parsing", P->file);
}

/* "'x1'", "'1.5'", "'then'", "end of file": how a found token is described. */
const char *nsdae_ps_describe(parser *P, const token *t, char *buf, size_t size)
{
    if (t->kind == T_EOF) return "end of file";
    int n = t->len > 40 ? 40 : (int)t->len;
    snprintf(buf, size, "'%.*s%s'", n, P->src + t->start, t->len > 40 ? "..." : "");
    return buf;
}

int nsdae_ps_expect(parser *P, tok_kind k, const char *context)
{
    if (P->st) return 0;
    if (nsdae_ps_accept(P, k)) return 1;
    char b[64];
    nsdae_ps_perr(P, nsdae_ps_peek(P), "expected %s%s, found %s", nsdae_tok_name(k), context,
                  nsdae_ps_describe(P, nsdae_ps_peek(P), b, sizeof b));
    return 0;
}

int nsdae_ps_tok_is(parser *P, const token *t, const char *text)
{
    return t->kind == T_IDENT && t->len == strlen(text) && memcmp(P->src + t->start, text, t->len) == 0;
}

int nsdae_ps_enter(parser *P)
{
    if (++P->depth > MAX_DEPTH) {
        nsdae_ps_perr(P, nsdae_ps_peek(P), "nesting too deep (more than %d levels)", MAX_DEPTH);
        return 0;
    }
    return 1;
}

const nsdae_expr *nsdae_ps_checked(parser *P, const nsdae_expr *e)
{
    if (!e) nsdae_ps_nomem(P);
    return e;
}

name_kind nsdae_ps_lookup(parser *P, const token *t, int *index)
{
    return nsdae_names_find(&P->m->names, P->src + t->start, t->len, index);
}

