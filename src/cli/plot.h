/* Plots drawn by gnuplot (a separate program: its absence is an error message, not a crash). */
#ifndef NSDAE_CLI_PLOT_H
#define NSDAE_CLI_PLOT_H

/* Log-log error against h with a reference slope of the fitted order. Returns 1 on success. */
int plot_loglog_error(const char *png_path, const char *title, const double *h, const double *e, int n,
                      double order);

#endif
