/* Dulmage-Mendelsohn decomposition: the coarse parts (under-, well-, overdetermined) from a
 * maximum matching, and the fine block-triangular form of a perfectly matched square part
 * (Benveniste et al. 2017, section 3.1). */
#include "structural/structural_internal.h"

#include <stdlib.h>

int nsdae_structural_dm_parts(const nsdae_bigraph *g, const int *match_row, const int *match_col,
                              nsdae_dm_part *row_part, nsdae_dm_part *col_part)
{
    int nr = g->nrows, nc = g->ncols;
    for (int i = 0; i < nr; i++) row_part[i] = NSDAE_DM_WELL;
    for (int j = 0; j < nc; j++) col_part[j] = NSDAE_DM_WELL;

    /* Overdetermined: from each unmatched row, any edge to a column, then that column's matched
     * row. Every column reached this way is determined by more rows than it can use. */
    int *queue = malloc(((size_t)nr + nc + 1) * sizeof *queue);
    if (!queue) return -1;
    int head = 0, tail = 0;
    for (int i = 0; i < nr; i++)
        if (match_row[i] < 0) { row_part[i] = NSDAE_DM_OVER; queue[tail++] = i; }
    while (head < tail) {
        int i = queue[head++];
        for (int k = g->ptr[i]; k < g->ptr[i + 1]; k++) {
            int j = g->col[k];
            if (col_part[j] == NSDAE_DM_OVER) continue;
            col_part[j] = NSDAE_DM_OVER;
            int r = match_col[j];
            if (r >= 0 && row_part[r] != NSDAE_DM_OVER) { row_part[r] = NSDAE_DM_OVER; queue[tail++] = r; }
        }
    }

    /* Underdetermined: from each unmatched column, any row using it, then that row's matched
     * column. Needs the transpose; built on the fly as a column -> rows scan (model sizes). */
    int *cptr = calloc((size_t)nc + 1, sizeof *cptr);
    int *crow = malloc(((size_t)g->ptr[nr] + 1) * sizeof *crow);
    if (!cptr || !crow) { free(cptr); free(crow); free(queue); return -1; }
    for (int k = 0; k < g->ptr[nr]; k++) cptr[g->col[k] + 1]++;
    for (int j = 0; j < nc; j++) cptr[j + 1] += cptr[j];
    int *fill = malloc(((size_t)nc + 1) * sizeof *fill);
    if (!fill) { free(cptr); free(crow); free(queue); return -1; }
    for (int j = 0; j < nc; j++) fill[j] = cptr[j];
    for (int i = 0; i < nr; i++)
        for (int k = g->ptr[i]; k < g->ptr[i + 1]; k++) crow[fill[g->col[k]]++] = i;
    free(fill);

    head = tail = 0;
    for (int j = 0; j < nc; j++)
        if (match_col[j] < 0) { col_part[j] = NSDAE_DM_UNDER; queue[tail++] = j; }
    while (head < tail) {
        int j = queue[head++];
        for (int k = cptr[j]; k < cptr[j + 1]; k++) {
            int i = crow[k];
            if (row_part[i] == NSDAE_DM_UNDER) continue;
            row_part[i] = NSDAE_DM_UNDER;
            int c = match_row[i];
            if (c >= 0 && col_part[c] != NSDAE_DM_UNDER) { col_part[c] = NSDAE_DM_UNDER; queue[tail++] = c; }
        }
    }
    free(cptr); free(crow); free(queue);
    return 0;
}

