/* siconos_data_check DIR [--limit SECONDS] [--ours] [--open F1,F2,...]
 *
 * Runs nsdae's complementarity layer and Siconos' own solvers on every file of Siconos' LCP and
 * MLCP test data (siconos/siconos: numerics/src/LCP/test/data, numerics/src/MLCP/test/data),
 * read with Siconos' own reader functions. The files are not part of nsdae; pass the directory
 * holding them. Prints one table row per file and exits non-zero if any nsdae answer is wrong:
 *   - an answer (every point of an enumeration) fails the independent per-row check (row_check.c)
 *     beyond TOL, or is NaN/Inf;
 *   - minnorm gives no answer (a status other than NO_SOLUTION, a timeout, a crash; NO_SOLUTION
 *     while another solver found a checked solution), or its
 *     answer's norm exceeds the smallest norm among the checked points of the enumerations;
 *   - enumerate finds nothing while a checked solution exists;
 *   - nsdae_lcp_solve_siconos refuses while the same Siconos method's own answer passes the check.
 * Columns: n, m, the worst per-row violation of minnorm's answer, its norm, the times of nsdae's
 * solvers and Siconos' (ms; '-' not run, 'T' timeout, 'X' crash/abort, '!' refused).
 * Diagnostics: SDC_DETAIL=1 prints every solver's status and message, SDC_ROWS=1 every violated row.
 *
 * --ours (the ctest): only nsdae's own solvers, whose answers are what is judged: minnorm on every
 * file, Lemke where it applies, and the enumeration (the minimality cross-check) up to
 * OURS_ENUM_MAX_M pairs; Siconos' ENUM and the restart enumeration are exponential and are
 * compared in the benchmark (siconos_minnorm_bench), not here.
 * --open F1,F2,...: files still open in issue 12 (minnorm gives no answer within the limit); they
 * are listed as OPEN, not run, and do not count as right. */
#include "load.h"
#include "row_check.h"
#include "solvers.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOL 1e-9   /* per-row: a relative error of the row's own terms */
enum { OURS_ENUM_MAX_M = 16 };   /* 2^16 patterns: under a second */

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int list_dir(const char *dir, char ***out)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0, cap = 64;
    char **v = malloc(sizeof(char *) * (size_t)cap);
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".dat"))
            continue;
        if (n == cap)
            v = realloc(v, sizeof(char *) * (size_t)(cap *= 2));
        v[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(v, (size_t)n, sizeof *v, by_name);
    *out = v;
    return n;
}

/* Is name one of the comma-separated entries of list? */
static int listed(const char *list, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == len && !strncmp(p, name, n))
            return 1;
        p += n + (end != NULL);
    }
    return 0;
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
        snprintf(buf, len, "!%.3g", 1e3 * r->secs);
    else
        snprintf(buf, len, "%.3g", 1e3 * r->secs);
}

static int solved(const run_result *r)
{
    return r->code == 0 && r->count > 0 && r->worst <= TOL;
}

