/* Expressions (lowered straight into the hash-consed pool) and guard conditions. */
#include "model/parser_internal.h"
#include "model/expr_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- expressions ---------------------------------------------------------------------------- */

static const struct {
    const char *name;
    nsdae_expr_kind kind;
    int arity;
} functions[] = {
    {"sin", NSDAE_EXPR_SIN, 1}, {"cos", NSDAE_EXPR_COS, 1}, {"exp", NSDAE_EXPR_EXP, 1},
    {"log", NSDAE_EXPR_LOG, 1}, {"sqrt", NSDAE_EXPR_SQRT, 1}, {"abs", NSDAE_EXPR_ABS, 1},
    {"sign", NSDAE_EXPR_SIGN, 1}, {"min", NSDAE_EXPR_MIN, 2}, {"max", NSDAE_EXPR_MAX, 2},
};

/* pre(EXPR): the left limit of EXPR at an event. It has a meaning only at an event: in a guard
 * (read on the previous mode's state) and in the equations of a transient mode. */
static const nsdae_expr *parse_pre(parser *P, const token *name)
{
    if (P->pre_ok <= 0) {
        nsdae_ps_perr(P, name,
                      "pre() is the left limit at an event: it is allowed only in a guard and in the then branch of "
                      "a 'when'");
        return NULL;
    }
    nsdae_ps_advance(P); /* '(' */
    const nsdae_expr *a = nsdae_ps_parse_expr(P);
    if (!a || !nsdae_ps_expect(P, T_RPAREN, " to close 'pre('")) return NULL;
    return nsdae_ps_checked(P, nsdae_expr_unary(P->m->pool, NSDAE_EXPR_PRE, a));
}

static const nsdae_expr *parse_call(parser *P, const token *name)
{
    if (nsdae_ps_tok_is(P, name, "pre") && nsdae_ps_lookup(P, name, NULL) == NAME_NONE) return parse_pre(P, name);
    int f = -1;
    for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++)
        if (nsdae_ps_tok_is(P, name, functions[i].name)) f = (int)i;
    const char *s = P->src + name->start;
    if (f < 0) {
        long v;
        if (nsdae_ps_lookup(P, name, NULL) != NAME_NONE || nsdae_ps_loop_value(P, name, &v))
            nsdae_ps_perr(P, name, "'%.*s' is not a function (functions: sin cos exp log sqrt abs sign min max)",
                          (int)name->len, s);
        else
            nsdae_ps_perr(P, name, "unknown function '%.*s' (functions: sin cos exp log sqrt abs sign min max)",
                          (int)name->len, s);
        return NULL;
    }
    nsdae_ps_advance(P); /* '(' */
    const nsdae_expr *args[2] = {NULL, NULL};
    int n = 0;
    for (;;) {
        const token *at = nsdae_ps_peek(P);
        const nsdae_expr *a = nsdae_ps_parse_expr(P);
        if (!a) return NULL;
        if (n >= functions[f].arity) {
            nsdae_ps_perr(P, at, "'%s' takes %d argument%s", functions[f].name, functions[f].arity,
                          functions[f].arity > 1 ? "s" : "");
            return NULL;
        }
        args[n++] = a;
        if (!nsdae_ps_accept(P, T_COMMA)) break;
    }
    if (!nsdae_ps_expect(P, T_RPAREN, " after the arguments")) return NULL;
    if (n != functions[f].arity) {
        nsdae_ps_perr(P, name, "'%s' takes %d argument%s, found %d", functions[f].name, functions[f].arity,
                      functions[f].arity > 1 ? "s" : "", n);
        return NULL;
    }
    return nsdae_ps_checked(P, n == 1 ? nsdae_expr_unary(P->m->pool, functions[f].kind, args[0])
                                      : nsdae_expr_binary(P->m->pool, functions[f].kind, args[0], args[1]));
}

