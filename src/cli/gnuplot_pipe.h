/* The gnuplot pipe behind plot.h, for the commands that draw their own plots (crosscheck): a PNG
 * terminal, inline data, SIGPIPE ignored while gnuplot is fed, its failure reported. */
#ifndef NSDAE_CLI_GNUPLOT_PIPE_H
#define NSDAE_CLI_GNUPLOT_PIPE_H

#include <signal.h>
#include <stdio.h>

typedef struct gnuplot {
    FILE *g;
    struct sigaction old_pipe;
} gnuplot;

/* Starts gnuplot on a PNG of png_path (1000 x 700, or width x height) with a title, after
 * plot_check. Returns 1, or 0 after printing "nsdae CMD: --plot 'PATH': WHY". */
int gnuplot_open(gnuplot *gp, const char *cmd, const char *png_path, const char *title);
int gnuplot_open_sized(gnuplot *gp, const char *cmd, const char *png_path, const char *title, int width, int height);

/* Waits for gnuplot; 1, or 0 after printing why no plot was written. */
int gnuplot_close(gnuplot *gp, const char *cmd, const char *png_path);

/* s as a gnuplot single-quoted string (a quote doubled). */
void gnuplot_quoted(FILE *g, const char *s);

#endif