/* Iterative Tarjan on rows: i -> k when row i uses column j != match_row[i] and k = owner of j. */
int nsdae_structural_btf(const nsdae_bigraph *g, const int *match_row, nsdae_structural_block **blocks_out)
{
    int n = g->nrows;
    *blocks_out = NULL;
    if (n == 0) return 0;
    int *owner = malloc((size_t)n * sizeof *owner);          /* column -> matched row */
    int *index = malloc((size_t)n * sizeof *index);
    int *low = malloc((size_t)n * sizeof *low);
    int *onstack = calloc((size_t)n, sizeof *onstack);
    int *stack = malloc((size_t)n * sizeof *stack);
    int *cstack = malloc((size_t)n * sizeof *cstack);        /* call stack: row */
    int *cpos = malloc((size_t)n * sizeof *cpos);            /* call stack: next edge */
    int *comp = malloc((size_t)n * sizeof *comp);            /* row -> component (emission order) */
    int *level = calloc((size_t)n, sizeof *level);           /* component -> level */
    int *minrow = malloc((size_t)n * sizeof *minrow);
    int *order = malloc((size_t)n * sizeof *order);
    int *size = calloc((size_t)n, sizeof *size);
    nsdae_structural_block *blocks = NULL;
    int ncomp = 0, result = -1;
    if (!owner || !index || !low || !onstack || !stack || !cstack || !cpos || !comp || !level || !minrow || !order ||
        !size)
        goto done;
    for (int j = 0; j < g->ncols; j++) owner[j] = -1;
    for (int i = 0; i < n; i++) { owner[match_row[i]] = i; index[i] = -1; comp[i] = -1; }

    int counter = 0, sp = 0;
    for (int root = 0; root < n; root++) {
        if (index[root] >= 0) continue;
        int top = 0;
        cstack[0] = root;
        cpos[0] = g->ptr[root];
        index[root] = low[root] = counter++;
        stack[sp++] = root;
        onstack[root] = 1;
        while (top >= 0) {
            int i = cstack[top];
            if (cpos[top] < g->ptr[i + 1]) {
                int j = g->col[cpos[top]++];
                int k = owner[j];
                if (k < 0 || k == i) continue;
                if (index[k] < 0) {
                    index[k] = low[k] = counter++;
                    stack[sp++] = k;
                    onstack[k] = 1;
                    top++;
                    cstack[top] = k;
                    cpos[top] = g->ptr[k];
                } else if (onstack[k] && index[k] < low[i]) {
                    low[i] = index[k];
                }
                continue;
            }
            if (low[i] == index[i]) {
                /* Emitted after every component it reaches: dependencies come first. */
                int lv = 0, m = n;
                int start = sp;
                do { start--; } while (stack[start] != i);
                for (int t = start; t < sp; t++) {
                    int r = stack[t];
                    comp[r] = ncomp;
                    onstack[r] = 0;
                    if (r < m) m = r;
                }
                for (int t = start; t < sp; t++) {
                    int r = stack[t];
                    for (int e = g->ptr[r]; e < g->ptr[r + 1]; e++) {
                        int k = owner[g->col[e]];
                        if (k < 0 || comp[k] < 0 || comp[k] == ncomp) continue;
                        if (level[comp[k]] + 1 > lv) lv = level[comp[k]] + 1;
                    }
                }
                size[ncomp] = sp - start;
                level[ncomp] = lv;
                minrow[ncomp] = m;
                ncomp++;
                sp = start;
            }
            top--;
            if (top >= 0) {
                int parent = cstack[top];
                if (low[i] < low[parent]) low[parent] = low[i];
            }
        }
    }
    /* Solving order: by level, then by smallest row (insertion sort: few blocks). */
    for (int b = 0; b < ncomp; b++) order[b] = b;
    for (int a = 1; a < ncomp; a++) {
        int b = order[a], t = a;
        while (t > 0 && (level[order[t - 1]] > level[b] ||
                         (level[order[t - 1]] == level[b] && minrow[order[t - 1]] > minrow[b]))) {
            order[t] = order[t - 1];
            t--;
        }
        order[t] = b;
    }
    blocks = calloc((size_t)ncomp, sizeof *blocks);
    if (!blocks) goto done;
    int *rank = index; /* reuse: component -> position in the solving order */
    for (int t = 0; t < ncomp; t++) rank[order[t]] = t;
    for (int t = 0; t < ncomp; t++) {
        blocks[t].eqs = malloc((size_t)size[order[t]] * sizeof(int));
        blocks[t].vars = malloc((size_t)size[order[t]] * sizeof(int));
        if (!blocks[t].eqs || !blocks[t].vars) {
            for (int u = 0; u <= t; u++) { free(blocks[u].eqs); free(blocks[u].vars); }
            free(blocks);
            blocks = NULL;
            goto done;
        }
    }
    for (int i = 0; i < n; i++) { /* rows in increasing order inside each block */
        nsdae_structural_block *b = &blocks[rank[comp[i]]];
        b->eqs[b->n] = i;
        b->vars[b->n] = match_row[i];
        b->n++;
    }
    *blocks_out = blocks;
    result = ncomp;
done:
    free(owner); free(index); free(low); free(onstack); free(stack); free(cstack); free(cpos);
    free(comp); free(level); free(minrow); free(order); free(size);
    return result;
}
