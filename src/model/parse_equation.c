/* Equations, complementarity and relay relations, if and when blocks, with their guard context. */
#include "model/parser_internal.h"
#include "model/expr_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- equations ------------------------------------------------------------------------------ */

char *nsdae_ps_slice(parser *P, const token *first, const token *last)
{
    size_t a = first->start, b = last->start + last->len;
    if (b < a) b = a;
    char *s = malloc(b - a + 1);
    if (!s) return NULL;
    memcpy(s, P->src + a, b - a);
    s[b - a] = '\0';
    return s;
}

/* The source text of an equation; an equation unrolled from a loop body also names its
 * iteration ("der(z[i]) = v[i] with i = 3"), since every iteration shares the text and position. */
static char *equation_text(parser *P, const token *first, const token *last)
{
    char *text = nsdae_ps_slice(P, first, last);
    if (!text || P->nloops == 0) return text;
    size_t n = strlen(text), cap = n + 8 + (size_t)P->nloops * 48;
    char *t = realloc(text, cap);
    if (!t) {
        free(text);
        return NULL;
    }
    for (int k = 0; k < P->nloops; k++)
        n += (size_t)snprintf(t + n, cap - n, "%s%.*s = %ld", k ? ", " : " with ",
                              (int)(P->loops[k].len > 24 ? 24 : P->loops[k].len), P->loops[k].name,
                              P->loops[k].value);
    return t;
}

static int add_equation(parser *P, nsdae_equation *q, const token *first)
{
    const token *last = &P->toks.v[P->pos > 0 ? P->pos - 1 : 0];
    if (!nsdae_ps_expect(P, T_SEMI, " at the end of the equation")) return 0;
    q->pos = pos_of(first);
    q->block = P->block;
    q->branch = P->branch;
    q->text = equation_text(P, first, last);
    if (!q->text) {
        nsdae_ps_nomem(P);
        return 0;
    }
    nsdae_error e2;
    if (nsdae_ir_add_equation(P->m, q, &e2)) {
        free((char *)q->text);
        nsdae_ps_nomem(P);
        return 0;
    }
    return 1;
}

static int is_zero_const(const nsdae_expr *e) { return e->kind == NSDAE_EXPR_CONST && e->value == 0.0; }

/* The contextual word `word` (an identifier, not a keyword) or an error saying what follows it. */
static int expect_word(parser *P, const char *word, const char *after)
{
    const token *z = nsdae_ps_peek(P);
    if (nsdae_ps_tok_is(P, z, word)) {
        nsdae_ps_advance(P);
        return 1;
    }
    char b[64];
    nsdae_ps_perr(P, z, "expected '%s' %s (friction MU tangent S force F), found %s", word, after,
                  nsdae_ps_describe(P, z, b, sizeof b));
    return 0;
}

/* friction MU tangent S force F (after the complementarity and its restitution). The three words
 * are read in this position only, so they stay free as names everywhere else. */
static int parse_friction(parser *P, nsdae_equation *q)
{
    const token *at = nsdae_ps_peek(P);
    q->friction = nsdae_ps_parse_expr(P);
    if (!nsdae_ps_require_const(P, q->friction, at, "the friction coefficient") ||
        !expect_word(P, "tangent", "after the friction coefficient"))
        return 0;
    q->tangent = nsdae_ps_parse_expr(P);
    if (!q->tangent || !expect_word(P, "force", "and the tangential force after the tangent")) return 0;
    at = nsdae_ps_peek(P);
    q->tforce = nsdae_ps_parse_expr(P);
    if (!q->tforce) return 0;
    if (q->tforce->kind != NSDAE_EXPR_VAR || q->tforce->order != 0) {
        nsdae_ps_perr(P, at, "the tangential force after 'force' must be an unknown (a variable, not "
                             "differentiated), the one that enters the equations of motion");
        return 0;
    }
    return 1;
}

/* 0 <= a _|_ b >= 0 [restitution E] [friction MU tangent S force F]; `first` is the leading 0
 * (already parsed as lhs). */
