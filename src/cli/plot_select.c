/* Column choice of a plot (plot_select.h). */
#include "cli/plot_select.h"
#include "cli/plot.h"

#include <stdio.h>
#include <string.h>

/* Not a state: the solution count, the residual and Moreau-Jean's contact activity flags. */
static int is_bookkeeping(const char *name)
{
    return strcmp(name, "nsol") == 0 || strcmp(name, "res") == 0 || strncmp(name, "active_", 7) == 0;
}

int plot_select(const char *cmd, const plot_request *req, const table *tb, int *cols)
{
    if (req->vars && req->phase) {
        fprintf(stderr, "nsdae %s: give either --vars or --phase, not both\n", cmd);
        return 0;
    }
    if (req->phase) {
        int n = plot_columns(cmd, "--phase", req->phase, tb, cols, 2);
        if (n == 1) fprintf(stderr, "nsdae %s: --phase '%s': a phase portrait needs two columns, X,Y\n", cmd, req->phase);
        return n == 2 ? 2 : 0;
    }
    if (req->vars) return plot_columns(cmd, "--vars", req->vars, tb, cols, PLOT_MAX_VARS);
    int n = 0;
    for (int c = 1; c < tb->ncols && n < 8; c++)
        if (!is_bookkeeping(tb->names[c])) cols[n++] = c;
    if (n == 0) fprintf(stderr, "nsdae %s: the run has no state column to plot (give --vars)\n", cmd);
    return n;
}
