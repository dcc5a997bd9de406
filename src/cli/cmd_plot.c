/* nsdae plot: a PNG of an existing run (our CSV or a Siconos .ref table), trajectories against time
 * or a phase portrait, drawn by gnuplot. */
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/plot.h"
#include "cli/plot_select.h"

#include <stdio.h>
#include <string.h>

static const char help[] =
    "usage: nsdae plot RUN.csv [--vars X1,X2,... | --phase X,Y] [--out FILE.png] [--title TEXT]\n"
    "\n"
    "Draws a run written by 'nsdae simulate' (or any table with the time first: CSV with a header,\n"
    "or a whitespace table such as Siconos' .ref files, whose columns are named col1, col2, ... or\n"
    "given by number) as a PNG with gnuplot: the chosen columns against time, or with --phase one\n"
    "column against another (the start and the end marked). Runs longer than 20000 rows are thinned\n"
    "evenly for drawing.\n"
    "\n"
    "  --vars X1,X2,...     columns against time (default: the state columns, not nsol, res, active_*)\n"
    "  --phase X,Y          Y against X\n"
    "  --out FILE.png       the image (default: RUN with .png for its extension)\n"
    "  --title TEXT         the plot's title (default: the run's file name)\n"
    "  -h, --help           this text\n"
    "exit status: 0 done; 1 the run cannot be read or gnuplot is missing or failed; 2 bad command line.\n";

enum { OPT_VARS = CLI_OPT_BASE, OPT_PHASE, OPT_OUT, OPT_TITLE };

static const struct option long_options[] = {
    {"vars", required_argument, NULL, OPT_VARS}, {"phase", required_argument, NULL, OPT_PHASE},
    {"out", required_argument, NULL, OPT_OUT},   {"title", required_argument, NULL, OPT_TITLE},
    {"help", no_argument, NULL, 'h'},            {NULL, 0, NULL, 0},
};

/* RUN.csv -> RUN.png (an extension after the last '/' is replaced, else ".png" is added). */
static void default_png(char *buf, size_t size, const char *run)
{
    const char *slash = strrchr(run, '/'), *dot = strrchr(run, '.');
    size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - run) : strlen(run);
    snprintf(buf, size, "%.*s.png", (int)stem, run);
}

int nsdae_cmd_plot(int argc, char **argv)
{
    plot_request req = {0};
    const char *title = NULL, *value;
    int code, first;
    cli_options_begin();
    while ((code = cli_options_next("plot", argc, argv, "h", long_options, &value, &first)) != CLI_OPT_END) {
        if (code == 'h') {
            fputs(help, stdout);
            return 0;
        }
        if (code == OPT_VARS) req.vars = value;
        else if (code == OPT_PHASE) req.phase = value;
        else if (code == OPT_OUT) req.png = value;
        else if (code == OPT_TITLE) title = value;
        else return CLI_USAGE;
    }
    if (first >= argc) {
        fputs("nsdae plot: no run given (see 'nsdae plot --help')\n", stderr);
        return CLI_USAGE;
    }
    if (first + 1 < argc) {
        fprintf(stderr, "nsdae plot: one run only ('%s' and '%s')\n", argv[first], argv[first + 1]);
        return CLI_USAGE;
    }
    const char *run = argv[first];
    char png[4096], why[512];
    if (!req.png) default_png(png, sizeof png, run);
    else snprintf(png, sizeof png, "%s", req.png);
    table tb;
    if (table_read(run, &tb, why, sizeof why) != 0) {
        fprintf(stderr, "nsdae plot: %s\n", why);
        return 1;
    }
    int cols[PLOT_MAX_VARS], rc = CLI_USAGE;
    int n = plot_select("plot", &req, &tb, cols);
    if (n > 0) rc = plot_table("plot", png, title ? title : run, &tb, cols, n, req.phase != NULL) ? 0 : 1;
    if (rc == 0) fprintf(stderr, "nsdae plot: %s written\n", png);
    table_free(&tb);
    return rc;
}
