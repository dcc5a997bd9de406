/* siconos_minnorm_bench DIR [--limit SECONDS]
 *
 * Benchmark (prints figures, asserts nothing): nsdae_lcp_minnorm against Siconos' own solvers on
 * every file of Siconos' LCP/MLCP test data (see siconos_data_check.c for the source of the
 * files, which are not part of nsdae). Each solver runs in its own child process with the time
 * limit (solvers.c); a call under 50 ms is repeated and its fastest run reported.
 * Columns: n, m; minimal-norm time and its answer's worst per-row violation (row_check.c) and
 * norm; Siconos Lemke (lcp_lexicolemke; an MLCP on its Schur complement) and ENUM times (one
 * solution each, not the minimal-norm one), and the ratio minnorm / the faster of the two.
 * 'T' = no answer within the limit, '!' = refused (the status follows), '-' = not applicable. */
#include "load.h"
#include "solvers.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void cell(char *buf, size_t len, const run_result *r)
{
    if (r->code == RUN_NOT_RUN)
        snprintf(buf, len, "-");
    else if (r->code == RUN_TIMEOUT)
        snprintf(buf, len, "T");
    else if (r->code == RUN_CRASHED)
        snprintf(buf, len, "X");
    else if (r->code != 0)
        snprintf(buf, len, "!%d", r->code);
    else
        snprintf(buf, len, "%.3g", 1e3 * r->secs);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s DIR [--limit SECONDS]\n", argv[0]);
        return 2;
    }
    double limit = 20;
    if (argc >= 4 && !strcmp(argv[2], "--limit"))
        limit = atof(argv[3]);
    DIR *d = opendir(argv[1]);
    if (!d) {
        fprintf(stderr, "%s: cannot open %s\n", argv[0], argv[1]);
        return 2;
    }
    int n = 0, cap = 64;
    char **names = malloc(sizeof(char *) * (size_t)cap);
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".dat"))
            continue;
        if (n == cap)
            names = realloc(names, sizeof(char *) * (size_t)(cap *= 2));
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, by_name);
    printf("%-34s %4s %4s | %10s %9s %12s | %10s %10s | %8s\n", "file", "n", "m", "minnorm ms", "row-resid",
           "norm", "sic-Lemke", "sic-ENUM", "ratio");
    for (int i = 0; i < n; i++) {
        data_file f;
        if (data_file_load(argv[1], names[i], &f) || f.skip[0]) {
            printf("%-34s skipped: %s\n", names[i], f.skip);
            data_file_free(&f);
            free(names[i]);
            continue;
        }
        run_result mn, lk, en;
        solver_run(&f, S_MINNORM, limit, &mn);
        solver_run(&f, S_SIC_LEMKE, limit, &lk);
        solver_run(&f, S_SIC_ENUM, limit, &en);
        char cm[32], cl[32], ce[32], ratio[32] = "-";
        cell(cm, sizeof cm, &mn);
        cell(cl, sizeof cl, &lk);
        cell(ce, sizeof ce, &en);
        double peer = INFINITY;
        if (lk.code == 0)
            peer = lk.secs;
        if (en.code == 0)
            peer = fmin(peer, en.secs);
        if (mn.code == 0 && isfinite(peer) && peer > 0)
            snprintf(ratio, sizeof ratio, "%.3g", mn.secs / peer);
        printf("%-34s %4d %4d | %10s %9.2g %12.6g | %10s %10s | %8s\n", f.name, f.n, f.m, cm,
               mn.code == 0 ? mn.worst : NAN, mn.code == 0 ? mn.norm : NAN, cl, ce, ratio);
        fflush(stdout);
        data_file_free(&f);
        free(names[i]);
    }
    free(names);
    printf("times in ms (fastest of up to 6 runs under 50 ms); ratio = minnorm / the faster Siconos solver; "
           "'T' = over %.0f s, '!' = refused (status), '-' = not applicable\n", limit);
    return 0;
}
