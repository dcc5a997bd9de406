/* The .nsm parser: recursive descent over the token array, lowering straight into the IR.
 *
 * Names are resolved as they are read (declarations come before use), expressions are built in
 * the model's hash-consed pool, and each equation records its source text, position and guard
 * context. Every failure sets one "file:line:col: message" and unwinds; recursion depth and the
 * size of one statement are bounded so that no input crashes or hangs the parser. */
#include "model/ir.h"
#include "model/lexer.h"
#include "model/expr_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 200          /* nesting of parentheses, unary operators, conditions, blocks */
#define MAX_STATEMENT_OPS 5000 /* operators in one statement: bounds the depth of left chains */
#define MAX_DER_ORDER 8

typedef struct parser {
    const char *src, *file;
    token_list toks;
    size_t pos;
    nsdae_model *m;
    nsdae_error *err;
    nsdae_status st;
    int depth, ops;
    int block, branch; /* current guard context */
} parser;

static const token *peek(parser *P) { return &P->toks.v[P->pos]; }
static const token *peek_at(parser *P, size_t k)
{
    size_t i = P->pos + k;
    return &P->toks.v[i < P->toks.n ? i : P->toks.n - 1];
}
static const token *advance(parser *P)
{
    const token *t = &P->toks.v[P->pos];
    if (t->kind != T_EOF) P->pos++;
    return t;
}
static int accept(parser *P, tok_kind k)
{
    if (peek(P)->kind != k) return 0;
    advance(P);
    return 1;
}
static nsdae_srcpos pos_of(const token *t) { return (nsdae_srcpos){t->line, t->col}; }

/* Reports an error at token t (only the first error is kept). */
static void perr(parser *P, const token *t, const char *fmt, ...)
{
    if (P->st) return;
    char msg[360];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    P->st = nsdae_error_set(P->err, NSDAE_PARSE, "%s:%d:%d: %s", P->file, t->line, t->col, msg);
}

static void nomem(parser *P)
{
    if (!P->st) P->st = nsdae_error_set(P->err, NSDAE_NOMEM, "%s: out of memory while parsing", P->file);
}

/* "'x1'", "'1.5'", "'then'", "end of file": how a found token is described. */
static const char *describe(parser *P, const token *t, char *buf, size_t size)
{
    if (t->kind == T_EOF) return "end of file";
    int n = t->len > 40 ? 40 : (int)t->len;
    snprintf(buf, size, "'%.*s%s'", n, P->src + t->start, t->len > 40 ? "..." : "");
    return buf;
}

static int expect(parser *P, tok_kind k, const char *context)
{
    if (P->st) return 0;
    if (accept(P, k)) return 1;
    char b[64];
    perr(P, peek(P), "expected %s%s, found %s", nsdae_tok_name(k), context, describe(P, peek(P), b, sizeof b));
    return 0;
}

static int tok_is(parser *P, const token *t, const char *text)
{
    return t->kind == T_IDENT && t->len == strlen(text) && memcmp(P->src + t->start, text, t->len) == 0;
}

static int enter(parser *P)
{
    if (++P->depth > MAX_DEPTH) {
        perr(P, peek(P), "nesting too deep (more than %d levels)", MAX_DEPTH);
        return 0;
    }
    return 1;
}

static const nsdae_expr *checked(parser *P, const nsdae_expr *e)
{
    if (!e) nomem(P);
    return e;
}

static int find_name(const char *const *names, int n, const char *s, size_t len)
{
    for (int i = 0; i < n; i++)
        if (strlen(names[i]) == len && memcmp(names[i], s, len) == 0) return i;
    return -1;
}

/* ---- expressions ---------------------------------------------------------------------------- */

static const nsdae_expr *parse_expr(parser *P);

static const struct {
    const char *name;
    nsdae_expr_kind kind;
    int arity;
} functions[] = {
    {"sin", NSDAE_EXPR_SIN, 1}, {"cos", NSDAE_EXPR_COS, 1}, {"exp", NSDAE_EXPR_EXP, 1},
    {"log", NSDAE_EXPR_LOG, 1}, {"sqrt", NSDAE_EXPR_SQRT, 1}, {"abs", NSDAE_EXPR_ABS, 1},
    {"sign", NSDAE_EXPR_SIGN, 1}, {"min", NSDAE_EXPR_MIN, 2}, {"max", NSDAE_EXPR_MAX, 2},
};

