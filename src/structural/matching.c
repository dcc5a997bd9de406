/* Maximum-cardinality bipartite matching by augmenting paths (Kuhn's algorithm). Used for the
 * Dulmage-Mendelsohn parts and for the dummy-derivative levels; the weighted transversal is in
 * assignment.c. The search is iterative so that deep alternating paths cannot exhaust the stack. */
#include "structural/structural_internal.h"

#include <stdlib.h>

int nsdae_structural_max_matching(const nsdae_bigraph *g, int *match_row, int *match_col)
{
    int nr = g->nrows, nc = g->ncols;
    for (int i = 0; i < nr; i++) match_row[i] = -1;
    for (int j = 0; j < nc; j++) match_col[j] = -1;
    int *visited = calloc((size_t)nc + 1, sizeof *visited);  /* stamp of the search that saw column j */
    int *stack_row = malloc(((size_t)nr + 1) * sizeof *stack_row);
    int *stack_pos = malloc(((size_t)nr + 1) * sizeof *stack_pos);
    int *via_col = malloc(((size_t)nr + 1) * sizeof *via_col);  /* column through which row k was entered */
    if (!visited || !stack_row || !stack_pos || !via_col) {
        free(visited); free(stack_row); free(stack_pos); free(via_col);
        return -1;
    }
    int size = 0;
    for (int root = 0; root < nr; root++) {
        int stamp = root + 1;
        int top = 0;
        stack_row[0] = root;
        stack_pos[0] = g->ptr[root];
        via_col[0] = -1;
        int found = -1; /* the free column that ends the augmenting path */
        while (top >= 0 && found < 0) {
            int i = stack_row[top];
            if (stack_pos[top] >= g->ptr[i + 1]) { top--; continue; }
            int j = g->col[stack_pos[top]++];
            if (visited[j] == stamp) continue;
            visited[j] = stamp;
            if (match_col[j] < 0) { found = j; break; }
            top++;
            stack_row[top] = match_col[j];
            stack_pos[top] = g->ptr[match_col[j]];
            via_col[top] = j;
        }
        if (found < 0) continue;
        /* Flip the path: row stack_row[k] takes the column through which row k+1 was entered. */
        int j = found;
        for (int k = top; k >= 0; k--) {
            int i = stack_row[k];
            int prev = via_col[k];
            match_row[i] = j;
            match_col[j] = i;
            j = prev;
        }
        size++;
    }
    free(visited); free(stack_row); free(stack_pos); free(via_col);
    return size;
}
