/* Runs a system for each step count and reports the error at T against a reference. */
#include "cli/convergence.h"
#include "cli/plot.h"

#include <nsdae/eventdriven.h>
#include <nsdae/order_fit.h>
#include <nsdae/tolerances.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int compare_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

int convergence_parse_steps(const char *text, long **out, int *count)
{
    int cap = 1;
    for (const char *p = text; *p; p++) cap += *p == ',';
    long *v = calloc((size_t)cap, sizeof *v);
    if (!v) return 0;
    char *copy = strdup(text), *save = NULL;
    int n = 0, ok = copy != NULL;
    for (char *tok = ok ? strtok_r(copy, ",", &save) : NULL; ok && tok; tok = strtok_r(NULL, ",", &save)) {
        ok = cli_parse_long(tok, &v[n]) && v[n] >= 1;
        /* a repeated count adds no grid: its zero error difference would read as an exact scheme */
        for (int k = 0; ok && k < n; k++) ok = v[k] != v[n];
        n += ok;
    }
    free(copy);
    if (!ok || n < 2) {
        free(v);
        return 0;
    }
    *out = v;
    *count = n;
    return 1;
}

int convergence_study(const convergence_runner *run, const run_options *ro, convergence_reference ref,
                      const long *steps_in, int nruns, const char *plot_path, const char *csv_path)
{
    int status = 1;
    const int nd = run->nd;
    long *steps = calloc((size_t)nruns, sizeof *steps);
    double *xref = calloc((size_t)nd + 1, sizeof *xref), *x = calloc((size_t)nd + 1, sizeof *x);
    double *h = calloc((size_t)nruns, sizeof *h), *e = calloc((size_t)nruns, sizeof *e);
    if (!steps || !xref || !x || !h || !e) {
        fprintf(stderr, "nsdae converge: out of memory\n");
        goto done;
    }
    memcpy(steps, steps_in, (size_t)nruns * sizeof *steps);
    qsort(steps, (size_t)nruns, sizeof *steps, compare_long); /* coarse to fine: h decreasing */
    const double T = run->stop - run->t0;
    int nrows = nruns;
    if (ref == CONVERGENCE_EXACT) {
        if (!run->exact_state || !run->exact_state(run->ctx, xref)) {
            fprintf(stderr, "nsdae converge: --reference exact: no closed-form solution is known for this "
                            "system and these parameters (use --reference finest or events)\n");
            status = 2;
            goto done;
        }
    } else if (ref == CONVERGENCE_EVENTS) {
        if (!run->events_state(run->ctx, xref)) goto done;
    } else {
        if (nruns < 3) {
            fprintf(stderr, "nsdae converge: --reference finest needs at least three step counts\n");
            status = 2;
            goto done;
        }
        nrows = nruns - 1;
        if (!run->final_state(run->ctx, steps[nruns - 1], xref)) goto done;
    }

    char events_ref[96];
    snprintf(events_ref, sizeof events_ref, "event-driven (IDA, rtol %g, atol %g)",
             ro->rtol > 0 ? ro->rtol : NSDAE_EVENTS_RTOL, ro->atol > 0 ? ro->atol : NSDAE_EVENTS_ATOL);
    printf("# %s, scheme %s, T = %.10g, reference: %s\n", ro->src.label, run->scheme, run->stop,
           ref == CONVERGENCE_EXACT ? "exact" : ref == CONVERGENCE_EVENTS ? events_ref : "finest run");
    if (ref == CONVERGENCE_FINEST) printf("# reference run: N = %ld\n", steps[nruns - 1]);
    printf("%14s %8s %14s %10s %8s\n", "h", "N", "error", "ratio", "order");
    for (int r = 0; r < nrows; r++) {
        if (!run->final_state(run->ctx, steps[r], x)) goto done;
        double sq = 0;
        for (int k = 0; k < nd; k++) sq += (x[k] - xref[k]) * (x[k] - xref[k]);
        h[r] = T / (double)steps[r];
        e[r] = sqrt(sq);
        printf("%14.6e %8ld %14.6e", h[r], steps[r], e[r]);
        if (r > 0 && e[r] > 0 && e[r - 1] > 0)
            printf(" %10.4f %8.3f\n", e[r - 1] / e[r], log(e[r - 1] / e[r]) / log(h[r - 1] / h[r]));
        else
            printf(" %10s %8s\n", "-", "-");
        fflush(stdout);
    }
    /* Errors at round-off carry no order: say the scheme is exact instead of fitting noise. */
    double scale = 0, worst = 0;
    for (int k = 0; k < nd; k++) scale = fmax(scale, fabs(xref[k]));
    for (int r = 0; r < nrows; r++) worst = fmax(worst, e[r]);
    int roundoff = worst <= NSDAE_TOL_ROUNDOFF_ERROR * (1.0 + scale);
    int used = 0;
    double order = roundoff ? NAN : nsdae_order_fit(h, e, nrows, &used);
    if (roundoff)
        printf("least-squares order: none: every error is at round-off level (max %.3g): the scheme is exact "
               "on these grids\n", worst);
    else if (isnan(order))
        printf("least-squares order: undefined (fewer than two nonzero errors)\n");
    else
        printf("least-squares order: %.4f (over %d runs%s)\n", order, used,
               used < nrows ? "; runs with zero error are left out" : "");
    status = 0;

    if (csv_path) {
        FILE *f = fopen(csv_path, "w");
        if (!f) {
            fprintf(stderr, "nsdae converge: --csv '%s': %s\n", csv_path, strerror(errno));
            status = 1;
        } else {
            fputs("h,N,error\n", f);
            for (int r = 0; r < nrows; r++) fprintf(f, "%.17g,%ld,%.17g\n", h[r], steps[r], e[r]);
            int failed = ferror(f) != 0;
            errno = 0;
            failed |= fclose(f) != 0;
            if (failed) {
                fprintf(stderr, "nsdae converge: --csv '%s': writing failed: %s\n", csv_path,
                        errno ? strerror(errno) : "stream error");
                status = 1;
            }
        }
    }
    if (plot_path && status == 0) {
        char title[256];
        if (roundoff)
            snprintf(title, sizeof title, "%s: error at T = %g (exact to round-off)",
                     ro->src.label, run->stop);
        else
            snprintf(title, sizeof title, "%s: error at T = %g (fitted order %.3f)",
                     ro->src.label, run->stop, order);
        if (!plot_loglog_error("converge", plot_path, title, h, e, nrows, order)) status = 1;
        else fprintf(stderr, "nsdae converge: plot written to %s\n", plot_path);
    }
done:
    free(steps); free(xref); free(x); free(h); free(e);
    return status;
}
