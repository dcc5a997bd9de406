/* Plots drawn by gnuplot, a separate program: its absence, an output path that cannot be written
 * and a gnuplot that fails are each an error message naming the cause, never a crash (SIGPIPE is
 * ignored while gnuplot is fed) and never a misleading hint. Data go inline (a gnuplot datablock),
 * so no temporary file is left behind. Every function returns 1 on success, 0 after printing
 * "nsdae CMD: --plot 'PATH': WHY". */
#ifndef NSDAE_CLI_PLOT_H
#define NSDAE_CLI_PLOT_H

#include "cli/table.h"

/* Checks before a run: gnuplot is on PATH and the directory of png_path exists and is writable. */
int plot_check(const char *cmd, const char *png_path);

/* Log-log error against h with the least-squares line of the fitted order (NAN: no line). Points
 * with zero error cannot be drawn on a log scale and enter no fit: the plot says how many were
 * dropped. */
int plot_loglog_error(const char *cmd, const char *png_path, const char *title, const double *h, const double *e,
                      int n, double order);

/* Columns cols[0..ncols-1] of tb against its first column (the time), or with phase the portrait
 * cols[1] against cols[0] (ncols = 2), the start and end marked. */
int plot_table(const char *cmd, const char *png_path, const char *title, const table *tb, const int *cols, int ncols,
               int phase);

/* Turns "a,b,c" into column indices of tb (names, or numbers for a table without header).
 * Returns the count, or 0 after printing the unknown name and the known ones. */
int plot_columns(const char *cmd, const char *flag, const char *list, const table *tb, int *cols, int max);

#endif
