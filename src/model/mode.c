/* The switches of a model (if blocks on time or on the state, complementarity pairs, sign
 * relations, when blocks), the number of long modes, mode codes (enumeration in lexicographic
 * order, parsing, printing), and the exogenous phases. */
#include <nsdae/mode.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether the branch (block, branch) lies in the then branch of some `when` (transient equations).
 * A `when`'s else branch (branch 1) holds in the long modes. */
static int in_transient(const nsdae_model *m, int b, int branch)
{
    for (int guard = 0; b >= 0 && guard < 10000; guard++) {
        const nsdae_block *blk = nsdae_model_block(m, b);
        if (blk->kind == NSDAE_BLOCK_WHEN && branch == 0) return 1;
        branch = blk->parent_branch;
        b = blk->parent;
    }
    return 0;
}

/* Whether block b's own switch is transient: a `when`, or anything in a then branch of one. */
static int in_when(const nsdae_model *m, int b)
{
    const nsdae_block *blk = nsdae_model_block(m, b);
    return blk->kind == NSDAE_BLOCK_WHEN || in_transient(m, blk->parent, blk->parent_branch);
}

/* A sliding relaxation needs a state switch `if h > 0 then G1 else G2` with a single comparison
 * and only plain equations (no nested block, complementarity or sign) in both branches. */
static int sliding_allowed(const nsdae_model *m, const nsdae_block *blk)
{
    if (blk->kind != NSDAE_BLOCK_IF || blk->nbranches != 2 || blk->time_only || blk->neqs < 1) return 0;
    nsdae_cond_kind k = blk->conds[0]->kind;
    if (k != NSDAE_COND_GT && k != NSDAE_COND_GE && k != NSDAE_COND_LT && k != NSDAE_COND_LE) return 0;
    for (int b = 0; b < nsdae_model_nblocks(m); b++)
        if (nsdae_model_block(m, b)->parent == blk->index) return 0;
    for (int i = 0; i < nsdae_model_nequations(m); i++) {
        const nsdae_equation *q = nsdae_model_equation(m, i);
        if (q->block == blk->index && q->kind != NSDAE_EQ_EQUAL) return 0;
    }
    return 1;
}

/* Equal equation counts per branch of every long `if` (the parser enforces it too; this names the
 * block if an IR was built otherwise). Direct equations plus nested blocks' per-branch counts. */
static nsdae_status check_square_branches(const nsdae_model *m, nsdae_error *err)
{
    int nb = nsdae_model_nblocks(m), ne = nsdae_model_nequations(m);
    int *count = calloc((size_t)nb * 64 + 1, sizeof *count);
    if (!count) return nsdae_error_set(err, NSDAE_NOMEM, "mode: out of memory");
    for (int i = 0; i < ne; i++) {
        const nsdae_equation *q = nsdae_model_equation(m, i);
        if (q->block >= 0 && q->branch >= 0 && q->branch < 64) count[q->block * 64 + q->branch]++;
    }
    for (int b = 0; b < nb; b++) {
        const nsdae_block *blk = nsdae_model_block(m, b);
        int per_branch = blk->kind == NSDAE_BLOCK_IF ? blk->neqs : blk->neqs_else; /* a when's else is long */
        if (blk->parent >= 0 && blk->parent_branch >= 0 && blk->parent_branch < 64)
            count[blk->parent * 64 + blk->parent_branch] += per_branch;
    }
    nsdae_status st = NSDAE_OK;
    for (int b = 0; b < nb && !st; b++) {
        const nsdae_block *blk = nsdae_model_block(m, b);
        if (blk->kind != NSDAE_BLOCK_IF || in_when(m, b)) continue;
        for (int k = 1; k < blk->nbranches && k < 64 && !st; k++)
            if (count[b * 64 + k] != count[b * 64])
                st = nsdae_error_set(
                    err, NSDAE_INVALID_INPUT,
                    "%s:%d:%d: the branches of this 'if' have different equation counts (branch 1: %d, branch %d: %d): "
                    "its modes are not square",
                    nsdae_model_filename(m), blk->pos.line, blk->pos.col, count[b * 64], k + 1, count[b * 64 + k]);
    }
    free(count);
    return st;
}

/* Long switches before transient ones; each group in source order (a block comes before the
 * switches it contains); equal positions keep the model's order (blocks, then equations). */
static int by_position(const void *a, const void *b)
{
    const nsdae_switch *x = a, *y = b;
    if (x->transient != y->transient) return x->transient - y->transient;
    if (x->pos.line != y->pos.line) return x->pos.line - y->pos.line;
    if (x->pos.col != y->pos.col) return x->pos.col - y->pos.col;
    if ((x->block >= 0) != (y->block >= 0)) return x->block >= 0 ? -1 : 1;
    return x->block >= 0 ? x->block - y->block : x->equation - y->equation;
}

