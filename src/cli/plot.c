/* gnuplot through a pipe (plot.h). */
#include "cli/plot.h"
#include "cli/gnuplot_pipe.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Rows fed to gnuplot at most: a PNG of 1000 pixels shows no more, and a million-step run must not
 * take minutes to draw. Longer runs are thinned evenly, the last row always kept. */
#define PLOT_MAX_ROWS 20000

static int fail(const char *cmd, const char *png_path, const char *why)
{
    fprintf(stderr, "nsdae %s: --plot '%s': %s\n", cmd, png_path, why);
    return 0;
}

/* gnuplot on PATH, as popen's shell would find it. */
static int gnuplot_on_path(void)
{
    const char *path = getenv("PATH");
    if (!path) return 0;
    char *copy = strdup(path), *save = NULL;
    int found = 0;
    for (char *dir = copy ? strtok_r(copy, ":", &save) : NULL; dir && !found; dir = strtok_r(NULL, ":", &save)) {
        char exe[4096];
        snprintf(exe, sizeof exe, "%s/gnuplot", *dir ? dir : ".");
        found = access(exe, X_OK) == 0;
    }
    free(copy);
    return found;
}

int plot_check(const char *cmd, const char *png_path)
{
    char why[4200];
    if (!gnuplot_on_path())
        return fail(cmd, png_path, "gnuplot is not installed (not found on PATH); install it (Debian: gnuplot-nox) "
                                   "or leave out --plot");
    const char *slash = strrchr(png_path, '/');
    char dir[4096];
    if (!slash) snprintf(dir, sizeof dir, ".");
    else snprintf(dir, sizeof dir, "%.*s", slash == png_path ? 1 : (int)(slash - png_path), png_path);
    struct stat st;
    if (stat(dir, &st) != 0) {
        snprintf(why, sizeof why, "directory '%s': %s", dir, strerror(errno));
        return fail(cmd, png_path, why);
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(why, sizeof why, "'%s' is not a directory", dir);
        return fail(cmd, png_path, why);
    }
    if (access(dir, W_OK) != 0) {
        snprintf(why, sizeof why, "directory '%s' is not writable: %s", dir, strerror(errno));
        return fail(cmd, png_path, why);
    }
    return 1;
}

void gnuplot_quoted(FILE *g, const char *s)
{
    fputc('\'', g);
    for (; *s; s++) {
        if (*s == '\'') fputc('\'', g);
        fputc(*s, g);
    }
    fputc('\'', g);
}

int gnuplot_open(gnuplot *gp, const char *cmd, const char *png_path, const char *title)
{
    return gnuplot_open_sized(gp, cmd, png_path, title, 1000, 700);
}

int gnuplot_open_sized(gnuplot *gp, const char *cmd, const char *png_path, const char *title, int width, int height)
{
    if (!plot_check(cmd, png_path)) return 0;
    struct sigaction ign;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ign, &gp->old_pipe);
    gp->g = popen("gnuplot", "w");
    if (!gp->g) {
        sigaction(SIGPIPE, &gp->old_pipe, NULL);
        char why[256];
        snprintf(why, sizeof why, "cannot start gnuplot: %s", strerror(errno));
        return fail(cmd, png_path, why);
    }
    fprintf(gp->g, "set terminal pngcairo size %d,%d noenhanced\nset output ", width, height);
    gnuplot_quoted(gp->g, png_path);
    fputs("\nset grid\nset title ", gp->g);
    gnuplot_quoted(gp->g, title);
    fputc('\n', gp->g);
    return 1;
}

int gnuplot_close(gnuplot *gp, const char *cmd, const char *png_path)
{
    int write_failed = fflush(gp->g) != 0 || ferror(gp->g);
    int st = pclose(gp->g);
    sigaction(SIGPIPE, &gp->old_pipe, NULL);
    char why[256];
    if (st == -1) snprintf(why, sizeof why, "waiting for gnuplot failed: %s", strerror(errno));
    else if (WIFEXITED(st) && WEXITSTATUS(st) == 127) snprintf(why, sizeof why, "gnuplot could not be run");
    else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        snprintf(why, sizeof why, "gnuplot failed (its messages are above); no plot written");
    else if (write_failed) snprintf(why, sizeof why, "gnuplot stopped reading its input; the plot may be incomplete");
    else return 1;
    return fail(cmd, png_path, why);
}

