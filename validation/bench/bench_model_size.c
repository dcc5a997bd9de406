/* Cost of the front end and of a short run against the model size (issue 14, item 5): N decoupled
 * ODEs der(x_i) = -k x_i (about 50 bytes per equation), for N doubling from --from to --to:
 *   parse      nsdae_model_parse_string
 *   translate  nsdae_translate_mlcs (compressed MLCS)
 *   check      parse + translate: what `nsdae check` does before printing
 *   dense      nsdae_mlcs_dense, what a dense consumer asks for (only for N <= --dense-max: it is
 *              O(N^2) memory by nature, 3.2 GB per matrix at N = 20 000)
 *   simulate   10 minimal-norm implicit Euler steps after dense (only for N <= --sim-max)
 * and the peak resident memory of the process after each size (getrusage: it only grows, so a
 * row's figure is the largest N so far). Then the exponent p of a least-squares fit time ~ N^p of
 * each stage over the rows (p = 1: linear), and one row of P parameters (--params, 190 000 by
 * default: the size the issue found quadratic), each declared and one of them used.
 * Usage: ./build/bench_model_size [--from N] [--to N] [--dense-max N] [--sim-max N] [--params P] */
#include "bench_clock.h"
#include "bench_fit.h"

#include <nsdae/model.h>
#include <nsdae/stepper.h>
#include <nsdae/translate.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static char *model_text(int n, size_t *len)
{
    size_t cap = 64 + (size_t)n * 64, used = 0;
    char *s = malloc(cap);
    if (!s) return NULL;
    used += (size_t)snprintf(s + used, cap - used, "model big\n  parameter k = 2;\n");
    for (int i = 0; i < n; i++) used += (size_t)snprintf(s + used, cap - used, "  var x%d(start = 1);\n", i);
    used += (size_t)snprintf(s + used, cap - used, "equation\n");
    for (int i = 0; i < n; i++) used += (size_t)snprintf(s + used, cap - used, "  der(x%d) = -k*x%d;\n", i, i);
    used += (size_t)snprintf(s + used, cap - used, "end big;\n");
    *len = used;
    return s;
}

/* P parameters p0 .. p(P-1) and one equation that uses the last one declared; written tersely
 * (about 20 bytes each) so that 190 000 of them fit the parser's 4 MB limit. */
static char *params_text(int np, size_t *len)
{
    size_t cap = 128 + (size_t)np * 40, used = 0;
    char *s = malloc(cap);
    if (!s) return NULL;
    used += (size_t)snprintf(s + used, cap - used, "model params\n");
    for (int i = 0; i < np; i++) used += (size_t)snprintf(s + used, cap - used, "parameter p%d=1;\n", i);
    used += (size_t)snprintf(s + used, cap - used, "  var x(start = 1);\nequation\n  der(x) = -p%d*x;\nend params;\n",
                             np - 1);
    *len = used;
    return s;
}

static double peak_mb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0;
}

static int count_rows(const nsdae_step_record *rec, void *ctx)
{
    (void)rec;
    ++*(long *)ctx;
    return 0;
}

static void timed_cell(double t)
{
    if (t >= 0) printf(" %10.3f", t);
    else printf(" %10s", "-");
}

/* Parses and translates a model text; times into *parse and *translate. 0 on success. */
static int check_text(const char *text, size_t len, const char *file, nsdae_model **m, nsdae_mlcs **s,
                      double *parse, double *translate)
{
    nsdae_error err = {0};
    double t0 = bench_seconds();
    if (nsdae_model_parse_string(text, len, file, m, &err) != NSDAE_OK) {
        fprintf(stderr, "parse: %s\n", err.message);
        return 1;
    }
    double t1 = bench_seconds();
    if (nsdae_translate_mlcs(*m, s, NULL, &err) != NSDAE_OK) {
        fprintf(stderr, "translate: %s\n", err.message);
        return 1;
    }
    *parse = t1 - t0;
    *translate = bench_seconds() - t1;
    return 0;
}

/* Dense materialisation and a 10-step run; -1 for the stages that were not asked for. */
static int dense_and_run(nsdae_mlcs *s, int dense_it, int run_it, double *dense, double *sim)
{
    nsdae_error err = {0};
    *dense = *sim = -1;
    if (!dense_it) return 0;
    double t0 = bench_seconds();
    if (nsdae_mlcs_dense(s, &err) != NSDAE_OK) {
        fprintf(stderr, "dense: %s\n", err.message);
        return 1;
    }
    *dense = bench_seconds() - t0;
    if (!run_it) return 0;
    nsdae_stepper_options o;
    nsdae_stepper_defaults(&o);
    o.stop = 1;
    o.nsteps = 10;
    long rows = 0;
    nsdae_stepper_summary sum;
    double t1 = bench_seconds();
    if (nsdae_stepper_run(s, &o, count_rows, &rows, NULL, &sum, &err) != NSDAE_OK) {
        fprintf(stderr, "simulate: %s\n", err.message);
        return 1;
    }
    *sim = bench_seconds() - t1;
    return 0;
}

enum { MAX_ROWS = 32 };

int main(int argc, char **argv)
{
    int from = 625, to = 20000, dense_max = 2500, sim_max = 1250, nparams = 190000;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--from")) from = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--to")) to = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--sim-max")) sim_max = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--dense-max")) dense_max = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--params")) nparams = atoi(argv[i + 1]);
    }
    if (from < 1) from = 1;
    int ns[MAX_ROWS], rows = 0;
    double tp[MAX_ROWS], tt[MAX_ROWS], tc[MAX_ROWS];
    printf("%8s %10s %10s %10s %10s %12s %10s %10s %10s\n", "N", "bytes", "parse s", "translate", "check s",
           "check us/eq", "dense s", "simulate s", "peak MB");
    for (int n = from; n <= to && rows < MAX_ROWS; n *= 2) {
        size_t len = 0;
        char *text = model_text(n, &len);
        nsdae_model *m = NULL;
        nsdae_mlcs *s = NULL;
        double parse, translate, dense, sim;
        if (!text || check_text(text, len, "big.nsm", &m, &s, &parse, &translate) ||
            dense_and_run(s, n <= dense_max, n <= sim_max, &dense, &sim))
            return 1;
        printf("%8d %10zu %10.3f %10.3f %10.3f %12.2f", n, len, parse, translate, parse + translate,
               1e6 * (parse + translate) / n);
        timed_cell(dense);
        timed_cell(sim);
        printf(" %10.1f\n", peak_mb());
        fflush(stdout);
        ns[rows] = n;
        tp[rows] = parse;
        tt[rows] = translate;
        tc[rows++] = parse + translate;
        nsdae_mlcs_destroy(s);
        nsdae_model_destroy(m);
        free(text);
    }
    printf("fitted exponent p (time ~ N^p over the rows): parse %.2f, translate %.2f, check %.2f\n",
           fitted_exponent(ns, tp, rows), fitted_exponent(ns, tt, rows), fitted_exponent(ns, tc, rows));
    if (nparams > 0) {
        size_t len = 0;
        char *text = params_text(nparams, &len);
        nsdae_model *m = NULL;
        nsdae_mlcs *s = NULL;
        double parse, translate;
        if (!text || check_text(text, len, "params.nsm", &m, &s, &parse, &translate)) return 1;
        printf("%d parameters (%zu bytes): parse %.3f s, translate %.3f s, check %.3f s (%.2f us/parameter)\n",
               nparams, len, parse, translate, parse + translate, 1e6 * (parse + translate) / nparams);
        nsdae_mlcs_destroy(s);
        nsdae_model_destroy(m);
        free(text);
    }
    return 0;
}
