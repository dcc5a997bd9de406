/* gnuplot is fed through a pipe; data are inline so no temporary file is left behind. */
#include "cli/plot.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Quotes for a gnuplot single-quoted string: a quote is doubled. */
static void put_quoted(FILE *g, const char *s)
{
    fputc('\'', g);
    for (; *s; s++) {
        if (*s == '\'') fputc('\'', g);
        fputc(*s, g);
    }
    fputc('\'', g);
}

int plot_loglog_error(const char *png_path, const char *title, const double *h, const double *e, int n,
                      double order)
{
    int points = 0;
    for (int i = 0; i < n; i++) points += e[i] > 0;
    if (points == 0) {
        fprintf(stderr, "nsdae: --plot %s: every error is zero, nothing to draw on a log scale\n", png_path);
        return 0;
    }
    FILE *g = popen("gnuplot", "w");
    if (!g) {
        fprintf(stderr, "nsdae: --plot: cannot start gnuplot\n");
        return 0;
    }
    fputs("set terminal pngcairo size 800,600 noenhanced\nset output ", g);
    put_quoted(g, png_path);
    fputs("\nset logscale xy\nset format xy '%.0e'\nset grid\nset key top left\n"
          "set xlabel 'h'\nset ylabel 'error at T (2-norm, differential unknowns)'\nset title ",
          g);
    put_quoted(g, title);
    fputc('\n', g);
    /* a guide line of the fitted slope through the finest point */
    int last = -1;
    for (int i = 0; i < n; i++)
        if (e[i] > 0) last = i;
    if (last >= 0 && isfinite(order))
        fprintf(g, "guide(x) = %.17g * (x / %.17g)**%.17g\n", e[last], h[last], order);
    fputs("plot '-' using 1:2 with linespoints pt 7 title 'error'", g);
    if (last >= 0 && isfinite(order)) fprintf(g, ", guide(x) with lines dt 2 title 'slope %.3f'", order);
    fputc('\n', g);
    for (int i = 0; i < n; i++)
        if (e[i] > 0) fprintf(g, "%.17g %.17g\n", h[i], e[i]);
    fputs("e\n", g);
    int rc = pclose(g);
    if (rc != 0) {
        fprintf(stderr, "nsdae: --plot %s: gnuplot failed (is gnuplot installed?)\n", png_path);
        return 0;
    }
    return 1;
}