int plot_loglog_error(const char *cmd, const char *png_path, const char *title, const double *h, const double *e,
                      int n, double order)
{
    int points = 0;
    for (int i = 0; i < n; i++) points += e[i] > 0;
    if (points == 0) return fail(cmd, png_path, "every error is zero, nothing to draw on a log scale");
    /* the least-squares line: log e = a + order log h over the points that entered the fit */
    double sx = 0, sy = 0;
    for (int i = 0; i < n; i++)
        if (e[i] > 0) sx += log(h[i]), sy += log(e[i]);
    double a = (sy - order * sx) / points;
    gnuplot gp;
    if (!gnuplot_open(&gp, cmd, png_path, title)) return 0;
    FILE *g = gp.g;
    fputs("set logscale xy\nset format xy '%.0e'\nset key top left\nset xlabel 'h'\n"
          "set ylabel 'error at T (2-norm, differential unknowns)'\n",
          g);
    if (points < n)
        fprintf(g, "set label 1 '%d of %d runs have zero error: not drawn on the log scale, not in the fit' "
                   "at graph 0.02, graph 0.04\n", n - points, n);
    fputs("$d << EOD\n", g);
    for (int i = 0; i < n; i++)
        if (e[i] > 0) fprintf(g, "%.17g %.17g\n", h[i], e[i]);
    fputs("EOD\nplot $d using 1:2 with linespoints pt 7 title 'error'", g);
    if (isfinite(order))
        fprintf(g, ", exp(%.17g) * x**%.17g with lines dt 2 lw 2 title 'least squares: order %.3f'", a, order, order);
    fputc('\n', g);
    return gnuplot_close(&gp, cmd, png_path);
}

int plot_table(const char *cmd, const char *png_path, const char *title, const table *tb, const int *cols, int ncols,
               int phase)
{
    if (tb->nrows == 0) return fail(cmd, png_path, "the run has no rows");
    gnuplot gp;
    if (!gnuplot_open(&gp, cmd, png_path, title)) return 0;
    FILE *g = gp.g;
    long stride = (tb->nrows + PLOT_MAX_ROWS - 1) / PLOT_MAX_ROWS, written = 0;
    fputs("set key outside right\n$d << EOD\n", g);
    for (long r = 0; r < tb->nrows; r++) {
        if (r % stride != 0 && r != tb->nrows - 1) continue;
        fprintf(g, "%.17g", TABLE_AT(tb, r, 0));
        for (int c = 0; c < ncols; c++) fprintf(g, " %.17g", TABLE_AT(tb, r, cols[c]));
        fputc('\n', g);
        written++;
    }
    fputs("EOD\n", g);
    if (phase) {
        fputs("set xlabel ", g);
        gnuplot_quoted(g, tb->names[cols[0]]);
        fputs("\nset ylabel ", g);
        gnuplot_quoted(g, tb->names[cols[1]]);
        fprintf(g, "\nplot $d using 2:3 with lines lw 2 title 'trajectory', "
                   "$d every ::0::0 using 2:3 with points pt 7 ps 1.5 title 'start (t = %g)', "
                   "$d every ::%ld::%ld using 2:3 with points pt 5 ps 1.5 title 'end (t = %g)'\n",
                TABLE_AT(tb, 0, 0), written - 1, written - 1, TABLE_AT(tb, tb->nrows - 1, 0));
    } else {
        fputs("set xlabel ", g);
        gnuplot_quoted(g, tb->names[0]);
        fputs("\nplot ", g);
        for (int c = 0; c < ncols; c++) {
            fprintf(g, "%s$d using 1:%d with lines lw 2 title ", c ? ", " : "", c + 2);
            gnuplot_quoted(g, tb->names[cols[c]]);
        }
        fputc('\n', g);
    }
    return gnuplot_close(&gp, cmd, png_path);
}

int plot_columns(const char *cmd, const char *flag, const char *list, const table *tb, int *cols, int max)
{
    char *copy = strdup(list), *save = NULL;
    int n = 0;
    for (char *tok = copy ? strtok_r(copy, ",", &save) : NULL; tok; tok = strtok_r(NULL, ",", &save)) {
        int c = table_column(tb, tok);
        if (c < 0 || n == max) {
            if (c < 0) {
                fprintf(stderr, "nsdae %s: %s '%s': no column '%s' (columns:", cmd, flag, list, tok);
                for (int k = 0; k < tb->ncols; k++) fprintf(stderr, " %s", tb->names[k]);
                fputs(")\n", stderr);
            } else fprintf(stderr, "nsdae %s: %s '%s': at most %d columns\n", cmd, flag, list, max);
            free(copy);
            return 0;
        }
        cols[n++] = c;
    }
    free(copy);
    if (n == 0) fprintf(stderr, "nsdae %s: %s '%s': no column named\n", cmd, flag, list);
    return n;
}