static int parse_compl(parser *P, const nsdae_expr *lhs, const token *first)
{
    if (!is_zero_const(lhs)) {
        nsdae_ps_perr(P, first, "expected '0' on the left of '<=' (complementarity: 0 <= a _|_ b >= 0)");
        return 0;
    }
    nsdae_ps_advance(P); /* '<=' */
    nsdae_equation q;
    memset(&q, 0, sizeof q);
    q.kind = NSDAE_EQ_COMPL;
    q.var = -1;
    q.a = nsdae_ps_parse_expr(P);
    if (!q.a || !nsdae_ps_expect(P, T_PERP, " in the complementarity 0 <= a _|_ b >= 0")) return 0;
    q.b = nsdae_ps_parse_expr(P);
    if (!q.b || !nsdae_ps_expect(P, T_GE, " after the second side of '_|_'")) return 0;
    const token *z = nsdae_ps_peek(P);
    if (z->kind != T_NUMBER || z->number != 0.0) {
        char b[64];
        nsdae_ps_perr(P, z, "expected 0 after '>=' in the complementarity, found %s",
                      nsdae_ps_describe(P, z, b, sizeof b));
        return 0;
    }
    nsdae_ps_advance(P);
    if (nsdae_ps_accept(P, T_RESTITUTION)) {
        const token *at = nsdae_ps_peek(P);
        q.restitution = nsdae_ps_parse_expr(P);
        if (!nsdae_ps_require_const(P, q.restitution, at, "the restitution coefficient")) return 0;
    }
    if (nsdae_ps_tok_is(P, nsdae_ps_peek(P), "friction")) {
        nsdae_ps_advance(P);
        if (!parse_friction(P, &q)) return 0;
    }
    return add_equation(P, &q, first);
}

/* VAR in [-][LO, HI] * sign(EXPR) */
static int parse_sign(parser *P, const nsdae_expr *lhs, const token *first)
{
    nsdae_expr_pool *pool = P->m->pool;
    if (lhs->kind != NSDAE_EXPR_VAR || lhs->order != 0) {
        nsdae_ps_perr(P, first, "expected a variable before 'in' (relay: VAR in sign(EXPR))");
        return 0;
    }
    nsdae_ps_advance(P); /* 'in' */
    nsdae_equation q;
    memset(&q, 0, sizeof q);
    q.kind = NSDAE_EQ_SIGN;
    q.var = lhs->index;
    int negate = nsdae_ps_accept(P, T_MINUS);
    q.lo = X_C(pool, -1.0);
    q.hi = X_C(pool, 1.0);
    if (nsdae_ps_accept(P, T_LBRACKET)) {
        const token *at = nsdae_ps_peek(P);
        q.lo = nsdae_ps_parse_expr(P);
        if (!nsdae_ps_require_const(P, q.lo, at, "the lower bound") ||
            !nsdae_ps_expect(P, T_COMMA, " between the bounds"))
            return 0;
        at = nsdae_ps_peek(P);
        q.hi = nsdae_ps_parse_expr(P);
        if (!nsdae_ps_require_const(P, q.hi, at, "the upper bound") ||
            !nsdae_ps_expect(P, T_RBRACKET, " after the bounds") ||
            !nsdae_ps_expect(P, T_STAR, " between the bounds and 'sign'"))
            return 0;
    }
    const token *s = nsdae_ps_peek(P);
    if (!nsdae_ps_tok_is(P, s, "sign") || nsdae_ps_peek_at(P, 1)->kind != T_LPAREN) {
        char b[64];
        nsdae_ps_perr(P, s, "expected 'sign(' in the relay relation, found %s", nsdae_ps_describe(P, s, b, sizeof b));
        return 0;
    }
    nsdae_ps_advance(P);
    nsdae_ps_advance(P);
    q.arg = nsdae_ps_parse_expr(P);
    if (!q.arg || !nsdae_ps_expect(P, T_RPAREN, " to close 'sign('")) return 0;
    if (negate) { /* v in -[lo,hi] sign(e)  <=>  v in [-hi,-lo] sign(-e) */
        const nsdae_expr *lo = q.lo;
        q.lo = X_NEG(pool, q.hi);
        q.hi = X_NEG(pool, lo);
        q.arg = X_NEG(pool, q.arg);
        if (!q.lo || !q.hi || !q.arg) {
            nsdae_ps_nomem(P);
            return 0;
        }
    }
    nsdae_eval_env env = {P->m->param_values, P->m->nparams, NULL, 0, 0, 0.0};
    double lo = nsdae_expr_eval(q.lo, &env), hi = nsdae_expr_eval(q.hi, &env);
    if (!(lo <= hi)) {
        nsdae_ps_perr(P, first, "relay bounds [%g, %g]: the lower bound must not exceed the upper bound", lo, hi);
        return 0;
    }
    return add_equation(P, &q, first);
}

