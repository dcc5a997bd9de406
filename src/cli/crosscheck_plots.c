/* The plots of a cross-check (crosscheck_report.h): every measure against h on log-log axes with a
 * slope-1 guide (implicit Euler with events is O(h)), and the trajectories of both engines, one
 * panel per state. */
#include "cli/crosscheck_report.h"
#include "cli/gnuplot_pipe.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OVERLAY_MAX_PANELS 6      /* states drawn; a bigger system shows its first six */
#define OVERLAY_MAX_ROWS 20000    /* rows per curve; more are thinned evenly (a PNG shows no more) */

static int errors_plot(const char *cmd, const char *png, const xc_heading *hd, const xc_study *st)
{
    char title[512];
    snprintf(title, sizeof title, "%s: %s against the event-driven engine", hd->label, hd->scheme);
    gnuplot gp;
    if (!gnuplot_open(&gp, cmd, png, title)) return 1;
    FILE *g = gp.g;
    fputs("set logscale xy\nset format xy '%.0e'\nset key below maxrows 3\nset xlabel 'h'\n"
          "set ylabel 'difference to the event-driven run'\n$d << EOD\n", g);
    /* one block per measure, only the points that enter its fit */
    int drawn[XC_NMEASURES] = {0}, blocks = 0, block_of[XC_NMEASURES];
    double h_ref = NAN, e_ref = NAN;
    for (int m = 0; m < XC_NMEASURES; m++) {
        block_of[m] = -1;
        for (int r = 0; r < st->nruns; r++) {
            double e = st->runs[r].err[m];
            if (!isfinite(e) || e <= st->floor[m]) continue;
            fprintf(g, "%.17g %.17g\n", st->runs[r].h, e);
            drawn[m]++;
            if (m == XC_ERR_T || !isfinite(h_ref)) h_ref = st->runs[r].h, e_ref = e;
        }
        if (drawn[m]) {
            fputs("\n\n", g);
            block_of[m] = blocks++;
        }
    }
    fputs("EOD\n", g);
    static const char *const short_name[XC_NMEASURES] = {"err(T)", "err(grid)", "event dt", "post-event"};
    char hidden[256] = "";
    for (int m = 0; m < XC_NMEASURES; m++)
        if (!drawn[m] && isfinite(st->runs[0].err[m]))
            snprintf(hidden + strlen(hidden), sizeof hidden - strlen(hidden), "%s%s", hidden[0] ? ", " : "",
                     short_name[m]);
    if (hidden[0]) {
        fputs("set label 2 ", g);
        char text[400];
        snprintf(text, sizeof text, "at the engine's accuracy, not drawn: %s", hidden);
        gnuplot_quoted(g, text);
        fputs(" at graph 0.02, graph 0.96\n", g);
    }
    if (!blocks) {
        fputs("set label 1 'nothing to fit' at graph 0.1, graph 0.5\n"
              "set xrange [1e-3:1]\nset yrange [1e-3:1]\nplot NaN notitle\n", g);
        return !gnuplot_close(&gp, cmd, png);
    }
    fputs("plot ", g);
    const char *point[XC_NMEASURES] = {"7", "5", "9", "13"};
    for (int m = 0, first = 1; m < XC_NMEASURES; m++) {
        if (block_of[m] < 0) continue;
        char key[160];
        if (isfinite(st->order[m])) snprintf(key, sizeof key, "%s (order %.2f)", xc_measure_text[m], st->order[m]);
        else snprintf(key, sizeof key, "%s", xc_measure_text[m]);
        fprintf(g, "%s$d index %d using 1:2 with linespoints pt %s ps 1.4 lw 2 title ", first ? "" : ", ", block_of[m],
                point[m]);
        gnuplot_quoted(g, key);
        first = 0;
    }
    /* the guide, a factor 2 under the finest error at T (not hidden by it): the theory's O(h) */
    fprintf(g, ", 0.5 * %.17g * (x / %.17g) with lines dt 2 lc rgb 'gray40' title 'slope 1 (implicit Euler: O(h))'", e_ref,
            h_ref);
    /* an event is seen at the first grid time after it: the event-time error stays under h */
    if (block_of[XC_ERR_EVENT_TIME] >= 0) fputs(", x with lines dt 3 lc rgb 'gray70' title 'h (bound of the event-time error)'", g);
    fputc('\n', g);
    return !gnuplot_close(&gp, cmd, png);
}

