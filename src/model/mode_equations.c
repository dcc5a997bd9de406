/* The equations of one mode: the chosen branch of every active switch, complementarity pairs and
 * relays by their choice, and the relaxed sliding mode of a state-guarded `if`. */
#include <nsdae/mode.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEXT_SIZE 256

/* ---- the relaxation of a state switch ------------------------------------------------------ */

const nsdae_expr *nsdae_mode_switching_function(nsdae_expr_pool *pool, const nsdae_cond *c)
{
    switch (c->kind) {
    case NSDAE_COND_GT:
    case NSDAE_COND_GE: return nsdae_expr_binary(pool, NSDAE_EXPR_SUB, c->lhs, c->rhs);
    case NSDAE_COND_LT:
    case NSDAE_COND_LE: return nsdae_expr_binary(pool, NSDAE_EXPR_SUB, c->rhs, c->lhs);
    case NSDAE_COND_NOT: {
        const nsdae_expr *h = nsdae_mode_switching_function(pool, c->a);
        return h ? nsdae_expr_unary(pool, NSDAE_EXPR_NEG, h) : NULL;
    }
    default: return NULL; /* and/or: no single switching function */
    }
}

const nsdae_expr *nsdae_mode_relax(nsdae_expr_pool *pool, const nsdae_expr *g1, const nsdae_expr *g2,
                                   const nsdae_expr *s)
{
    const nsdae_expr *d = nsdae_expr_binary(pool, NSDAE_EXPR_SUB, g1, g2);
    return nsdae_expr_binary(pool, NSDAE_EXPR_ADD, g2, nsdae_expr_binary(pool, NSDAE_EXPR_MUL, s, d));
}

const nsdae_expr *nsdae_mode_relax_affine(nsdae_expr_pool *pool, const nsdae_expr *g2, double a, const nsdae_expr *sh,
                                          double k, const nsdae_expr *s)
{
    const nsdae_expr *g = g2;
    if (a != 0.0)
        g = nsdae_expr_binary(pool, NSDAE_EXPR_ADD, g,
                              nsdae_expr_binary(pool, NSDAE_EXPR_MUL, nsdae_expr_const(pool, a), sh));
    if (k != 0.0)
        g = nsdae_expr_binary(pool, NSDAE_EXPR_ADD, g,
                              nsdae_expr_binary(pool, NSDAE_EXPR_MUL, nsdae_expr_const(pool, k), s));
    return g;
}

/* ---- building the list ----------------------------------------------------------------------- */

typedef struct builder {
    const nsdae_model *m;
    nsdae_expr_pool *pool;
    const nsdae_switches *s;
    const int *choice;
    int *block_switch;          /* per model block: its switch */
    int *eq_switch;             /* per model equation: its COMPL/SIGN switch, or -1 */
    int *relax_of;              /* per switch: 1 + its relaxation unknown, 0 none yet */
    nsdae_mode_system *ms;
    int cap, cap_relax;
} builder;

void nsdae_mode_system_destroy(nsdae_mode_system *ms)
{
    if (!ms) return;
    for (int i = 0; i < ms->neq; i++) free(ms->eqs[i].text);
    for (int k = 0; k < ms->nrelax; k++) free(ms->relax_names[k]);
    free(ms->eqs);
    free(ms->relax_switch);
    free(ms->relax_names);
    nsdae_expr_pool_destroy(ms->pool);
    free(ms);
}

static int add_eq(builder *B, const nsdae_expr *r, int origin, int sw, const char *text)
{
    nsdae_mode_system *ms = B->ms;
    if (!r) return 0;
    if (ms->neq == B->cap) {
        int c = B->cap ? 2 * B->cap : 16;
        nsdae_mode_eq *v = realloc(ms->eqs, (size_t)c * sizeof *v);
        if (!v) return 0;
        ms->eqs = v;
        B->cap = c;
    }
    char *t = strdup(text);
    if (!t) return 0;
    ms->eqs[ms->neq++] = (nsdae_mode_eq){r, origin, sw, t};
    return 1;
}