/* parent: the block a switch lives in, until replaced by the index of that block's switch. */
static void link_parents(nsdae_switch *sw, int n)
{
    for (int s = 0; s < n; s++) {
        int pb = sw[s].parent;
        sw[s].parent = -1;
        for (int p = 0; p < n && pb >= 0; p++)
            if (sw[p].block == pb) sw[s].parent = p;
        if (sw[s].parent < 0) sw[s].parent_branch = -1;
    }
}

nsdae_status nsdae_mode_switches(const nsdae_model *m, nsdae_switches **out, nsdae_error *err)
{
    *out = NULL;
    nsdae_status st = check_square_branches(m, err);
    if (st) return st;
    int nb = nsdae_model_nblocks(m), ne = nsdae_model_nequations(m);
    nsdae_switches *s = calloc(1, sizeof *s);
    nsdae_switch *sw = calloc((size_t)nb + (size_t)ne + 1, sizeof *sw);
    if (!s || !sw) {
        free(s);
        free(sw);
        return nsdae_error_set(err, NSDAE_NOMEM, "mode: out of memory");
    }
    int n = 0;
    for (int b = 0; b < nb; b++) {
        const nsdae_block *blk = nsdae_model_block(m, b);
        nsdae_switch *x = &sw[n++];
        *x = (nsdae_switch){NSDAE_SWITCH_WHEN, b, -1, 2, 0, blk->parent, blk->parent_branch, in_when(m, b), blk->pos};
        if (blk->kind == NSDAE_BLOCK_IF) {
            x->kind = blk->time_only ? NSDAE_SWITCH_IF_TIME : NSDAE_SWITCH_IF_STATE;
            x->sliding = sliding_allowed(m, blk);
            x->nchoices = blk->nbranches + x->sliding;
        }
    }
    for (int i = 0; i < ne; i++) {
        const nsdae_equation *q = nsdae_model_equation(m, i);
        if (q->kind == NSDAE_EQ_EQUAL) continue;
        int compl = q->kind == NSDAE_EQ_COMPL;
        sw[n++] = (nsdae_switch){compl ? NSDAE_SWITCH_COMPL : NSDAE_SWITCH_SIGN, -1, i, compl ? 2 : 3, 0, q->block,
                                 q->branch, in_transient(m, q->block, q->branch), q->pos};
    }
    qsort(sw, (size_t)n, sizeof *sw, by_position);
    link_parents(sw, n);
    s->n = n;
    s->sw = sw;
    while (s->ncode < n && !sw[s->ncode].transient) s->ncode++;
    *out = s;
    return NSDAE_OK;
}

void nsdae_mode_switches_destroy(nsdae_switches *s)
{
    if (!s) return;
    free(s->sw);
    free(s);
}

const char *nsdae_switch_kind_name(nsdae_switch_kind k)
{
    switch (k) {
    case NSDAE_SWITCH_IF_TIME:
    case NSDAE_SWITCH_IF_STATE: return "if";
    case NSDAE_SWITCH_COMPL: return "complementarity";
    case NSDAE_SWITCH_SIGN: return "sign";
    case NSDAE_SWITCH_WHEN: return "when";
    }
    return "?";
}

/* Whether switch s takes branch `branch` under choice: a `when` takes its then branch (0) when it
 * fires (choice 1) and its else branch (1) in the long modes (choice 0). */
static int takes(const nsdae_switch *sw, const int *choice, int s, int branch)
{
    if (sw[s].kind == NSDAE_SWITCH_WHEN) return branch == 0 ? choice[s] == 1 : choice[s] == 0;
    return choice[s] == branch;
}

int nsdae_mode_switch_active(const nsdae_switches *s, const int *choice, int k)
{
    for (int guard = 0; guard <= s->n; guard++) {
        int p = s->sw[k].parent;
        if (p < 0) return 1;
        if (!takes(s->sw, choice, p, s->sw[k].parent_branch)) return 0;
        k = p;
    }
    return 0;
}

static double count_in(const nsdae_switches *s, int parent, int branch, int depth)
{
    double total = 1.0;
    if (depth > 1000) return total;
    for (int k = 0; k < s->n; k++) {
        const nsdae_switch *x = &s->sw[k];
        if (x->parent != parent || x->parent_branch != branch) continue;
        if (x->transient) { /* a `when`: long switches may live in its else branch */
            if (x->kind == NSDAE_SWITCH_WHEN) total *= count_in(s, k, 1, depth + 1);
            continue;
        }
        if (x->kind == NSDAE_SWITCH_IF_TIME || x->kind == NSDAE_SWITCH_IF_STATE) {
            double w = x->sliding ? 1.0 : 0.0; /* the sliding choice has no nested switch */
            for (int b = 0; b < x->nchoices - x->sliding; b++) w += count_in(s, k, b, depth + 1);
            total *= w;
        } else {
            total *= x->nchoices;
        }
    }
    return total;
}