/* A curve's rows into the datablock: t and the first npanels states, thinned evenly. */
static void curve(FILE *g, const table *tb, int npanels)
{
    long stride = (tb->nrows + OVERLAY_MAX_ROWS - 1) / OVERLAY_MAX_ROWS;
    if (stride < 1) stride = 1;
    for (long r = 0; r < tb->nrows; r++) {
        if (r % stride != 0 && r != tb->nrows - 1) continue;
        fprintf(g, "%.17g", TABLE_AT(tb, r, 0));
        for (int k = 1; k <= npanels; k++) fprintf(g, " %.17g", TABLE_AT(tb, r, k));
        fputc('\n', g);
    }
    fputs("\n\n", g);
}

static int overlay_plot(const char *cmd, const char *png, const xc_heading *hd, const xc_system *sys,
                        const xc_study *st)
{
    int npanels = sys->nx < OVERLAY_MAX_PANELS ? sys->nx : OVERLAY_MAX_PANELS;
    if (npanels < 1) return 0;
    char title[512];
    snprintf(title, sizeof title, "%s: event-driven (IDA) and %s trajectories", hd->label, hd->scheme);
    gnuplot gp;
    if (!gnuplot_open_sized(&gp, cmd, png, title, 1000, 120 + 260 * npanels)) return 1;
    FILE *g = gp.g;
    fputs("unset title\n$d << EOD\n", g);
    curve(g, &st->fine_engine.rows, npanels);
    curve(g, &st->coarse_ts.rows, npanels);
    curve(g, &st->fine_ts.rows, npanels);
    fputs("EOD\nset multiplot layout ", g);
    fprintf(g, "%d,1 title ", npanels);
    gnuplot_quoted(g, title);
    fputs("\nset key outside right\n", g);
    long n_coarse = st->runs[0].n, n_fine = st->runs[st->nruns - 1].n;
    /* the coarse run's steps as points while they stay apart on 1000 pixels */
    const char *coarse_style = n_coarse <= 300 ? "linespoints pt 6 ps 0.6" : "lines";
    for (int k = 0; k < npanels; k++) {
        fputs("set ylabel ", g);
        gnuplot_quoted(g, sys->names[k]);
        fputc('\n', g);
        if (k == npanels - 1) fputs("set xlabel 't'\n", g);
        fprintf(g, "plot $d index 0 using 1:%d with lines lw 3 lc rgb 'black' title 'event-driven', "
                   "$d index 1 using 1:%d with %s lw 1.5 lc rgb 'red' title '%s, N = %ld', "
                   "$d index 2 using 1:%d with lines dt 2 lw 2 lc rgb 'blue' title '%s, N = %ld'\n",
                k + 2, k + 2, coarse_style, hd->scheme, n_coarse, k + 2, hd->scheme, n_fine);
    }
    fputs("unset multiplot\n", g);
    return !gnuplot_close(&gp, cmd, png);
}

/* path.png -> path_overlay.png (the suffix before the last dot of the file name, else appended). */
static char *overlay_path(const char *png)
{
    size_t n = strlen(png);
    char *out = malloc(n + 16);
    if (!out) return NULL;
    const char *slash = strrchr(png, '/'), *dot = strrchr(png, '.');
    size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - png) : n;
    snprintf(out, n + 16, "%.*s_overlay%s", (int)stem, png, png + stem);
    return out;
}

int xc_report_plots(const char *cmd, const char *png_path, const xc_heading *hd, const xc_system *sys,
                    const xc_study *st)
{
    int rc = errors_plot(cmd, png_path, hd, st);
    if (!rc) fprintf(stderr, "nsdae %s: error plot written to %s\n", cmd, png_path);
    char *over = overlay_path(png_path);
    if (!over) {
        fprintf(stderr, "nsdae %s: out of memory\n", cmd);
        return 1;
    }
    int rc2 = overlay_plot(cmd, over, hd, sys, st);
    if (!rc2) fprintf(stderr, "nsdae %s: overlay plot written to %s\n", cmd, over);
    free(over);
    return rc | rc2;
}