static const nsdae_expr *parse_call(parser *P, const token *name)
{
    int f = -1;
    for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++)
        if (tok_is(P, name, functions[i].name)) f = (int)i;
    const char *s = P->src + name->start;
    if (f < 0) {
        if (find_name((const char *const *)P->m->var_names, P->m->nvars, s, name->len) >= 0 ||
            find_name((const char *const *)P->m->param_names, P->m->nparams, s, name->len) >= 0)
            perr(P, name, "'%.*s' is not a function (functions: sin cos exp log sqrt abs sign min max)",
                 (int)name->len, s);
        else
            perr(P, name, "unknown function '%.*s' (functions: sin cos exp log sqrt abs sign min max)",
                 (int)name->len, s);
        return NULL;
    }
    advance(P); /* '(' */
    const nsdae_expr *args[2] = {NULL, NULL};
    int n = 0;
    for (;;) {
        const token *at = peek(P);
        const nsdae_expr *a = parse_expr(P);
        if (!a) return NULL;
        if (n >= functions[f].arity) {
            perr(P, at, "'%s' takes %d argument%s", functions[f].name, functions[f].arity,
                 functions[f].arity > 1 ? "s" : "");
            return NULL;
        }
        args[n++] = a;
        if (!accept(P, T_COMMA)) break;
    }
    if (!expect(P, T_RPAREN, " after the arguments")) return NULL;
    if (n != functions[f].arity) {
        perr(P, name, "'%s' takes %d argument%s, found %d", functions[f].name, functions[f].arity,
             functions[f].arity > 1 ? "s" : "", n);
        return NULL;
    }
    return checked(P, n == 1 ? nsdae_expr_unary(P->m->pool, functions[f].kind, args[0])
                             : nsdae_expr_binary(P->m->pool, functions[f].kind, args[0], args[1]));
}

static const nsdae_expr *parse_primary(parser *P)
{
    const token *t = peek(P);
    char b[64];
    switch (t->kind) {
    case T_NUMBER: advance(P); return checked(P, X_C(P->m->pool, t->number));
    case T_TIME: advance(P); return checked(P, nsdae_expr_time(P->m->pool));
    case T_LPAREN: {
        advance(P);
        const nsdae_expr *e = parse_expr(P);
        if (!e || !expect(P, T_RPAREN, " to close '('")) return NULL;
        return e;
    }
    case T_DER: {
        advance(P);
        if (!expect(P, T_LPAREN, " after 'der'")) return NULL;
        const token *at = peek(P);
        const nsdae_expr *e = parse_expr(P);
        if (!e || !expect(P, T_RPAREN, " to close 'der('")) return NULL;
        if (e->kind != NSDAE_EXPR_VAR) {
            if (e->kind == NSDAE_EXPR_PARAM)
                perr(P, at, "der of parameter '%s': expected a variable", P->m->param_names[e->index]);
            else if (e->kind == NSDAE_EXPR_TIME)
                perr(P, at, "der of 'time': expected a variable");
            else
                perr(P, at, "der of an expression: expected a variable or der(variable)");
            return NULL;
        }
        if (e->order + 1 > MAX_DER_ORDER) {
            perr(P, t, "derivative order above %d", MAX_DER_ORDER);
            return NULL;
        }
        return checked(P, nsdae_expr_var(P->m->pool, e->index, e->order + 1));
    }
    case T_IDENT: {
        if (peek_at(P, 1)->kind == T_LPAREN) {
            advance(P);
            return parse_call(P, t);
        }
        advance(P);
        const char *s = P->src + t->start;
        int j = find_name((const char *const *)P->m->var_names, P->m->nvars, s, t->len);
        if (j >= 0) return checked(P, nsdae_expr_var(P->m->pool, j, 0));
        int k = find_name((const char *const *)P->m->param_names, P->m->nparams, s, t->len);
        if (k >= 0) return checked(P, nsdae_expr_param(P->m->pool, k));
        for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++)
            if (tok_is(P, t, functions[i].name)) {
                perr(P, t, "function '%s' used without arguments: expected '(' after it", functions[i].name);
                return NULL;
            }
        perr(P, t, "unknown identifier '%.*s'", (int)t->len, s);
        return NULL;
    }
    default:
        perr(P, t, "expected an expression, found %s", describe(P, t, b, sizeof b));
        return NULL;
    }
}