double nsdae_mode_count(const nsdae_switches *s) { return count_in(s, -1, -1, 0); }

void nsdae_mode_first(const nsdae_switches *s, int *choice)
{
    for (int k = 0; k < s->n; k++) choice[k] = 0;
}

int nsdae_mode_next(const nsdae_switches *s, int *choice)
{
    /* Bump the last active long switch that can be bumped and reset everything after it (a zero
     * tail is canonical: parents precede children). */
    for (int k = s->ncode - 1; k >= 0; k--) {
        if (!nsdae_mode_switch_active(s, choice, k) || choice[k] + 1 >= s->sw[k].nchoices) continue;
        choice[k]++;
        for (int t = k + 1; t < s->n; t++) choice[t] = 0;
        return 1;
    }
    return 0;
}

int nsdae_mode_canonical(const nsdae_switches *s, const int *choice)
{
    for (int k = 0; k < s->n; k++) {
        if (choice[k] < 0 || choice[k] >= s->sw[k].nchoices) return 0;
        if (choice[k] != 0 && (k >= s->ncode || !nsdae_mode_switch_active(s, choice, k))) return 0;
    }
    return 1;
}

nsdae_status nsdae_mode_parse(const nsdae_switches *s, const char *text, int *choice, nsdae_error *err)
{
    for (int k = 0; k < s->n; k++) choice[k] = 0;
    int nsw = s->ncode;
    if (nsw == 0) {
        if (text[0] == '\0' || strcmp(text, "-") == 0) return NSDAE_OK;
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "'%s': this model has no switch (use '-')", text);
    }
    const char *p = text;
    for (int k = 0; k < nsw; k++) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 0 || v >= s->sw[k].nchoices)
            return nsdae_error_set(err, NSDAE_INVALID_INPUT, "'%s': switch %d (line %d) needs a choice 0..%d", text,
                                   k + 1, s->sw[k].pos.line, s->sw[k].nchoices - 1);
        choice[k] = (int)v;
        p = end;
        if (k + 1 < nsw) {
            if (*p != '.')
                return nsdae_error_set(err, NSDAE_INVALID_INPUT, "'%s': expected %d choices separated by '.'", text,
                                       nsw);
            p++;
        }
    }
    if (*p != '\0')
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "'%s': expected %d choices separated by '.'", text, nsw);
    for (int k = 0; k < nsw; k++)
        if (!nsdae_mode_switch_active(s, choice, k)) choice[k] = 0;
    return NSDAE_OK;
}

void nsdae_mode_format(const nsdae_switches *s, const int *choice, char *buf, size_t size)
{
    if (size == 0) return;
    buf[0] = '\0';
    if (s->ncode == 0) {
        snprintf(buf, size, "-");
        return;
    }
    size_t len = 0;
    for (int k = 0; k < s->ncode && len < size; k++) {
        int w = snprintf(buf + len, size - len, k ? ".%d" : "%d", choice[k]);
        if (w < 0) break;
        len += (size_t)w;
    }
}

/* ---- exogenous phases ---------------------------------------------------------------------- */

static int is_phase_switch(const nsdae_switch *x) { return x->kind == NSDAE_SWITCH_IF_TIME && !x->transient; }

int nsdae_mode_phase_active(const nsdae_switches *s, const int *choice, int k)
{
    for (int guard = 0; guard <= s->n; guard++) {
        int p = s->sw[k].parent;
        if (p < 0) return 1;
        if (is_phase_switch(&s->sw[p]) && choice[p] != s->sw[k].parent_branch) return 0;
        k = p;
    }
    return 0;
}

void nsdae_mode_phase_first(const nsdae_switches *s, int *choice) { nsdae_mode_first(s, choice); }

int nsdae_mode_phase_next(const nsdae_switches *s, int *choice)
{
    for (int k = s->ncode - 1; k >= 0; k--) {
        if (!is_phase_switch(&s->sw[k]) || !nsdae_mode_phase_active(s, choice, k) ||
            choice[k] + 1 >= s->sw[k].nchoices)
            continue;
        choice[k]++;
        for (int t = k + 1; t < s->n; t++) choice[t] = 0;
        return 1;
    }
    return 0;
}