/* A new relaxation unknown for sliding switch sw; returns its index among the relaxations, -1 (memory). */
static int add_relax(builder *B, int sw)
{
    nsdae_mode_system *ms = B->ms;
    if (ms->nrelax == B->cap_relax) {
        int c = B->cap_relax ? 2 * B->cap_relax : 4;
        int *v = realloc(ms->relax_switch, (size_t)c * sizeof *v);
        if (!v) return -1;
        ms->relax_switch = v;
        char **nm = realloc(ms->relax_names, (size_t)c * sizeof *nm);
        if (!nm) return -1;
        ms->relax_names = nm;
        B->cap_relax = c;
    }
    char name[64];
    snprintf(name, sizeof name, "s_line%d", B->s->sw[sw].pos.line);
    if (!(ms->relax_names[ms->nrelax] = strdup(name))) return -1;
    ms->relax_switch[ms->nrelax] = sw;
    B->relax_of[sw] = ++ms->nrelax;
    return ms->nrelax - 1;
}

static int in_sliding(const builder *B, int sw)
{
    return B->s->sw[sw].sliding && B->choice[sw] == B->s->sw[sw].nchoices - 1;
}

/* Whether the branch (block, branch) is chosen, following the ancestors; *sliding is set to the
 * switch of the innermost block when that block is in its sliding choice (it then holds both
 * branches, relaxed), -1 otherwise. */
static int branch_chosen(const builder *B, int block, int branch, int *sliding)
{
    *sliding = -1;
    int s = B->block_switch[block];
    if (in_sliding(B, s)) {
        *sliding = s;
        return nsdae_mode_switch_active(B->s, B->choice, s);
    }
    const nsdae_switch *x = &B->s->sw[s];
    int taken = x->kind != NSDAE_SWITCH_WHEN ? B->choice[s] == branch
                : branch == 0                   ? B->choice[s] == 1  /* the then branch: when it fires */
                                                : B->choice[s] == 0; /* the else branch: the long modes */
    return taken && nsdae_mode_switch_active(B->s, B->choice, s);
}

/* The k-th equation of the else branch, k the rank of equation i in the then branch; -1 if none. */
static int else_partner(const nsdae_model *m, int block, int i)
{
    int k = 0;
    for (int t = 0; t < i; t++) {
        const nsdae_equation *u = nsdae_model_equation(m, t);
        if (u->block == block && u->branch == 0) k++;
    }
    for (int t = 0, r = 0, ne = nsdae_model_nequations(m); t < ne; t++) {
        const nsdae_equation *u = nsdae_model_equation(m, t);
        if (u->block == block && u->branch == 1 && r++ == k) return t;
    }
    return -1;
}

/* A then-branch equation of a sliding block: the switching surface h = 0 first (once per block),
 * then the relaxed pair with its else-branch partner. */
static nsdae_status add_sliding(builder *B, int sw, const nsdae_equation *q, nsdae_error *err)
{
    const nsdae_model *m = B->m;
    const nsdae_block *blk = nsdae_model_block(m, q->block);
    char text[TEXT_SIZE], t2[TEXT_SIZE], t3[TEXT_SIZE * 2 + 64];
    if (B->relax_of[sw] == 0) {
        if (add_relax(B, sw) < 0) return nsdae_error_set(err, NSDAE_NOMEM, "mode: out of memory");
        const nsdae_cond *c = blk->conds[0];
        nsdae_model_print_expr(m, c->lhs, text, sizeof text);
        nsdae_model_print_expr(m, c->rhs, t2, sizeof t2);
        snprintf(t3, sizeof t3, "%s = %s (switching surface, line %d)", text, t2, blk->pos.line);
        if (!add_eq(B, nsdae_mode_switching_function(B->pool, c), -1, sw, t3))
            return nsdae_error_set(err, NSDAE_NOMEM, "mode: out of memory");
    }
    int partner = else_partner(m, q->block, q->index);
    if (partner < 0)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "mode: the if at line %d has unequal branches", blk->pos.line);
    const nsdae_equation *p = nsdae_model_equation(m, partner);
    const nsdae_expr *s = nsdae_expr_var(B->pool, nsdae_model_nvars(m) + B->relax_of[sw] - 1, 0);
    snprintf(t3, sizeof t3, "%s | %s (relaxed, s_line%d in [0,1])", q->text, p->text, blk->pos.line);
    if (!add_eq(B, nsdae_mode_relax(B->pool, q->residual, p->residual, s), q->index, sw, t3))
        return nsdae_error_set(err, NSDAE_NOMEM, "mode: out of memory");
    return NSDAE_OK;
}