/* The verdict on nsdae's answers for one file; writes the reasons. */
static int judge(const data_file *f, const run_result *r, char *why, size_t len)
{
    int bad = 0;
    why[0] = '\0';
#define WHY(...) (bad = 1, snprintf(why + strlen(why), len - strlen(why), __VA_ARGS__))
    int exists = 0;
    double ref = INFINITY;   /* the smallest norm among checked points of the enumerations */
    for (int s = 0; s < S_COUNT; s++)
        exists |= solved(&r[s]);
    for (int s = 0; s < S_COUNT; s++)
        if ((s == S_ENUMERATE || s == S_RESTART) && solved(&r[s]))
            ref = fmin(ref, r[s].norm);
    for (int s = S_ENUMERATE; s <= S_RESTART; s++) {
        const run_result *x = &r[s];
        if (x->code == 0 && x->count > 0 && !(x->worst <= TOL))
            WHY(" %s: a point violates row-wise by %.2g;", solver_name(s), x->worst);
        if (x->code == RUN_TIMEOUT || x->code == RUN_CRASHED)
            WHY(" %s: %s;", solver_name(s), x->msg);
    }
    if (r[S_MINNORM].code != 0 && (exists || r[S_MINNORM].code != NSDAE_NO_SOLUTION))
        WHY(" minnorm: %s;", r[S_MINNORM].msg);
    if (r[S_MINNORM].code == 0 && f->rect_rows > 0 && !(r[S_MINNORM].rect_worst <= TOL))
        WHY(" minnorm: the rectangular form's complete rows violated by %.2g;", r[S_MINNORM].rect_worst);
    if (r[S_MINNORM].code == 0 && r[S_MINNORM].norm > ref * (1 + 1e-7) + 1e-300)
        WHY(" minnorm: norm %.10g above %.10g;", r[S_MINNORM].norm, ref);
    if (exists && r[S_ENUMERATE].code == 0 && r[S_ENUMERATE].count == 0)
        WHY(" enumerate: empty set;");
    if (r[S_NSDAE_ENUM].code != 0 && r[S_NSDAE_ENUM].code != RUN_NOT_RUN && solved(&r[S_SIC_ENUM]))
        WHY(" nsdae(enum) refused: %s;", r[S_NSDAE_ENUM].msg);
    if (r[S_NSDAE_LEMKE].code != 0 && r[S_NSDAE_LEMKE].code != RUN_NOT_RUN && solved(&r[S_SIC_LEMKE]))
        WHY(" nsdae(lemke) refused: %s;", r[S_NSDAE_LEMKE].msg);
#undef WHY
    return bad;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s DIR [--limit SECONDS] [--ours] [--open F1,F2,...]\n", argv[0]);
        return 2;
    }
    double limit = 60;
    int ours = 0, open = 0;
    const char *open_list = "";
    for (int a = 2; a < argc; a++) {
        if (!strcmp(argv[a], "--limit") && a + 1 < argc)
            limit = atof(argv[++a]);
        else if (!strcmp(argv[a], "--ours"))
            ours = 1;
        else if (!strcmp(argv[a], "--open") && a + 1 < argc)
            open_list = argv[++a];
    }
    char **names;
    int nf = list_dir(argv[1], &names);
    if (nf <= 0) {
        fprintf(stderr, "%s: no .dat files in %s\n", argv[0], argv[1]);
        return 2;
    }
    printf("%-36s %4s %4s %9s %12s %5s |", "file", "n", "m", "row-resid", "min-norm", "sols");
    for (int s = 0; s < S_COUNT; s++)
        printf(" %12s", solver_name(s));
    printf("  verdict\n");
    int wrong = 0, right = 0, skipped = 0;
    for (int i = 0; i < nf; i++) {
        data_file f;
        int ld = data_file_load(argv[1], names[i], &f);
        if (ld || f.skip[0]) {
            printf("%-36s %4d %4d  skipped: %s\n", f.name, f.n, f.m, f.skip);
            skipped++;
            if (ld)
                wrong++;
            data_file_free(&f);
            continue;
        }
        if (listed(open_list, f.name)) {
            printf("%-36s %4d %4d  OPEN (issue 12): minnorm has no answer within the limit yet; not run\n", f.name,
                   f.n, f.m);
            open++;
            data_file_free(&f);
            continue;
        }
        run_result r[S_COUNT];
        for (int s = 0; s < S_COUNT; s++) {
            int skip = ours && (s == S_SIC_ENUM || s == S_SIC_LEMKE || s == S_RESTART || s == S_NSDAE_ENUM ||
                                (s == S_ENUMERATE && f.m > OURS_ENUM_MAX_M));
            if (skip) {
                memset(&r[s], 0, sizeof r[s]);
                r[s].code = RUN_NOT_RUN;
            } else {
                solver_run(&f, (solver_id)s, limit, &r[s]);
            }
        }
        char why[1024], sols[16];
        int bad = judge(&f, r, why, sizeof why);
        const run_result *mn = &r[S_MINNORM], *en = &r[S_ENUMERATE];
        if (en->code == 0)
            snprintf(sols, sizeof sols, "%d%s", en->count, en->continuum ? "C" : "");
        else
            snprintf(sols, sizeof sols, "?");
        printf("%-36s %4d %4d %9.2g %12.6g %5s |", f.name, f.n, f.m, mn->code == 0 ? mn->worst : NAN,
               mn->code == 0 ? mn->norm : NAN, sols);
        for (int s = 0; s < S_COUNT; s++) {
            char c[32];
            cell(c, sizeof c, &r[s]);
            printf(" %12s", c);
        }
        printf("  %s%s\n", bad ? "WRONG:" : "right", why);
        if (f.note[0])
            printf("    %s: %s; its complete rows' worst residual %.2g\n", f.name, f.note, mn->rect_worst);
        for (int s = 0; getenv("SDC_DETAIL") && s < S_COUNT; s++)
            printf("    %-12s code %4d  %9.3g ms  worst %9.3g  norm %.12g  count %d  %s\n", solver_name(s),
                   r[s].code, 1e3 * r[s].secs, r[s].worst, r[s].norm, r[s].count, r[s].msg);
        fflush(stdout);
        wrong += bad;
        right += !bad;
        data_file_free(&f);
    }
    printf("\n%d files: %d right, %d wrong, %d outside nsdae's square form, %d open\n", nf, right, wrong, skipped,
           open);
    printf("times in ms; '!' = refused (status), 'T' = over %.0f s, 'X' = process died; sols: enumerate's "
           "pieces, C = a continuum\n", limit);
    for (int i = 0; i < nf; i++)
        free(names[i]);
    free(names);
    return wrong ? 1 : 0;
}
