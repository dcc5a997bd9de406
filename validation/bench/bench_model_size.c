/* Cost of the front end and of a short run against the model size (issue 14, item 5): N decoupled
 * ODEs der(x_i) = -k x_i (about 50 bytes per equation), for N doubling from --from to --to:
 *   parse      nsdae_model_parse_string
 *   check      parse + nsdae_translate_mlcs (what `nsdae check` does before printing; only for
 *              N <= --check-max: it is quadratic, dense ny x ny matrices)
 *   simulate   10 minimal-norm implicit Euler steps after check (only for N <= --sim-max)
 * and the peak resident memory of the process after each size (getrusage: it only grows, so a
 * row's figure is the largest N so far). Linear cost shows as a constant time per equation.
 * Usage: ./build/bench_model_size [--from N] [--to N] [--check-max N] [--sim-max N] */
#include "bench_clock.h"

#include <nsdae/model.h>
#include <nsdae/stepper.h>
#include <nsdae/translate.h>

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

int main(int argc, char **argv)
{
    int from = 625, to = 20000, check_max = 2500, sim_max = 1250;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--from")) from = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--to")) to = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--sim-max")) sim_max = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--check-max")) check_max = atoi(argv[i + 1]);
    }
    printf("%8s %10s %10s %12s %10s %12s %12s %10s\n", "N", "bytes", "parse s", "parse us/eq", "check s",
           "check us/eq", "simulate s", "peak MB");
    for (int n = from; n <= to; n *= 2) {
        size_t len = 0;
        char *text = model_text(n, &len);
        nsdae_model *m = NULL;
        nsdae_mlcs *s = NULL;
        nsdae_error err = {0};
        double t0 = bench_seconds();
        if (!text || nsdae_model_parse_string(text, len, "big.nsm", &m, &err) != NSDAE_OK) {
            fprintf(stderr, "parse: %s\n", err.message);
            return 1;
        }
        double t1 = bench_seconds();
        if (n > check_max) {
            printf("%8d %10zu %10.3f %12.2f %10s %12s %12s %10.1f\n", n, len, t1 - t0, 1e6 * (t1 - t0) / n, "-", "-",
                   "-", peak_mb());
            nsdae_model_destroy(m);
            free(text);
            continue;
        }
        if (nsdae_translate_mlcs(m, &s, NULL, &err) != NSDAE_OK) {
            fprintf(stderr, "translate: %s\n", err.message);
            return 1;
        }
        double t2 = bench_seconds(), sim = -1;
        if (n <= sim_max) {
            nsdae_stepper_options o;
            nsdae_stepper_defaults(&o);
            o.stop = 1;
            o.nsteps = 10;
            long rows = 0;
            nsdae_stepper_summary sum;
            if (nsdae_stepper_run(s, &o, count_rows, &rows, NULL, &sum, &err) != NSDAE_OK) {
                fprintf(stderr, "simulate: %s\n", err.message);
                return 1;
            }
            sim = bench_seconds() - t2;
        }
        char simtext[32] = "-";
        if (sim >= 0) snprintf(simtext, sizeof simtext, "%.3f", sim);
        printf("%8d %10zu %10.3f %12.2f %10.3f %12.2f %12s %10.1f\n", n, len, t1 - t0, 1e6 * (t1 - t0) / n,
               t2 - t0, 1e6 * (t2 - t0) / n, simtext, peak_mb());
        fflush(stdout);
        nsdae_mlcs_destroy(s);
        nsdae_model_destroy(m);
        free(text);
    }
    return 0;
}
