/* Microseconds per step of the minimal-norm implicit Euler on Rocca et al.'s two cases, beside the
 * approach of the paper's published code: every solution of each step's LCP by restarting
 * Siconos' LCP ENUM from every seed, then the one nearest to the previous state.
 * usage: OPENBLAS_NUM_THREADS=1 bench_stepper [--steps N] [--reps R] */
#include "examples/builtin.h"
#include <nsdae/lcp.h>
#include <nsdae/step_problem.h>
#include <nsdae/stepper.h>

#include "bench_clock.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* One run of the paper's approach; returns 0 on failure. x_end gets (x1, x2). */
static int run_paper(const nsdae_mlcs *s, long n, double T, double *x_end)
{
    nsdae_step_problem *sp = NULL;
    nsdae_error err = {0};
    if (nsdae_step_problem_create(s, &sp, &err) != NSDAE_OK) return 0;
    double y[3];
    memcpy(y, s->y0, sizeof y);
    double h = T / (double)n;
    int ok = 1;
    for (long k = 0; k < n && ok; k++) {
        const nsdae_mlcp *step = nsdae_step_problem_build(sp, (double)k * h, h, 1.0, 1.0, y, NULL);
        nsdae_lcp_solution_set *set = NULL;
        if (nsdae_lcp_enumerate_siconos_restart(step, &set, &err) != NSDAE_OK || set->count == 0) {
            fprintf(stderr, "bench_stepper: paper approach failed at step %ld: %s\n", k, err.message);
            ok = 0;
        } else {
            int best = 0;
            double best_d = INFINITY;
            for (int i = 0; i < set->count; i++) {
                const double *z = set->pieces[i].z;
                double d = (z[0] - y[0]) * (z[0] - y[0]) + (z[1] - y[1]) * (z[1] - y[1]);
                if (d < best_d) best_d = d, best = i;
            }
            memcpy(y, set->pieces[best].z, sizeof y);
        }
        nsdae_lcp_solution_set_free(set);
    }
    nsdae_step_problem_destroy(sp);
    x_end[0] = y[0];
    x_end[1] = y[1];
    return ok;
}

static int run_nsdae(const nsdae_mlcs *s, long n, double T, int count, double *x_end)
{
    nsdae_stepper_options o;
    nsdae_stepper_defaults(&o);
    o.stop = T;
    o.nsteps = n;
    o.count_solutions = count;
    double y[3];
    nsdae_error err = {0};
    if (nsdae_stepper_run(s, &o, NULL, NULL, y, NULL, &err) != NSDAE_OK) {
        fprintf(stderr, "bench_stepper: nsdae run failed: %s\n", err.message);
        return 0;
    }
    x_end[0] = y[0];
    x_end[1] = y[1];
    return 1;
}

int main(int argc, char **argv)
{
    long n = 10000;
    int reps = 5;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0) {
            puts("usage: OPENBLAS_NUM_THREADS=1 bench_stepper [--steps N] [--reps R]\n"
                 "Median microseconds per step (T = 10, h = T/N) of the minimal-norm implicit Euler\n"
                 "(with and without counting every step's solutions) and of the paper's approach.");
            return 0;
        } else if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc) {
            n = atol(argv[++i]);
        } else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
            reps = atoi(argv[++i]);
        } else {
            fprintf(stderr, "bench_stepper: unknown or incomplete option '%s'\n", argv[i]);
            return 2;
        }
    }
    if (n < 1 || reps < 1 || reps > 1000) {
        fprintf(stderr, "bench_stepper: --steps must be >= 1 and --reps in [1, 1000]\n");
        return 2;
    }
    const char *cases[] = {"rocca-crossing", "rocca-repulsive"};
    printf("Rocca et al., T = 10, N = %ld steps, median of %d runs, microseconds per step\n", n, reps);
    printf("%-16s %14s %14s %14s %10s %10s  %s\n", "case", "minnorm", "minnorm+count", "paper(ENUM)",
           "ratio", "ratio+cnt", "x(T): nsdae | paper");
    for (int c = 0; c < 2; c++) {
        nsdae_mlcs *s = NULL;
        if (nsdae_builtin_create(cases[c], NULL, 0, &s, NULL) != NSDAE_OK) return 1;
        double *t_mn = calloc((size_t)reps, sizeof(double)), *t_cnt = calloc((size_t)reps, sizeof(double)),
               *t_pp = calloc((size_t)reps, sizeof(double));
        double xa[2] = {0}, xb[2] = {0};
        int ok = t_mn && t_cnt && t_pp;
        for (int r = 0; ok && r < reps; r++) {
            double t0 = bench_seconds();
            ok = run_nsdae(s, n, 10.0, 0, xa);
            double t1 = bench_seconds();
            ok = ok && run_nsdae(s, n, 10.0, 1, xa);
            double t2 = bench_seconds();
            ok = ok && run_paper(s, n, 10.0, xb);
            double t3 = bench_seconds();
            t_mn[r] = (t1 - t0) / (double)n * 1e6;
            t_cnt[r] = (t2 - t1) / (double)n * 1e6;
            t_pp[r] = (t3 - t2) / (double)n * 1e6;
        }
        if (ok) {
            double a = median(t_mn, reps), b = median(t_cnt, reps), p = median(t_pp, reps);
            printf("%-16s %14.3f %14.3f %14.3f %10.2f %10.2f  (%.12g, %.12g) | (%.12g, %.12g)\n", cases[c], a, b, p,
                   p / a, p / b, xa[0], xa[1], xb[0], xb[1]);
        }
        free(t_mn); free(t_cnt); free(t_pp);
        nsdae_mlcs_destroy(s);
        if (!ok) return 1;
    }
    puts("ratio = paper / minnorm (higher is better for nsdae).");
    return 0;
}