static const nsdae_expr *parse_primary(parser *P)
{
    const token *t = nsdae_ps_peek(P);
    char b[64];
    switch (t->kind) {
    case T_NUMBER: nsdae_ps_advance(P); return nsdae_ps_checked(P, X_C(P->m->pool, t->number));
    case T_TIME: nsdae_ps_advance(P); return nsdae_ps_checked(P, nsdae_expr_time(P->m->pool));
    case T_LPAREN: {
        nsdae_ps_advance(P);
        const nsdae_expr *e = nsdae_ps_parse_expr(P);
        if (!e || !nsdae_ps_expect(P, T_RPAREN, " to close '('")) return NULL;
        return e;
    }
    case T_DER: {
        nsdae_ps_advance(P);
        if (!nsdae_ps_expect(P, T_LPAREN, " after 'der'")) return NULL;
        const token *at = nsdae_ps_peek(P);
        const nsdae_expr *e = nsdae_ps_parse_expr(P);
        if (!e || !nsdae_ps_expect(P, T_RPAREN, " to close 'der('")) return NULL;
        if (e->kind != NSDAE_EXPR_VAR) {
            if (e->kind == NSDAE_EXPR_PARAM)
                nsdae_ps_perr(P, at, "der of parameter '%s': expected a variable", P->m->param_names[e->index]);
            else if (e->kind == NSDAE_EXPR_TIME)
                nsdae_ps_perr(P, at, "der of 'time': expected a variable");
            else
                nsdae_ps_perr(P, at, "der of an expression: expected a variable or der(variable)");
            return NULL;
        }
        if (e->order + 1 > MAX_DER_ORDER) {
            nsdae_ps_perr(P, t, "derivative order above %d", MAX_DER_ORDER);
            return NULL;
        }
        return nsdae_ps_checked(P, nsdae_expr_var(P->m->pool, e->index, e->order + 1));
    }
    case T_IDENT: {
        if (nsdae_ps_peek_at(P, 1)->kind == T_LPAREN) {
            nsdae_ps_advance(P);
            return parse_call(P, t);
        }
        nsdae_ps_advance(P);
        const char *s = P->src + t->start;
        long value;
        int loop = nsdae_ps_loop_value(P, t, &value), j = -1;
        name_kind kind = loop ? NAME_NONE : nsdae_ps_lookup(P, t, &j);
        if (nsdae_ps_peek(P)->kind == T_LBRACKET) {
            if (loop) {
                nsdae_ps_perr(P, t, "loop variable '%.*s' is not an array", (int)t->len, s);
                return NULL;
            }
            return nsdae_ps_parse_element(P, t, kind, j);
        }
        if (loop) return nsdae_ps_checked(P, X_C(P->m->pool, (double)value));
        if (kind == NAME_VAR) return nsdae_ps_checked(P, nsdae_expr_var(P->m->pool, j, 0));
        if (kind == NAME_PARAM) return nsdae_ps_checked(P, nsdae_expr_param(P->m->pool, j));
        if (kind == NAME_VAR_ARRAY || kind == NAME_PARAM_ARRAY) {
            nsdae_ps_perr(P, t, "'%.*s' is an array of %d elements: expected an index, '%.*s[...]'", (int)t->len, s,
                          P->m->arrays[j].size, (int)t->len, s);
            return NULL;
        }
        for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++)
            if (nsdae_ps_tok_is(P, t, functions[i].name)) {
                nsdae_ps_perr(P, t, "function '%s' used without arguments: expected '(' after it", functions[i].name);
                return NULL;
            }
        nsdae_ps_perr(P, t, "unknown identifier '%.*s'", (int)t->len, s);
        return NULL;
    }
    default:
        nsdae_ps_perr(P, t, "expected an expression, found %s", nsdae_ps_describe(P, t, b, sizeof b));
        return NULL;
    }
}

static const nsdae_expr *parse_unary(parser *P);

/* power := primary ['^' unary]: right associative, and the exponent may carry a sign. */
static const nsdae_expr *parse_power(parser *P)
{
    const nsdae_expr *a = parse_primary(P);
    if (!a || nsdae_ps_peek(P)->kind != T_CARET) return a;
    nsdae_ps_advance(P);
    if (++P->ops > MAX_STATEMENT_OPS) {
        nsdae_ps_perr(P, nsdae_ps_peek(P), "statement too long (more than %d operators)", MAX_STATEMENT_OPS);
        return NULL;
    }
    const nsdae_expr *b = parse_unary(P);
    return b ? nsdae_ps_checked(P, X_POW(P->m->pool, a, b)) : NULL;
}

static const nsdae_expr *parse_unary(parser *P)
{
    if (!nsdae_ps_enter(P)) return NULL;
    const nsdae_expr *r;
    if (nsdae_ps_accept(P, T_MINUS)) {
        r = parse_unary(P);
        r = r ? nsdae_ps_checked(P, X_NEG(P->m->pool, r)) : NULL;
    } else if (nsdae_ps_accept(P, T_PLUS)) {
        r = parse_unary(P);
    } else {
        r = parse_power(P);
    }
    P->depth--;
    return r;
}

static const nsdae_expr *parse_binary_chain(parser *P, int level)
{
    const nsdae_expr *a = level == 0 ? parse_binary_chain(P, 1) : parse_unary(P);
    while (a) {
        tok_kind k = nsdae_ps_peek(P)->kind;
        nsdae_expr_kind op;
        if (level == 0 && (k == T_PLUS || k == T_MINUS)) op = k == T_PLUS ? NSDAE_EXPR_ADD : NSDAE_EXPR_SUB;
        else if (level == 1 && (k == T_STAR || k == T_SLASH)) op = k == T_STAR ? NSDAE_EXPR_MUL : NSDAE_EXPR_DIV;
        else break;
        nsdae_ps_advance(P);
        if (++P->ops > MAX_STATEMENT_OPS) {
            nsdae_ps_perr(P, nsdae_ps_peek(P), "statement too long (more than %d operators)", MAX_STATEMENT_OPS);
            return NULL;
        }
        const nsdae_expr *b = level == 0 ? parse_binary_chain(P, 1) : parse_unary(P);
        a = b ? nsdae_ps_checked(P, nsdae_expr_binary(P->m->pool, op, a, b)) : NULL;
    }
    return a;
}

