/* The .nsm parser's shared state and helpers (not public). The parser is split by job:
 * parse_util.c (tokens, errors, limits), parse_expr.c (expressions and conditions),
 * parse_equation.c (equations, if and when blocks), parser.c (declarations, the model). */
#ifndef NSDAE_MODEL_PARSER_INTERNAL_H
#define NSDAE_MODEL_PARSER_INTERNAL_H

#include "model/ir.h"
#include "model/lexer.h"

#define MAX_DEPTH 200          /* nesting of parentheses, unary operators, conditions, blocks */
#define MAX_STATEMENT_OPS 5000 /* operators in one statement: bounds the depth of left chains */
#define MAX_DER_ORDER 8
#define MAX_LOOPS 32            /* nested loops and array constructors */
/* Loop iterations plus array elements of one model: bounds what a short text can unroll to. */
#define MAX_UNROLLED 4000000L

/* A loop (or array constructor) variable bound to its current value while the body is parsed. */
typedef struct loop_binding {
    const char *name;
    size_t len;
    long value;
} loop_binding;

typedef struct parser {
    const char *src, *file;
    token_list toks;
    size_t pos;
    nsdae_model *m;
    nsdae_error *err;
    nsdae_status st;
    int depth, ops;
    int block, branch; /* current guard context */
    int pre_ok;        /* > 0 while pre() is allowed: in guards and in a `when`'s then branch */
    loop_binding loops[MAX_LOOPS];
    int nloops;
    long unrolled;     /* loop iterations and array elements so far (MAX_UNROLLED) */
    const nsdae_ir_override *ov;
    int nov;
    unsigned char *ov_used;
} parser;


static inline nsdae_srcpos pos_of(const token *t) { return (nsdae_srcpos){t->line, t->col}; }

const token *nsdae_ps_peek(parser *P);
const token *nsdae_ps_peek_at(parser *P, size_t k);
const token *nsdae_ps_advance(parser *P);
int nsdae_ps_accept(parser *P, tok_kind k);
/* Reports an error at token t; only the first error is kept. */
void nsdae_ps_perr(parser *P, const token *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void nsdae_ps_nomem(parser *P);
/* How a found token is described in messages: "'x1'", "'1.5'", "end of file". */
const char *nsdae_ps_describe(parser *P, const token *t, char *buf, size_t size);
int nsdae_ps_expect(parser *P, tok_kind k, const char *context);
int nsdae_ps_tok_is(parser *P, const token *t, const char *text);
/* Counts one nesting level; fails beyond MAX_DEPTH. */
int nsdae_ps_enter(parser *P);
const nsdae_expr *nsdae_ps_checked(parser *P, const nsdae_expr *e);
/* What the identifier t names among the model's declarations (NAME_NONE when undeclared). */
name_kind nsdae_ps_lookup(parser *P, const token *t, int *index);
char *nsdae_ps_slice(parser *P, const token *first, const token *last);

const nsdae_expr *nsdae_ps_parse_expr(parser *P);
int nsdae_ps_require_const(parser *P, const nsdae_expr *e, const token *at, const char *what);
const nsdae_cond *nsdae_ps_parse_cond(parser *P);
/* Equations until a token that ends the list; returns their count, -1 on error. */
int nsdae_ps_parse_equation_list(parser *P, int nested);

/* ---- arrays and loops (parse_array.c) ---- */
/* Evaluates a constant integer expression (size, bound, index) now, marking the parameters it
 * uses as structural. what names it in messages. */
int nsdae_ps_eval_int(parser *P, const nsdae_expr *e, const token *at, const char *what, long *out);
/* The value of the loop variable t in the innermost loop binding it; 0 when t is none. */
int nsdae_ps_loop_value(parser *P, const token *t, long *value);
/* `[SIZE]` after the name of a declared array: a positive integer. */
int nsdae_ps_parse_size(parser *P, const token *name, long *size);
/* `name[INDEX]` in an expression (the name already read, '[' next): the element's leaf. */
const nsdae_expr *nsdae_ps_parse_element(parser *P, const token *name, name_kind kind, int index);
/* The values of an array's elements: `{e for i in a:b}`, `{e1, ..., en}`, or one expression
 * for every element. Writes size constant expressions to vals. */
int nsdae_ps_parse_array_values(parser *P, const token *name, long size, const char *what, const nsdae_expr **vals);
/* for i in A:B loop EQS end for;  Returns equations per unrolled body times iterations, -1. */
int nsdae_ps_parse_for(parser *P);
/* "z[k]" into buf. */
void nsdae_ps_element_name(parser *P, const token *name, long k, char *buf, size_t size);

#endif