static const nsdae_expr *parse_unary(parser *P);

/* power := primary ['^' unary]: right associative, and the exponent may carry a sign. */
static const nsdae_expr *parse_power(parser *P)
{
    const nsdae_expr *a = parse_primary(P);
    if (!a || peek(P)->kind != T_CARET) return a;
    advance(P);
    if (++P->ops > MAX_STATEMENT_OPS) {
        perr(P, peek(P), "statement too long (more than %d operators)", MAX_STATEMENT_OPS);
        return NULL;
    }
    const nsdae_expr *b = parse_unary(P);
    return b ? checked(P, X_POW(P->m->pool, a, b)) : NULL;
}

static const nsdae_expr *parse_unary(parser *P)
{
    if (!enter(P)) return NULL;
    const nsdae_expr *r;
    if (accept(P, T_MINUS)) {
        r = parse_unary(P);
        r = r ? checked(P, X_NEG(P->m->pool, r)) : NULL;
    } else if (accept(P, T_PLUS)) {
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
        tok_kind k = peek(P)->kind;
        nsdae_expr_kind op;
        if (level == 0 && (k == T_PLUS || k == T_MINUS)) op = k == T_PLUS ? NSDAE_EXPR_ADD : NSDAE_EXPR_SUB;
        else if (level == 1 && (k == T_STAR || k == T_SLASH)) op = k == T_STAR ? NSDAE_EXPR_MUL : NSDAE_EXPR_DIV;
        else break;
        advance(P);
        if (++P->ops > MAX_STATEMENT_OPS) {
            perr(P, peek(P), "statement too long (more than %d operators)", MAX_STATEMENT_OPS);
            return NULL;
        }
        const nsdae_expr *b = level == 0 ? parse_binary_chain(P, 1) : parse_unary(P);
        a = b ? checked(P, nsdae_expr_binary(P->m->pool, op, a, b)) : NULL;
    }
    return a;
}

static const nsdae_expr *parse_expr(parser *P)
{
    if (!enter(P)) return NULL;
    const nsdae_expr *e = parse_binary_chain(P, 0);
    P->depth--;
    return e;
}

/* Parameters, starts, bounds, restitution and experiment settings must not depend on unknowns
 * or time. */
