/* A mode in words: the choice of every active switch, e.g. "x1 > 0; lambda = 0". */
#include <nsdae/mode.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEXT_SIZE 256

/* Appends text to a growing string. */
static int append(char **s, size_t *len, size_t *cap, const char *text)
{
    size_t n = strlen(text);
    if (*len + n + 1 > *cap) {
        size_t c = *cap ? *cap : 64;
        while (c < *len + n + 1) c *= 2;
        char *p = realloc(*s, c);
        if (!p) return 0;
        *s = p;
        *cap = c;
    }
    memcpy(*s + *len, text, n + 1);
    *len += n;
    return 1;
}

static void print_cond(const nsdae_model *m, const nsdae_cond *c, char *buf, size_t size)
{
    char a[TEXT_SIZE], b[TEXT_SIZE];
    static const char *ops[] = {">", ">=", "<", "<="};
    switch (c->kind) {
    case NSDAE_COND_GT: case NSDAE_COND_GE: case NSDAE_COND_LT: case NSDAE_COND_LE:
        nsdae_model_print_expr(m, c->lhs, a, sizeof a);
        nsdae_model_print_expr(m, c->rhs, b, sizeof b);
        snprintf(buf, size, "%s %s %s", a, ops[c->kind], b);
        return;
    case NSDAE_COND_AND: case NSDAE_COND_OR:
        print_cond(m, c->a, a, sizeof a);
        print_cond(m, c->b, b, sizeof b);
        snprintf(buf, size, "(%s) %s (%s)", a, c->kind == NSDAE_COND_AND ? "and" : "or", b);
        return;
    case NSDAE_COND_NOT:
        print_cond(m, c->a, a, sizeof a);
        snprintf(buf, size, "not (%s)", a);
        return;
    }
    snprintf(buf, size, "?");
}

/* The choice k of an `if` or `when` switch in words. */
static void block_choice(const nsdae_model *m, const nsdae_switch *x, int k, char *buf, size_t size)
{
    const nsdae_block *blk = nsdae_model_block(m, x->block);
    char text[TEXT_SIZE], t2[TEXT_SIZE];
    if (x->kind == NSDAE_SWITCH_WHEN) {
        print_cond(m, blk->conds[0], text, sizeof text);
        snprintf(buf, size, "when %s fires", text);
    } else if (x->sliding && k == x->nchoices - 1) {
        const nsdae_cond *c = blk->conds[0];
        nsdae_model_print_expr(m, c->lhs, text, sizeof text);
        nsdae_model_print_expr(m, c->rhs, t2, sizeof t2);
        snprintf(buf, size, "%s = %s (sliding)", text, t2);
    } else if (k < blk->nbranches - 1) {
        print_cond(m, blk->conds[k], buf, size);
    } else if (blk->nbranches == 2) {
        print_cond(m, blk->conds[0], text, sizeof text);
        snprintf(buf, size, "not (%s)", text);
    } else {
        snprintf(buf, size, "else of the if at line %d", blk->pos.line);
    }
}

/* The choice k of a complementarity or sign switch in words. */
static void relation_choice(const nsdae_model *m, const nsdae_switch *x, int k, char *buf, size_t size)
{
    const nsdae_equation *q = nsdae_model_equation(m, x->equation);
    char text[TEXT_SIZE];
    if (x->kind == NSDAE_SWITCH_COMPL) {
        nsdae_model_print_expr(m, k == 0 ? q->a : q->b, text, sizeof text);
        snprintf(buf, size, "%s = 0", text);
    } else if (k == 0) {
        nsdae_model_print_expr(m, q->arg, text, sizeof text);
        snprintf(buf, size, "%s = 0", text);
    } else {
        nsdae_model_print_expr(m, k == 1 ? q->hi : q->lo, text, sizeof text);
        snprintf(buf, size, "%s = %s", nsdae_model_var(m, q->var)->name, text);
    }
}

nsdae_status nsdae_mode_label(const nsdae_model *m, const nsdae_switches *s, const int *choice, char **out,
                              nsdae_error *err)
{
    *out = NULL;
    size_t len = 0, cap = 0;
    char *label = NULL, t[TEXT_SIZE * 2 + 64];
    for (int k = 0; k < s->n; k++) {
        const nsdae_switch *x = &s->sw[k];
        if (!nsdae_mode_switch_active(s, choice, k)) continue;
        if (x->kind == NSDAE_SWITCH_WHEN && choice[k] == 0) continue; /* the long mode: nothing to say */
        if (x->block >= 0) block_choice(m, x, choice[k], t, sizeof t);
        else relation_choice(m, x, choice[k], t, sizeof t);
        if ((len && !append(&label, &len, &cap, "; ")) || !append(&label, &len, &cap, t)) goto nomem;
    }
    if (!label && !append(&label, &len, &cap, "(no switch)")) goto nomem;
    *out = label;
    return NSDAE_OK;
nomem:
    free(label);
    return nsdae_error_set(err, NSDAE_NOMEM, "mode: out of memory");
}