const nsdae_expr *nsdae_ps_parse_expr(parser *P)
{
    if (!nsdae_ps_enter(P)) return NULL;
    const nsdae_expr *e = parse_binary_chain(P, 0);
    P->depth--;
    return e;
}

/* Parameters, starts, bounds, restitution and experiment settings must not depend on unknowns
 * or time. */
int nsdae_ps_require_const(parser *P, const nsdae_expr *e, const token *at, const char *what)
{
    if (!e) return 0;
    if (e->flags & NSDAE_EXPR_HAS_VAR) {
        nsdae_ps_perr(P, at, "%s must be constant: it uses an unknown", what);
        return 0;
    }
    if (e->flags & NSDAE_EXPR_HAS_TIME) {
        nsdae_ps_perr(P, at, "%s must be constant: it uses 'time'", what);
        return 0;
    }
    return 1;
}

/* ---- conditions ----------------------------------------------------------------------------- */

/* Whether the '(' at the current position opens a condition (it holds a comparison or a logical
 * operator before its matching ')') rather than an expression. Stops at ';' and 'then'. */
static int paren_is_cond(parser *P)
{
    int depth = 0;
    for (size_t i = P->pos; i < P->toks.n; i++) {
        tok_kind k = P->toks.v[i].kind;
        if (k == T_LPAREN && ++depth > MAX_DEPTH) return 0;
        if (k == T_RPAREN && --depth == 0) return 0;
        if (k == T_LT || k == T_GT || k == T_LE || k == T_GE || k == T_AND || k == T_OR || k == T_NOT) return 1;
        if (k == T_SEMI || k == T_THEN || k == T_EOF) return 0;
    }
    return 0;
}

static nsdae_cond *new_cond(parser *P, nsdae_cond_kind kind, const token *at)
{
    nsdae_cond *c = nsdae_ir_new_cond(P->m);
    if (!c) {
        nsdae_ps_nomem(P);
        return NULL;
    }
    c->kind = kind;
    c->pos = pos_of(at);
    return c;
}

static const nsdae_cond *parse_cond_atom(parser *P)
{
    const token *t = nsdae_ps_peek(P);
    if (nsdae_ps_accept(P, T_NOT)) {
        if (!nsdae_ps_enter(P)) return NULL;
        const nsdae_cond *a = parse_cond_atom(P);
        P->depth--;
        nsdae_cond *c = a ? new_cond(P, NSDAE_COND_NOT, t) : NULL;
        if (c) c->a = a;
        return c;
    }
    if (t->kind == T_LPAREN && paren_is_cond(P)) {
        nsdae_ps_advance(P);
        const nsdae_cond *c = nsdae_ps_parse_cond(P);
        if (!c || !nsdae_ps_expect(P, T_RPAREN, " to close '(' in the condition")) return NULL;
        return c;
    }
    const nsdae_expr *l = nsdae_ps_parse_expr(P);
    if (!l) return NULL;
    const token *op = nsdae_ps_peek(P);
    nsdae_cond_kind kind;
    switch (op->kind) {
    case T_GT: kind = NSDAE_COND_GT; break;
    case T_GE: kind = NSDAE_COND_GE; break;
    case T_LT: kind = NSDAE_COND_LT; break;
    case T_LE: kind = NSDAE_COND_LE; break;
    default: {
        char b[64];
        nsdae_ps_perr(P, op, "expected a comparison ('>', '<', '>=' or '<=') in the condition, found %s",
                      nsdae_ps_describe(P, op, b, sizeof b));
        return NULL;
    }
    }
    nsdae_ps_advance(P);
    const nsdae_expr *r = nsdae_ps_parse_expr(P);
    nsdae_cond *c = r ? new_cond(P, kind, t) : NULL;
    if (c) {
        c->lhs = l;
        c->rhs = r;
    }
    return c;
}

static const nsdae_cond *parse_cond_level(parser *P, int level)
{
    const nsdae_cond *a = level == 0 ? parse_cond_level(P, 1) : parse_cond_atom(P);
    tok_kind op = level == 0 ? T_OR : T_AND;
    while (a && nsdae_ps_peek(P)->kind == op) {
        const token *t = nsdae_ps_advance(P);
        const nsdae_cond *b = level == 0 ? parse_cond_level(P, 1) : parse_cond_atom(P);
        nsdae_cond *c = b ? new_cond(P, level == 0 ? NSDAE_COND_OR : NSDAE_COND_AND, t) : NULL;
        if (c) {
            c->a = a;
            c->b = b;
        }
        a = c;
    }
    return a;
}

const nsdae_cond *nsdae_ps_parse_cond(parser *P)
{
    if (!nsdae_ps_enter(P)) return NULL;
    P->pre_ok++; /* a guard is read on the left-limit state: pre(x) and x are the same there */
    const nsdae_cond *c = parse_cond_level(P, 0);
    P->pre_ok--;
    P->depth--;
    return c;
}