static int require_const(parser *P, const nsdae_expr *e, const token *at, const char *what)
{
    if (!e) return 0;
    if (e->flags & NSDAE_EXPR_HAS_VAR) {
        perr(P, at, "%s must be constant: it uses an unknown", what);
        return 0;
    }
    if (e->flags & NSDAE_EXPR_HAS_TIME) {
        perr(P, at, "%s must be constant: it uses 'time'", what);
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

static const nsdae_cond *parse_cond(parser *P);

static nsdae_cond *new_cond(parser *P, nsdae_cond_kind kind, const token *at)
{
    nsdae_cond *c = nsdae_ir_new_cond(P->m);
    if (!c) {
        nomem(P);
        return NULL;
    }
    c->kind = kind;
    c->pos = pos_of(at);
    return c;
}

static const nsdae_cond *parse_cond_atom(parser *P)
{
    const token *t = peek(P);
    if (accept(P, T_NOT)) {
        if (!enter(P)) return NULL;
        const nsdae_cond *a = parse_cond_atom(P);
        P->depth--;
        nsdae_cond *c = a ? new_cond(P, NSDAE_COND_NOT, t) : NULL;
        if (c) c->a = a;
        return c;
    }
    if (t->kind == T_LPAREN && paren_is_cond(P)) {
        advance(P);
        const nsdae_cond *c = parse_cond(P);
        if (!c || !expect(P, T_RPAREN, " to close '(' in the condition")) return NULL;
        return c;
    }
    const nsdae_expr *l = parse_expr(P);
    if (!l) return NULL;
    const token *op = peek(P);
    nsdae_cond_kind kind;
    switch (op->kind) {
    case T_GT: kind = NSDAE_COND_GT; break;
    case T_GE: kind = NSDAE_COND_GE; break;
    case T_LT: kind = NSDAE_COND_LT; break;
    case T_LE: kind = NSDAE_COND_LE; break;
    default: {
        char b[64];
        perr(P, op, "expected a comparison ('>', '<', '>=' or '<=') in the condition, found %s",
             describe(P, op, b, sizeof b));
        return NULL;
    }
    }
    advance(P);
    const nsdae_expr *r = parse_expr(P);
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
    while (a && peek(P)->kind == op) {
        const token *t = advance(P);
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

static const nsdae_cond *parse_cond(parser *P)
{
    if (!enter(P)) return NULL;
    const nsdae_cond *c = parse_cond_level(P, 0);
    P->depth--;
    return c;
}

/* ---- equations ------------------------------------------------------------------------------ */

static int parse_equation_list(parser *P, int nested);

static char *slice(parser *P, const token *first, const token *last)
{
    size_t a = first->start, b = last->start + last->len;
    if (b < a) b = a;
    char *s = malloc(b - a + 1);
    if (!s) return NULL;
    memcpy(s, P->src + a, b - a);
    s[b - a] = '\0';
    return s;
}

static int add_equation(parser *P, nsdae_equation *q, const token *first)
{
    const token *last = &P->toks.v[P->pos > 0 ? P->pos - 1 : 0];
    if (!expect(P, T_SEMI, " at the end of the equation")) return 0;
    q->pos = pos_of(first);
    q->block = P->block;
    q->branch = P->branch;
    q->text = slice(P, first, last);
    if (!q->text) {
        nomem(P);
        return 0;
    }
    nsdae_error e2;
    if (nsdae_ir_add_equation(P->m, q, &e2)) {
        free((char *)q->text);
        nomem(P);
        return 0;
    }
    return 1;
}

static int is_zero_const(const nsdae_expr *e) { return e->kind == NSDAE_EXPR_CONST && e->value == 0.0; }

/* 0 <= a _|_ b >= 0 [restitution E]; `first` is the leading 0 (already parsed as lhs). */
static int parse_compl(parser *P, const nsdae_expr *lhs, const token *first)
{
    nsdae_expr_pool *pool = P->m->pool;
    if (!is_zero_const(lhs)) {
        perr(P, first, "expected '0' on the left of '<=' (complementarity: 0 <= a _|_ b >= 0)");
        return 0;
    }
    advance(P); /* '<=' */
    nsdae_equation q;
    memset(&q, 0, sizeof q);
    q.kind = NSDAE_EQ_COMPL;
    q.var = -1;
    q.a = parse_expr(P);
    if (!q.a || !expect(P, T_PERP, " in the complementarity 0 <= a _|_ b >= 0")) return 0;
    q.b = parse_expr(P);
    if (!q.b || !expect(P, T_GE, " after the second side of '_|_'")) return 0;
    const token *z = peek(P);
    if (z->kind != T_NUMBER || z->number != 0.0) {
        char b[64];
        perr(P, z, "expected 0 after '>=' in the complementarity, found %s", describe(P, z, b, sizeof b));
        return 0;
    }
    advance(P);
    if (accept(P, T_RESTITUTION)) {
        const token *at = peek(P);
        q.restitution = parse_expr(P);
        if (!require_const(P, q.restitution, at, "the restitution coefficient")) return 0;
    }
    (void)pool;
    return add_equation(P, &q, first);
}

/* VAR in [-][LO, HI] * sign(EXPR) */
static int parse_sign(parser *P, const nsdae_expr *lhs, const token *first)
{
    nsdae_expr_pool *pool = P->m->pool;
    if (lhs->kind != NSDAE_EXPR_VAR || lhs->order != 0) {
        perr(P, first, "expected a variable before 'in' (relay: VAR in sign(EXPR))");
        return 0;
    }
    advance(P); /* 'in' */
    nsdae_equation q;
    memset(&q, 0, sizeof q);
    q.kind = NSDAE_EQ_SIGN;
    q.var = lhs->index;
    int negate = accept(P, T_MINUS);
    q.lo = X_C(pool, -1.0);
    q.hi = X_C(pool, 1.0);
    if (accept(P, T_LBRACKET)) {
        const token *at = peek(P);
        q.lo = parse_expr(P);
        if (!require_const(P, q.lo, at, "the lower bound") || !expect(P, T_COMMA, " between the bounds")) return 0;
        at = peek(P);
        q.hi = parse_expr(P);
        if (!require_const(P, q.hi, at, "the upper bound") || !expect(P, T_RBRACKET, " after the bounds") ||
            !expect(P, T_STAR, " between the bounds and 'sign'"))
            return 0;
    }
    const token *s = peek(P);
    if (!tok_is(P, s, "sign") || peek_at(P, 1)->kind != T_LPAREN) {
        char b[64];
        perr(P, s, "expected 'sign(' in the relay relation, found %s", describe(P, s, b, sizeof b));
        return 0;
    }
    advance(P);
    advance(P);
    q.arg = parse_expr(P);
    if (!q.arg || !expect(P, T_RPAREN, " to close 'sign('")) return 0;
    if (negate) { /* v in -[lo,hi] sign(e)  <=>  v in [-hi,-lo] sign(-e) */
        const nsdae_expr *lo = q.lo;
        q.lo = X_NEG(pool, q.hi);
        q.hi = X_NEG(pool, lo);
        q.arg = X_NEG(pool, q.arg);
        if (!q.lo || !q.hi || !q.arg) {
            nomem(P);
            return 0;
        }
    }
    nsdae_eval_env env = {P->m->param_values, P->m->nparams, NULL, 0, 0, 0.0};
    double lo = nsdae_expr_eval(q.lo, &env), hi = nsdae_expr_eval(q.hi, &env);
    if (!(lo <= hi)) {
        perr(P, first, "relay bounds [%g, %g]: the lower bound must not exceed the upper bound", lo, hi);
        return 0;
    }
    return add_equation(P, &q, first);
}

static int parse_simple_equation(parser *P)
{
    const token *first = peek(P);
    P->ops = 0;
    const nsdae_expr *lhs = parse_expr(P);
    if (!lhs) return 0;
    const token *t = peek(P);
    if (t->kind == T_LE) return parse_compl(P, lhs, first);
    if (t->kind == T_IN) return parse_sign(P, lhs, first);
    if (t->kind != T_ASSIGN) {
        char b[64];
        perr(P, t, "expected '=' after the left-hand side of the equation, found %s", describe(P, t, b, sizeof b));
        return 0;
    }
    advance(P);
    nsdae_equation q;
    memset(&q, 0, sizeof q);
    q.kind = NSDAE_EQ_EQUAL;
    q.var = -1;
    q.lhs = lhs;
    q.rhs = parse_expr(P);
    if (!q.rhs) return 0;
    q.residual = checked(P, X_SUB(P->m->pool, q.lhs, q.rhs));
    if (!q.residual) return 0;
    return add_equation(P, &q, first);
}

/* if COND then EQS {elseif COND then EQS} else EQS end if;  Returns equations per branch, -1 on error. */
static int parse_if(parser *P)
{
    const token *t_if = advance(P);
    nsdae_block blk;
    memset(&blk, 0, sizeof blk);
    blk.kind = NSDAE_BLOCK_IF;
    blk.pos = pos_of(t_if);
    blk.parent = P->block;
    blk.parent_branch = P->branch;
    int index;
    nsdae_error e2;
    if (nsdae_ir_add_block(P->m, &blk, &index, &e2)) {
        nomem(P);
        return -1;
    }
    const nsdae_cond **conds = NULL;
    int nconds = 0, first_count = -1, branch = 0, time_only = 1;
    int saved_block = P->block, saved_branch = P->branch;
    const token *branch_tok = t_if;
    for (;;) {
        int is_else = branch_tok->kind == T_ELSE;
        if (!is_else) {
            P->ops = 0;
            const nsdae_cond *c = parse_cond(P);
            if (!c || !expect(P, T_THEN, " after the condition")) break;
            const nsdae_cond **v = realloc(conds, (size_t)(nconds + 1) * sizeof *v);
            if (!v) { nomem(P); break; }
            conds = v;
            conds[nconds++] = c;
            if (nsdae_cond_has_var(c)) time_only = 0;
        }
        P->block = index;
        P->branch = branch;
        int count = parse_equation_list(P, 1);
        P->block = saved_block;
        P->branch = saved_branch;
        if (count < 0) break;
        if (first_count < 0) first_count = count;
        else if (count != first_count) {
            perr(P, branch_tok,
                 "this branch of the 'if' at line %d has %d equation%s but the first branch has %d: every branch "
                 "must have the same number of equations",
                 t_if->line, count, count == 1 ? "" : "s", first_count);
            break;
        }
        branch++;
        if (is_else) {
            if (expect(P, T_END, " after the else branch") &&
                expect(P, T_IF, " after 'end' (to close the 'if')"))
                expect(P, T_SEMI, " after 'end if'");
            break;
        }
        const token *t = peek(P);
        if (t->kind == T_ELSEIF || t->kind == T_ELSE) {
            branch_tok = advance(P);
            continue;
        }
        char b[64];
        if (t->kind == T_END)
            perr(P, t, "expected 'else' before 'end if': an 'if' needs an else branch with the same number of "
                       "equations");
        else
            perr(P, t, "expected 'elseif', 'else' or an equation, found %s", describe(P, t, b, sizeof b));
        break;
    }
    nsdae_block *bp = &P->m->blocks[index];
    bp->conds = conds;
    bp->nbranches = nconds + 1;
    bp->neqs = first_count < 0 ? 0 : first_count;
    bp->time_only = time_only;
    return P->st ? -1 : first_count;
}

/* when COND then EQS end when;  Transient-mode equations do not count in the enclosing branch. */
static int parse_when(parser *P)
{
    const token *t_when = advance(P);
    nsdae_block blk;
    memset(&blk, 0, sizeof blk);
    blk.kind = NSDAE_BLOCK_WHEN;
    blk.pos = pos_of(t_when);
    blk.parent = P->block;
    blk.parent_branch = P->branch;
    blk.nbranches = 1;
    int index;
    nsdae_error e2;
    if (nsdae_ir_add_block(P->m, &blk, &index, &e2)) {
        nomem(P);
        return -1;
    }
    P->ops = 0;
    const nsdae_cond *c = parse_cond(P);
    const nsdae_cond **conds = c ? malloc(sizeof *conds) : NULL;
    if (c && !conds) nomem(P);
    if (conds) conds[0] = c;
    P->m->blocks[index].conds = conds;
    if (!conds || !expect(P, T_THEN, " after the condition")) return -1;
    P->m->blocks[index].time_only = !nsdae_cond_has_var(c);
    int saved_block = P->block, saved_branch = P->branch;
    P->block = index;
    P->branch = 0;
    int count = parse_equation_list(P, 1);
    P->block = saved_block;
    P->branch = saved_branch;
    if (count < 0) return -1;
    P->m->blocks[index].neqs = count;
    if (!expect(P, T_END, " to close the 'when'") || !expect(P, T_WHEN, " after 'end' (to close the 'when')") ||
        !expect(P, T_SEMI, " after 'end when'"))
        return -1;
    return 0;
}

/* Equations until a token that ends the list; returns how many (nested if-blocks count their
 * per-branch number), -1 on error. */
static int parse_equation_list(parser *P, int nested)
{
    int count = 0;
    if (!enter(P)) return -1;
    for (;;) {
        tok_kind k = peek(P)->kind;
        if (k == T_ELSEIF || k == T_ELSE || k == T_END || k == T_EOF) break;
        if (!nested && (k == T_EXPERIMENT || k == T_PARAMETER || k == T_VAR || k == T_EQUATION)) break;
        if (nested && (k == T_EXPERIMENT || k == T_PARAMETER || k == T_VAR || k == T_EQUATION)) {
            char b[64];
            perr(P, peek(P), "expected an equation or the end of the block, found %s",
                 describe(P, peek(P), b, sizeof b));
            return -1;
        }
        int n;
        if (k == T_IF) n = parse_if(P);
        else if (k == T_WHEN) n = parse_when(P);
        else n = parse_simple_equation(P) ? 1 : -1;
        if (n < 0 || P->st) return -1;
        count += n;
    }
    P->depth--;
    return count;
}

/* ---- declarations and the model ------------------------------------------------------------- */

static int check_new_name(parser *P, const token *t)
{
    const char *s = P->src + t->start;
    int j = find_name((const char *const *)P->m->var_names, P->m->nvars, s, t->len);
    const nsdae_srcpos *first = NULL;
    if (j >= 0) first = &P->m->vars[j].pos;
    int k = find_name((const char *const *)P->m->param_names, P->m->nparams, s, t->len);
    if (k >= 0) first = &P->m->params[k].pos;
    if (first) {
        perr(P, t, "duplicate declaration of '%.*s' (first declared at %d:%d)", (int)t->len, s, first->line,
             first->col);
        return 0;
    }
    return 1;
}

static const token *expect_name(parser *P, const char *after)
{
    const token *t = peek(P);
    if (t->kind == T_IDENT) return advance(P);
    char b[64];
    perr(P, t, "expected a name after %s, found %s", after, describe(P, t, b, sizeof b));
    return NULL;
}

static int parse_parameter(parser *P)
{
    advance(P);
    const token *name = expect_name(P, "'parameter'");
    if (!name || !check_new_name(P, name) || !expect(P, T_ASSIGN, " after the parameter name")) return 0;
    P->ops = 0;
    const token *at = peek(P);
    const nsdae_expr *e = parse_expr(P);
    if (!require_const(P, e, at, "a parameter value") || !expect(P, T_SEMI, " after the parameter value")) return 0;
    nsdae_error e2;
    if (nsdae_ir_add_param(P->m, P->src + name->start, name->len, pos_of(name), e, &e2)) {
        nomem(P);
        return 0;
    }
    return 1;
}

static int parse_var(parser *P)
{
    advance(P);
    const token *name = expect_name(P, "'var'");
    if (!name || !check_new_name(P, name)) return 0;
    const nsdae_expr *start = NULL, *dstart = NULL;
    if (accept(P, T_LPAREN)) {
        do {
            const token *mod = peek(P);
            int is_start = tok_is(P, mod, "start"), is_dstart = tok_is(P, mod, "dstart");
            if (!is_start && !is_dstart) {
                char b[64];
                perr(P, mod, "expected 'start' or 'dstart' in the declaration of '%.*s', found %s", (int)name->len,
                     P->src + name->start, describe(P, mod, b, sizeof b));
                return 0;
            }
            if ((is_start && start) || (is_dstart && dstart)) {
                perr(P, mod, "'%s' given twice", is_start ? "start" : "dstart");
                return 0;
            }
            advance(P);
            if (!expect(P, T_ASSIGN, is_start ? " after 'start'" : " after 'dstart'")) return 0;
            P->ops = 0;
            const token *at = peek(P);
            const nsdae_expr *e = parse_expr(P);
            if (!require_const(P, e, at, is_start ? "a start value" : "a dstart value")) return 0;
            if (is_start) start = e;
            else dstart = e;
        } while (accept(P, T_COMMA));
        if (!expect(P, T_RPAREN, " after the start values")) return 0;
    }
    if (!expect(P, T_SEMI, " after the variable declaration")) return 0;
    nsdae_error e2;
    if (nsdae_ir_add_var(P->m, P->src + name->start, name->len, pos_of(name), &e2)) {
        nomem(P);
        return 0;
    }
    P->m->vars[P->m->nvars - 1].start = start;
    P->m->vars[P->m->nvars - 1].dstart = dstart;
    return 1;
}

/* experiment stop = T, step = H [, scheme = NAME]; (settings in any order, each at most once) */
static int parse_experiment(parser *P, int *seen)
{
    const token *t_exp = advance(P);
    if (*seen) {
        perr(P, t_exp, "a second 'experiment' annotation");
        return 0;
    }
    *seen = 1;
    int have_stop = 0, have_step = 0, have_scheme = 0;
    nsdae_eval_env env = {P->m->param_values, P->m->nparams, NULL, 0, 0, 0.0};
    do {
        const token *key = peek(P);
        int is_stop = tok_is(P, key, "stop"), is_step = tok_is(P, key, "step"), is_scheme = tok_is(P, key, "scheme");
        if (!is_stop && !is_step && !is_scheme) {
            char b[64];
            perr(P, key, "expected 'stop', 'step' or 'scheme' in the experiment, found %s",
                 describe(P, key, b, sizeof b));
            return 0;
        }
        if ((is_stop && have_stop) || (is_step && have_step) || (is_scheme && have_scheme)) {
            perr(P, key, "experiment setting '%.*s' given twice", (int)key->len, P->src + key->start);
            return 0;
        }
        advance(P);
        if (!expect(P, T_ASSIGN, " after the experiment setting")) return 0;
        if (is_scheme) {
            const token *v = expect_name(P, "'scheme ='");
            if (!v) return 0;
            char *s = slice(P, v, v);
            if (!s) { nomem(P); return 0; }
            P->m->experiment.scheme = s;
            have_scheme = 1;
            continue;
        }
        P->ops = 0;
        const token *at = peek(P);
        const nsdae_expr *e = parse_expr(P);
        if (!require_const(P, e, at, is_stop ? "the stop time" : "the step")) return 0;
        double v = nsdae_expr_eval(e, &env);
        if (!(v > 0)) {
            perr(P, at, "experiment %s must be positive, found %g", is_stop ? "stop" : "step", v);
            return 0;
        }
        if (is_stop) { P->m->stop_expr = e; have_stop = 1; }
        else { P->m->step_expr = e; have_step = 1; }
    } while (accept(P, T_COMMA));
    return expect(P, T_SEMI, " at the end of the experiment annotation");
}

static void parse_model(parser *P)
{
    if (!expect(P, T_MODEL, " at the start of the file")) return;
    const token *name = expect_name(P, "'model'");
    if (!name) return;
    P->m->name = slice(P, name, name);
    if (!P->m->name) { nomem(P); return; }
    int seen_experiment = 0, in_equations = 0;
    while (!P->st) {
        const token *t = peek(P);
        char b[64];
        switch (t->kind) {
        case T_PARAMETER: parse_parameter(P); break;
        case T_VAR: parse_var(P); break;
        case T_EXPERIMENT: parse_experiment(P, &seen_experiment); break;
        case T_EQUATION:
            advance(P);
            in_equations = 1;
            parse_equation_list(P, 0);
            break;
        case T_END: {
            advance(P);
            const token *n2 = peek(P);
            if (n2->kind == T_IF || n2->kind == T_WHEN) {
                perr(P, t, "'end %s' without a matching '%s'", n2->kind == T_IF ? "if" : "when",
                     n2->kind == T_IF ? "if" : "when");
                return;
            }
            if (n2->kind != T_IDENT || n2->len != strlen(P->m->name) ||
                memcmp(P->src + n2->start, P->m->name, n2->len) != 0) {
                perr(P, n2, "expected 'end %s;', found %s", P->m->name, describe(P, n2, b, sizeof b));
                return;
            }
            advance(P);
            if (!expect(P, T_SEMI, " after the model name")) return;
            if (peek(P)->kind != T_EOF)
                perr(P, peek(P), "expected end of file after 'end %s;', found %s", P->m->name,
                     describe(P, peek(P), b, sizeof b));
            return;
        }
        case T_EOF: perr(P, t, "expected 'end %s;' before end of file", P->m->name); return;
        default:
            if (in_equations)
                perr(P, t, "expected an equation, found %s", describe(P, t, b, sizeof b));
            else
                perr(P, t, "expected 'parameter', 'var', 'equation' or 'end', found %s", describe(P, t, b, sizeof b));
            return;
        }
    }
}

nsdae_status nsdae_model_parse_string(const char *text, size_t length, const char *filename, nsdae_model **out,
                                      nsdae_error *err)
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
    nsdae_status st = nsdae_lex(text, length, filename, &P.toks, err);
    if (st) return st;
    st = nsdae_ir_create(filename, &P.m, err);
    if (st) {
        nsdae_tokens_free(&P.toks);
        return st;
    }
    parse_model(&P);
    nsdae_tokens_free(&P.toks);
    if (!P.st && nsdae_expr_pool_failed(P.m->pool)) nomem(&P);
    if (P.st) {
        nsdae_model_destroy(P.m);
        return P.st;
    }
    nsdae_ir_finish(P.m);
    *out = P.m;
    return NSDAE_OK;
}

nsdae_status nsdae_model_parse_file(const char *path, nsdae_model **out, nsdae_error *err)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) return nsdae_error_set(err, NSDAE_IO, "%s: cannot open the model file", path);
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
    int ioerr = ferror(f);
    fclose(f);
    if (!buf) return nsdae_error_set(err, NSDAE_NOMEM, "%s: out of memory reading the model", path);
    if (ioerr) {
        free(buf);
        return nsdae_error_set(err, NSDAE_IO, "%s: read error", path);
    }
    nsdae_status st = nsdae_model_parse_string(buf, n, path, out, err);
    free(buf);
    return st;
}
