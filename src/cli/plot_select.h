/* What `--plot` draws, shared by `simulate --plot` and `nsdae plot`: --vars a,b (against time) or
 * --phase a,b (a portrait), by default the run's state columns against time. */
#ifndef NSDAE_CLI_PLOT_SELECT_H
#define NSDAE_CLI_PLOT_SELECT_H

#include "cli/table.h"

#define PLOT_MAX_VARS 16

typedef struct plot_request {
    const char *png;      /* --plot FILE.png (NULL: no plot) */
    const char *vars;     /* --vars a,b,... or NULL */
    const char *phase;    /* --phase a,b or NULL */
} plot_request;

/* Columns of tb to draw (indices into tb, never the time column 0 by default). Without --vars and
 * --phase: every column but the time, nsol, res and the activity flags, at most 8. Returns the count,
 * or 0 after printing why (both flags, an unknown column, --phase without exactly two). */
int plot_select(const char *cmd, const plot_request *req, const table *tb, int *cols);

#endif
