/* The switches of a model (if blocks, complementarities, sign memberships), the number of modes,
 * and mode codes: enumeration in lexicographic order, parsing and printing. */
#include <nsdae/structural.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether block b or one of its ancestors is a `when` block (transient equations). */
static int in_when(const nsdae_model *m, int b)
{
    for (int guard = 0; b >= 0 && guard < 10000; guard++) {
        const nsdae_block *blk = nsdae_model_block(m, b);
        if (blk->kind == NSDAE_BLOCK_WHEN) return 1;
        b = blk->parent;
    }
    return 0;
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

static int by_position(const void *a, const void *b)
{
    const nsdae_structural_switch *x = a, *y = b;
    if (x->pos.line != y->pos.line) return x->pos.line - y->pos.line;
    return x->pos.col - y->pos.col;
}

nsdae_status nsdae_structural_switches(const nsdae_model *m, nsdae_structural_switch **out, int *nout,
                                       nsdae_error *err)
{
    *out = NULL;
    *nout = 0;
    int nb = nsdae_model_nblocks(m), ne = nsdae_model_nequations(m);
    /* Equal equation counts per branch (the parser enforces it too; this names the block if an IR
     * was built otherwise). Direct equations plus nested blocks' per-branch counts. */
    int *count = calloc((size_t)nb * 64 + 1, sizeof *count);
    if (!count) return nsdae_error_set(err, NSDAE_NOMEM, "structural: out of memory");
    for (int i = 0; i < ne; i++) {
        const nsdae_equation *q = nsdae_model_equation(m, i);
        if (q->block >= 0 && q->branch >= 0 && q->branch < 64) count[q->block * 64 + q->branch]++;
    }
    for (int b = 0; b < nb; b++) {
        const nsdae_block *blk = nsdae_model_block(m, b);
        if (blk->kind == NSDAE_BLOCK_IF && blk->parent >= 0 && blk->parent_branch >= 0 && blk->parent_branch < 64)
            count[blk->parent * 64 + blk->parent_branch] += blk->neqs;
    }
    for (int b = 0; b < nb; b++) {
        const nsdae_block *blk = nsdae_model_block(m, b);
        if (blk->kind != NSDAE_BLOCK_IF || in_when(m, b)) continue;
        for (int k = 1; k < blk->nbranches && k < 64; k++)
            if (count[b * 64 + k] != count[b * 64]) {
                nsdae_status st = nsdae_error_set(
                    err, NSDAE_INVALID_INPUT,
                    "%s:%d:%d: the branches of this 'if' have different equation counts (branch 1: %d, branch %d: %d): "
                    "its modes are not square",
                    nsdae_model_filename(m), blk->pos.line, blk->pos.col, count[b * 64], k + 1, count[b * 64 + k]);
                free(count);
                return st;
            }
    }
    free(count);

    nsdae_structural_switch *sw = calloc((size_t)nb + (size_t)ne + 1, sizeof *sw);
    if (!sw) return nsdae_error_set(err, NSDAE_NOMEM, "structural: out of memory");
    int n = 0;
    for (int b = 0; b < nb; b++) {
        const nsdae_block *blk = nsdae_model_block(m, b);
        if (blk->kind != NSDAE_BLOCK_IF || in_when(m, b)) continue;
        int sl = sliding_allowed(m, blk);
        sw[n++] = (nsdae_structural_switch){NSDAE_SWITCH_IF, b, -1, blk->nbranches + sl, sl, blk->parent,
                                            blk->parent_branch, blk->pos};
    }
    for (int i = 0; i < ne; i++) {
        const nsdae_equation *q = nsdae_model_equation(m, i);
        if (q->kind == NSDAE_EQ_EQUAL || (q->block >= 0 && in_when(m, q->block))) continue;
        sw[n++] = (nsdae_structural_switch){q->kind == NSDAE_EQ_COMPL ? NSDAE_SWITCH_COMPL : NSDAE_SWITCH_SIGN, -1, i,
                                            q->kind == NSDAE_EQ_COMPL ? 2 : 3, 0, q->block, q->branch, q->pos};
    }
    /* Source order puts every switch after the block that contains it. */
    qsort(sw, (size_t)n, sizeof *sw, by_position);
    *out = sw;
    *nout = n;
    return NSDAE_OK;
}

static int switch_of_block(const nsdae_structural_switch *sw, int nsw, int block)
{
    for (int s = 0; s < nsw; s++) if (sw[s].kind == NSDAE_SWITCH_IF && sw[s].block == block) return s;
    return -1;
}

/* Whether switch k matters under the choices: every enclosing branch is chosen. */
static int active(const nsdae_structural_switch *sw, int nsw, const int *choice, int k)
{
    for (int guard = 0; guard < nsw + 1; guard++) {
        if (sw[k].parent_block < 0) return 1;
        int p = switch_of_block(sw, nsw, sw[k].parent_block);
        if (p < 0 || choice[p] != sw[k].parent_branch) return 0;
        k = p;
    }
    return 0;
}

static double count_in(const nsdae_structural_switch *sw, int nsw, int pblock, int pbranch, int depth)
{
    double total = 1.0;
    if (depth > 1000) return total;
    for (int s = 0; s < nsw; s++) {
        if (sw[s].parent_block != pblock || sw[s].parent_branch != pbranch) continue;
        if (sw[s].kind == NSDAE_SWITCH_IF) {
            double w = sw[s].sliding ? 1.0 : 0.0;
            for (int b = 0; b < sw[s].nchoices - sw[s].sliding; b++) w += count_in(sw, nsw, sw[s].block, b, depth + 1);
            total *= w;
        } else {
            total *= sw[s].nchoices;
        }
    }
    return total;
}

double nsdae_structural_mode_count(const nsdae_structural_switch *sw, int nsw)
{
    /* Top-level switches have parent (-1, -1); switches in `when` blocks were left out. */
    return count_in(sw, nsw, -1, -1, 0);
}

void nsdae_structural_mode_first(const nsdae_structural_switch *sw, int nsw, int *choice)
{
    (void)sw;
    for (int s = 0; s < nsw; s++) choice[s] = 0;
}

int nsdae_structural_mode_next(const nsdae_structural_switch *sw, int nsw, int *choice)
{
    /* The next canonical code in lexicographic order: bump the last active switch that can be
     * bumped and reset everything after it (a zero tail is canonical: parents precede children). */
    for (int k = nsw - 1; k >= 0; k--) {
        if (!active(sw, nsw, choice, k) || choice[k] + 1 >= sw[k].nchoices) continue;
        choice[k]++;
        for (int t = k + 1; t < nsw; t++) choice[t] = 0;
        return 1;
    }
    return 0;
}

int nsdae_structural_mode_canonical(const nsdae_structural_switch *sw, int nsw, const int *choice)
{
    for (int s = 0; s < nsw; s++) {
        if (choice[s] < 0 || choice[s] >= sw[s].nchoices) return 0;
        if (choice[s] != 0 && !active(sw, nsw, choice, s)) return 0;
    }
    return 1;
}

nsdae_status nsdae_structural_mode_parse(const nsdae_structural_switch *sw, int nsw, const char *text, int *choice,
                                         nsdae_error *err)
{
    if (nsw == 0) {
        if (text[0] == '\0' || strcmp(text, "-") == 0) return NSDAE_OK;
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "'%s': this model has no switch (use '-')", text);
    }
    const char *p = text;
    for (int s = 0; s < nsw; s++) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 0 || v >= sw[s].nchoices)
            return nsdae_error_set(err, NSDAE_INVALID_INPUT,
                                   "'%s': switch %d (line %d) needs a choice 0..%d", text, s + 1, sw[s].pos.line,
                                   sw[s].nchoices - 1);
        choice[s] = (int)v;
        p = end;
        if (s + 1 < nsw) {
            if (*p != '.')
                return nsdae_error_set(err, NSDAE_INVALID_INPUT,
                                       "'%s': expected %d choices separated by '.'", text, nsw);
            p++;
        }
    }
    if (*p != '\0')
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "'%s': expected %d choices separated by '.'", text, nsw);
    for (int s = 0; s < nsw; s++) if (!active(sw, nsw, choice, s)) choice[s] = 0;
    return NSDAE_OK;
}

void nsdae_structural_mode_format(int nsw, const int *choice, char *buf, size_t size)
{
    if (size == 0) return;
    buf[0] = '\0';
    if (nsw == 0) { snprintf(buf, size, "-"); return; }
    size_t len = 0;
    for (int s = 0; s < nsw && len < size; s++) {
        int w = snprintf(buf + len, size - len, s ? ".%d" : "%d", choice[s]);
        if (w < 0) break;
        len += (size_t)w;
    }
}

void nsdae_structural_deriv_name(const char *var, int order, char *buf, size_t size)
{
    if (order == 0) snprintf(buf, size, "%s", var);
    else if (order == 1) snprintf(buf, size, "der(%s)", var);
    else if (order == 2) snprintf(buf, size, "der(der(%s))", var);
    else snprintf(buf, size, "der(%s, %d)", var, order);
}
