/* nsdae compare: two runs side by side, the maximum absolute and relative deviation of each column,
 * for regression checks and for checking against a peer (Siconos .ref tables). */
#include "cli/commands.h"
#include "cli/compare.h"
#include "cli/options.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: nsdae compare A B [--cols C1,C2,...] [--tol T] [--rtol R]\n"
    "\n"
    "Compares two runs with the time in their first column: our CSV (a header names the columns)\n"
    "or whitespace tables without header such as Siconos' .ref files (columns named by number,\n"
    "1 being the time; a first line 'ROWS COLS' is skipped). At each time of A, B's value is taken\n"
    "at the same time when both runs have the same times, else interpolated linearly between B's\n"
    "rows (times of A outside B's range are not compared). Prints, per column, the maximum\n"
    "absolute deviation, the time where it occurs, and the relative deviation: the absolute one\n"
    "over the column's largest magnitude in either run.\n"
    "\n"
    "  --cols C1,C2,...     columns to compare: names (or numbers in a table without header);\n"
    "                       NAME=OTHER pairs A's NAME with B's OTHER. Default: the columns both\n"
    "                       runs name, else the columns in order (2, 3, ...)\n"
    "  --tol T              fail when an absolute deviation exceeds T\n"
    "  --rtol R             fail when a relative deviation exceeds R\n"
    "  -h, --help           this text\n"
    "exit status: 0 within the tolerances (or none given); 1 a deviation above one; 2 bad command\n"
    "line or a run that cannot be read.\n";

enum { OPT_COLS = CLI_OPT_BASE, OPT_TOL, OPT_RTOL };

static const struct option long_options[] = {
    {"cols", required_argument, NULL, OPT_COLS}, {"tol", required_argument, NULL, OPT_TOL},
    {"rtol", required_argument, NULL, OPT_RTOL}, {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

#define MAX_PAIRS 4096

/* Column pairs from --cols, or by default. Returns the count, or -1 after printing. */
static int pair_columns(const table *a, const table *b, const char *cols, column_deviation *dev)
{
    int n = 0;
    if (!cols) {
        for (int c = 1; c < a->ncols && n < MAX_PAIRS; c++) {
            int cb = a->named && b->named ? table_column(b, a->names[c]) : c < b->ncols ? c : -1;
            if (cb > 0) dev[n++] = (column_deviation){c, cb, 0, 0, 0};
        }
        if (n == 0) fputs("nsdae compare: the runs have no column in common besides the time (give --cols)\n", stderr);
        return n ? n : -1;
    }
    char *copy = strdup(cols), *save = NULL;
    for (char *tok = copy ? strtok_r(copy, ",", &save) : NULL; tok && n < MAX_PAIRS; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        if (eq) *eq = '\0';
        int ca = table_column(a, tok), cb = table_column(b, eq ? eq + 1 : tok);
        if (ca < 0 || cb < 0) {
            fprintf(stderr, "nsdae compare: --cols: the %s run has no column '%s'\n", ca < 0 ? "first" : "second",
                    ca < 0 ? tok : eq ? eq + 1 : tok);
            free(copy);
            return -1;
        }
        dev[n++] = (column_deviation){ca, cb, 0, 0, 0};
    }
    free(copy);
    return n ? n : -1;
}

static int report(const table *a, const table *b, const column_deviation *dev, int n, const compare_result *res,
                  double tol, double rtol)
{
    printf("# %ld %s times compared", res->ntimes, res->interpolated ? "of the first run's" : "common");
    if (res->interpolated) printf(" (second run interpolated; %ld outside its range)", res->outside);
    printf("\n%-24s %14s %14s %14s\n", "column", "max_abs", "at_t", "max_rel");
    int above = 0;
    for (int i = 0; i < n; i++) {
        char name[128];
        if (strcmp(a->names[dev[i].col_a], b->names[dev[i].col_b]) == 0)
            snprintf(name, sizeof name, "%s", a->names[dev[i].col_a]);
        else snprintf(name, sizeof name, "%s=%s", a->names[dev[i].col_a], b->names[dev[i].col_b]);
        int bad = (tol >= 0 && !(dev[i].max_abs <= tol)) || (rtol >= 0 && !(dev[i].max_rel <= rtol));
        above += bad;
        printf("%-24s %14.6e %14.8g %14.6e%s\n", name, dev[i].max_abs, dev[i].at_t, dev[i].max_rel,
               bad ? "  ABOVE TOLERANCE" : "");
    }
    if (tol >= 0 || rtol >= 0)
        fprintf(stderr, "nsdae compare: %d of %d columns above the tolerance\n", above, n);
    return above ? 1 : 0;
}

int nsdae_cmd_compare(int argc, char **argv)
{
    const char *cols = NULL, *value;
    double tol = -1, rtol = -1;
    int code, first;
    cli_options_begin();
    while ((code = cli_options_next("compare", argc, argv, "h", long_options, &value, &first)) != CLI_OPT_END) {
        if (code == 'h') {
            fputs(help, stdout);
            return 0;
        }
        if (code == OPT_COLS) cols = value;
        else if (code == OPT_TOL || code == OPT_RTOL) {
            double *dst = code == OPT_TOL ? &tol : &rtol;
            if (!cli_parse_double(value, dst) || *dst < 0)
                return cli_bad_value("compare", code == OPT_TOL ? "--tol" : "--rtol", value, "expected a number >= 0");
        } else return CLI_USAGE;
    }
    if (argc - first != 2) {
        fputs("nsdae compare: give two runs, A and B (see 'nsdae compare --help')\n", stderr);
        return CLI_USAGE;
    }
    table a, b;
    char why[512];
    if (table_read(argv[first], &a, why, sizeof why) != 0) {
        fprintf(stderr, "nsdae compare: %s\n", why);
        return CLI_USAGE;
    }
    if (table_read(argv[first + 1], &b, why, sizeof why) != 0) {
        fprintf(stderr, "nsdae compare: %s\n", why);
        table_free(&a);
        return CLI_USAGE;
    }
    column_deviation *dev = calloc(MAX_PAIRS, sizeof *dev);
    compare_result res;
    int rc = CLI_USAGE, n = dev ? pair_columns(&a, &b, cols, dev) : -1;
    if (n > 0 && compare_tables(&a, &b, dev, n, &res, why, sizeof why) != 0) fprintf(stderr, "nsdae compare: %s\n", why);
    else if (n > 0) rc = report(&a, &b, dev, n, &res, tol, rtol);
    free(dev);
    table_free(&a);
    table_free(&b);
    return rc;
}