static int parse_simple_equation(parser *P)
{
    const token *first = nsdae_ps_peek(P);
    P->ops = 0;
    const nsdae_expr *lhs = nsdae_ps_parse_expr(P);
    if (!lhs) return 0;
    const token *t = nsdae_ps_peek(P);
    if (t->kind == T_LE) return parse_compl(P, lhs, first);
    if (t->kind == T_IN) return parse_sign(P, lhs, first);
    if (t->kind != T_ASSIGN) {
        char b[64];
        nsdae_ps_perr(P, t, "expected '=' after the left-hand side of the equation, found %s",
                      nsdae_ps_describe(P, t, b, sizeof b));
        return 0;
    }
    nsdae_ps_advance(P);
    nsdae_equation q;
    memset(&q, 0, sizeof q);
    q.kind = NSDAE_EQ_EQUAL;
    q.var = -1;
    q.lhs = lhs;
    q.rhs = nsdae_ps_parse_expr(P);
    if (!q.rhs) return 0;
    q.residual = nsdae_ps_checked(P, X_SUB(P->m->pool, q.lhs, q.rhs));
    if (!q.residual) return 0;
    return add_equation(P, &q, first);
}

/* if COND then EQS {elseif COND then EQS} else EQS end if;  Returns equations per branch, -1 on error. */
static int parse_if(parser *P)
{
    const token *t_if = nsdae_ps_advance(P);
    nsdae_block blk;
    memset(&blk, 0, sizeof blk);
    blk.kind = NSDAE_BLOCK_IF;
    blk.pos = pos_of(t_if);
    blk.parent = P->block;
    blk.parent_branch = P->branch;
    int index;
    nsdae_error e2;
    if (nsdae_ir_add_block(P->m, &blk, &index, &e2)) {
        nsdae_ps_nomem(P);
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
            const nsdae_cond *c = nsdae_ps_parse_cond(P);
            if (!c || !nsdae_ps_expect(P, T_THEN, " after the condition")) break;
            const nsdae_cond **v = realloc(conds, (size_t)(nconds + 1) * sizeof *v);
            if (!v) { nsdae_ps_nomem(P); break; }
            conds = v;
            conds[nconds++] = c;
            if (nsdae_cond_has_var(c)) time_only = 0;
        }
        P->block = index;
        P->branch = branch;
        int count = nsdae_ps_parse_equation_list(P, 1);
        P->block = saved_block;
        P->branch = saved_branch;
        if (count < 0) break;
        if (first_count < 0) first_count = count;
        else if (count != first_count) {
            nsdae_ps_perr(
                P, branch_tok,
                "this branch of the 'if' at line %d has %d equation%s but the first branch has %d: every branch "
                "must have the same number of equations",
                t_if->line, count, count == 1 ? "" : "s", first_count);
            break;
        }
        branch++;
        if (is_else) {
            if (nsdae_ps_expect(P, T_END, " after the else branch") &&
                nsdae_ps_expect(P, T_IF, " after 'end' (to close the 'if')"))
                nsdae_ps_expect(P, T_SEMI, " after 'end if'");
            break;
        }
        const token *t = nsdae_ps_peek(P);
        if (t->kind == T_ELSEIF || t->kind == T_ELSE) {
            branch_tok = nsdae_ps_advance(P);
            continue;
        }
        char b[64];
        if (t->kind == T_END)
            nsdae_ps_perr(P, t, "expected 'else' before 'end if': an 'if' needs an else branch with the same number of "
                                "equations");
        else
            nsdae_ps_perr(P, t, "expected 'elseif', 'else' or an equation, found %s",
                          nsdae_ps_describe(P, t, b, sizeof b));
        break;
    }
    nsdae_block *bp = &P->m->blocks[index];
    bp->conds = conds;
    bp->nbranches = nconds + 1;
    bp->neqs = first_count < 0 ? 0 : first_count;
    bp->time_only = time_only;
    return P->st ? -1 : first_count;
}