/* A complementarity pair or a relay in its chosen side. */
static int add_relation(builder *B, int sw, const nsdae_equation *q)
{
    const nsdae_model *m = B->m;
    int k = B->choice[sw];
    char text[TEXT_SIZE], t3[TEXT_SIZE * 2 + 64];
    const nsdae_expr *r;
    if (q->kind == NSDAE_EQ_COMPL || k == 0) {
        r = q->kind == NSDAE_EQ_COMPL ? (k == 0 ? q->a : q->b) : q->arg;
        nsdae_model_print_expr(m, r, text, sizeof text);
        snprintf(t3, sizeof t3, "%s = 0", text);
    } else {
        const nsdae_expr *bound = k == 1 ? q->hi : q->lo;
        r = nsdae_expr_binary(B->pool, NSDAE_EXPR_SUB, nsdae_expr_var(B->pool, q->var, 0), bound);
        nsdae_model_print_expr(m, bound, text, sizeof text);
        snprintf(t3, sizeof t3, "%s = %s", nsdae_model_var(m, q->var)->name, text);
    }
    return add_eq(B, r, q->index, sw, t3);
}

static nsdae_status walk(builder *B, nsdae_error *err)
{
    const nsdae_model *m = B->m;
    for (int i = 0, ne = nsdae_model_nequations(m); i < ne; i++) {
        const nsdae_equation *q = nsdae_model_equation(m, i);
        int sl = -1;
        if (q->block >= 0 && !branch_chosen(B, q->block, q->branch, &sl)) continue;
        if (sl >= 0) {
            if (q->branch != 0) continue; /* consumed with its then-branch partner */
            nsdae_status st = add_sliding(B, sl, q, err);
            if (st) return st;
            continue;
        }
        int ok = q->kind == NSDAE_EQ_EQUAL ? add_eq(B, q->residual, i, q->block >= 0 ? B->block_switch[q->block] : -1,
                                                    q->text)
                                           : add_relation(B, B->eq_switch[i], q);
        if (!ok) return nsdae_error_set(err, NSDAE_NOMEM, "mode: out of memory");
    }
    if (nsdae_expr_pool_failed(B->pool)) return nsdae_error_set(err, NSDAE_NOMEM, "mode: out of memory");
    return NSDAE_OK;
}

nsdae_status nsdae_mode_equations(const nsdae_model *m, const nsdae_switches *s, const int *choice,
                                  nsdae_mode_system **out, nsdae_error *err)
{
    *out = NULL;
    for (int k = 0; k < s->n; k++)
        if (choice[k] < 0 || choice[k] >= s->sw[k].nchoices)
            return nsdae_error_set(err, NSDAE_INVALID_INPUT, "mode: switch %d (line %d) needs a choice 0..%d", k + 1,
                                   s->sw[k].pos.line, s->sw[k].nchoices - 1);
    int nb = nsdae_model_nblocks(m), ne = nsdae_model_nequations(m);
    builder B = {m, NULL, s, choice, NULL, NULL, NULL, NULL, 0, 0};
    B.ms = calloc(1, sizeof *B.ms);
    B.block_switch = malloc(((size_t)nb + 1) * sizeof *B.block_switch);
    B.eq_switch = malloc(((size_t)ne + 1) * sizeof *B.eq_switch);
    B.relax_of = calloc((size_t)s->n + 1, sizeof *B.relax_of);
    nsdae_status st = NSDAE_OK;
    /* the residuals are built on the model's read-only expressions, in a pool the system owns */
    if (B.ms && nsdae_expr_pool_create_over(nsdae_model_pool(m), &B.ms->pool, NULL) == NSDAE_OK) B.pool = B.ms->pool;
    if (!B.ms || !B.pool || !B.block_switch || !B.eq_switch || !B.relax_of) {
        st = nsdae_error_set(err, NSDAE_NOMEM, "mode: out of memory");
    } else {
        for (int i = 0; i < ne; i++) B.eq_switch[i] = -1;
        for (int k = 0; k < s->n; k++) {
            if (s->sw[k].block >= 0) B.block_switch[s->sw[k].block] = k;
            if (s->sw[k].equation >= 0) B.eq_switch[s->sw[k].equation] = k;
        }
        st = walk(&B, err);
    }
    free(B.block_switch);
    free(B.eq_switch);
    free(B.relax_of);
    if (st) {
        nsdae_mode_system_destroy(B.ms);
        return st;
    }
    *out = B.ms;
    return NSDAE_OK;
}