/* when COND then EQS [else EQS] end when;  The then branch is a transient mode (zero duration,
 * pre() allowed); it does not count in the enclosing branch. The else branch holds in the long
 * modes and counts there; the two may have different equation counts. Returns the else count. */
static int parse_when(parser *P)
{
    const token *t_when = nsdae_ps_advance(P);
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
        nsdae_ps_nomem(P);
        return -1;
    }
    P->ops = 0;
    const nsdae_cond *c = nsdae_ps_parse_cond(P);
    const nsdae_cond **conds = c ? malloc(sizeof *conds) : NULL;
    if (c && !conds) nsdae_ps_nomem(P);
    if (conds) conds[0] = c;
    P->m->blocks[index].conds = conds;
    if (!conds || !nsdae_ps_expect(P, T_THEN, " after the condition")) return -1;
    P->m->blocks[index].time_only = !nsdae_cond_has_var(c);
    int saved_block = P->block, saved_branch = P->branch, saved_pre = P->pre_ok;
    P->block = index;
    P->branch = 0;
    P->pre_ok = 1;
    int count = nsdae_ps_parse_equation_list(P, 1), count_else = 0;
    P->pre_ok = 0; /* the else branch holds over a duration: no left limit there */
    if (count >= 0 && nsdae_ps_peek(P)->kind == T_ELSE) {
        nsdae_ps_advance(P);
        P->branch = 1;
        P->m->blocks[index].nbranches = 2;
        count_else = nsdae_ps_parse_equation_list(P, 1);
    }
    P->block = saved_block;
    P->branch = saved_branch;
    P->pre_ok = saved_pre;
    if (count < 0 || count_else < 0) return -1;
    P->m->blocks[index].neqs = count;
    P->m->blocks[index].neqs_else = count_else;
    if (!nsdae_ps_expect(P, T_END, " to close the 'when'") ||
        !nsdae_ps_expect(P, T_WHEN, " after 'end' (to close the 'when')") ||
        !nsdae_ps_expect(P, T_SEMI, " after 'end when'"))
        return -1;
    return count_else;
}

/* Equations until a token that ends the list; returns how many (nested if-blocks count their
 * per-branch number), -1 on error. */
int nsdae_ps_parse_equation_list(parser *P, int nested)
{
    int count = 0;
    if (!nsdae_ps_enter(P)) return -1;
    for (;;) {
        tok_kind k = nsdae_ps_peek(P)->kind;
        if (k == T_ELSEIF || k == T_ELSE || k == T_END || k == T_EOF) break;
        if (!nested && (k == T_EXPERIMENT || k == T_PARAMETER || k == T_VAR || k == T_EQUATION)) break;
        if (nested && (k == T_EXPERIMENT || k == T_PARAMETER || k == T_VAR || k == T_EQUATION)) {
            char b[64];
            nsdae_ps_perr(P, nsdae_ps_peek(P), "expected an equation or the end of the block, found %s",
                          nsdae_ps_describe(P, nsdae_ps_peek(P), b, sizeof b));
            return -1;
        }
        int n;
        if (k == T_IF) n = parse_if(P);
        else if (k == T_WHEN) n = parse_when(P);
        else if (k == T_FOR) n = nsdae_ps_parse_for(P);
        else n = parse_simple_equation(P) ? 1 : -1;
        if (n < 0 || P->st) return -1;
        count += n;
    }
    P->depth--;
    return count;
}

