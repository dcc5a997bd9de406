/* Timing of the complementarity layer on seeded random LCP families:
 *   (a) P-matrices M = R R^T + m I + small skew part, q uniform in (-1, 1);
 *   (b) non-P matrices (half the diagonal negative) with several solutions, z_ref random.
 * Per m: median over instances of the full enumeration, the minimal-norm selection and
 * Siconos ENUM's first solution, plus the median number of branch-and-bound nodes.
 * Usage: OPENBLAS_NUM_THREADS=1 ./build/bench_lcp [--max-m M] [--reps R] [--budget S] */
#include <nsdae/lcp.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t rng_state;
static double urand(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return ((rng_state >> 11) * (1.0 / 9007199254740992.0)) * 2 - 1;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

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

enum { NEQ = 6 };   /* equality rows of family (c) */

/* family (c): NEQ equality rows with an SPD block, then m complementarity rows whose Schur
 * complement has negative diagonal entries: the stepper's shape, several solutions */
static void gen_mlcp(int m, double *M, double *q, double *zref, nsdae_row_kind *kind)
{
    int N = NEQ + m;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++)
            M[i + j * N] = 0.3 * urand();
    for (int i = 0; i < N; i++) {
        M[i + i * N] = i < NEQ ? 3.0 : (i % 2 ? -1.0 : 1.0);
        q[i] = i < NEQ ? urand() : (i % 2 ? 0.75 + 0.25 * urand() : urand());
        zref[i] = 0.5 * (urand() + 1);
        kind[i] = i < NEQ ? NSDAE_ROW_EQUALITY : NSDAE_ROW_COMPLEMENTARITY;
    }
}

static void gen(int family, int m, double *M, double *q, double *zref)
{
    if (family == 0) {
        double *R = malloc(sizeof(double) * m * m);
        for (int i = 0; i < m * m; i++)
            R[i] = urand();
        for (int i = 0; i < m; i++)
            for (int j = 0; j <= i; j++) {
                double v = 0;
                for (int l = 0; l < m; l++)
                    v += R[i + l * m] * R[j + l * m];
                double skew = 0.1 * urand();
                M[i + j * m] = v + (i == j) * m + (i == j ? 0 : skew);
                M[j + i * m] = v + (i == j) * m - (i == j ? 0 : skew);
            }
        free(R);
        for (int i = 0; i < m; i++)
            q[i] = urand(), zref[i] = 0;
    } else {
        /* diagonal +-1 (half negative) plus a small coupling. A row with -1 on the diagonal
         * and q_i in (0.5, 1) has two choices, z_i = 0 or z_i ~ q_i: up to 2^(m/2) solutions. */
        for (int j = 0; j < m; j++)
            for (int i = 0; i < m; i++)
                M[i + j * m] = i == j ? (i % 2 ? -1.0 : 1.0) : 0.2 * urand() / sqrt((double)m);
        for (int i = 0; i < m; i++) {
            q[i] = i % 2 ? 0.75 + 0.25 * urand() : urand();
            zref[i] = 0.5 * (urand() + 1);
        }
    }
}

/* seconds per call of f, repeated until at least 2 ms have passed */
typedef int (*bench_fn)(const nsdae_mlcp *p, const double *zref, long *nodes);

static double time_call(bench_fn f, const nsdae_mlcp *p, const double *zref, long *nodes, int *ok)
{
    int reps = 0;
    double t0 = now(), t;
    do {
        *ok = f(p, zref, nodes);
        reps++;
        t = now() - t0;
    } while (t < 2e-3 && reps < 100000);
    return t / reps;
}

static int run_enumerate(const nsdae_mlcp *p, const double *zref, long *nodes)
{
    (void)zref;
    (void)nodes;
    nsdae_lcp_solution_set *s = NULL;
    int ok = nsdae_lcp_enumerate(p, &s, NULL) == NSDAE_OK;
    nsdae_lcp_solution_set_free(s);
    return ok;
}

static int run_minnorm(const nsdae_mlcp *p, const double *zref, long *nodes)
{
    double z[80], w[80];
    nsdae_minnorm_spec spec = {.z_ref = zref};
    nsdae_minnorm_result r;
    nsdae_status st = nsdae_lcp_minnorm(p, &spec, z, w, &r, NULL);
    *nodes = r.nodes;
    return st == NSDAE_OK;
}

static int run_siconos_enum(const nsdae_mlcp *p, const double *zref, long *nodes)
{
    (void)zref;
    (void)nodes;
    double z[80], w[80];
    return nsdae_lcp_solve_siconos(p, "enum", z, w, NULL) == NSDAE_OK;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: bench_lcp [--max-m M] [--reps R] [--budget S]\n"
               "  --max-m M   largest number of complementarity rows (default 24, at most 40)\n"
               "  --reps R    random instances per m and family (default 9)\n"
               "  --budget S  a column stops (\"skipped\") once one m would take more than S seconds\n"
               "              (default 8)\n"
               "Run with OPENBLAS_NUM_THREADS=1. Times are medians over the instances, per call.\n");
}

int main(int argc, char **argv)
{
    int max_m = 24, reps = 9;
    double budget = 8;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "--max-m") && i + 1 < argc) {
            max_m = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
            reps = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--budget") && i + 1 < argc) {
            budget = atof(argv[++i]);
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (max_m < 1 || max_m > 40 || reps < 1 || reps > 1000 || !(budget > 0)) {
        usage(stderr);
        return 2;
    }
    const char *names[3] = {"(a) P-matrix family: M = R R^T + m I + skew, q in (-1,1), z_ref = 0",
                            "(b) non-P family: diag(+1,-1,...) + 0.2/sqrt(m) coupling, q_odd in (0.5,1), several solutions, z_ref in (0,1)",
                            "(c) stepper shape: MLCP with 6 equality rows (SPD block) + m complementarity rows as in (b), m <= 12"};
    bench_fn fns[3] = {run_enumerate, run_minnorm, run_siconos_enum};
    double *M = malloc(sizeof(double) * 48 * 48), *q = malloc(sizeof(double) * 48), *zref = malloc(sizeof(double) * 48);
    nsdae_row_kind kind[48];
    double *times[3], *nodes = malloc(sizeof(double) * reps);
    for (int c = 0; c < 3; c++)
        times[c] = malloc(sizeof(double) * reps);
    for (int family = 0; family < 3; family++) {
        printf("%s\n", names[family]);
        printf("%4s %16s %16s %16s %10s %8s\n", "m", "enumerate_all", "minnorm", "siconos_enum_1st", "nodes", "solved");
        int skip[3] = {0, 0, 0};
        double last[3] = {0, 0, 0};
        for (int m = 1; m <= (family == 2 && max_m > 12 ? 12 : max_m); m++) {
            /* a column is skipped when the previous m, doubled, would overrun the budget */
            for (int c = 0; c < 3; c++)
                if (last[c] * 2.5 * reps > budget || (c == 0 && m > 20))
                    skip[c] = 1;
            int solved = 0;
            for (int r = 0; r < reps; r++) {
                rng_state = 0x2545F4914F6CDD1DULL ^ ((uint64_t)(family * 1000 + m) << 20) ^ (uint64_t)(r + 1);
                for (int warm = 0; warm < 3; warm++)
                    urand();
                nsdae_mlcp p = {m, M, q, NULL, NULL, NULL};
                if (family < 2) {
                    gen(family, m, M, q, zref);
                } else {
                    gen_mlcp(m, M, q, zref, kind);
                    p.size = NEQ + m;
                    p.kind = kind;
                }
                for (int c = 0; c < 3; c++) {
                    if (skip[c])
                        continue;
                    long nd = 0;
                    int ok;
                    times[c][r] = time_call(fns[c], &p, zref, &nd, &ok);
                    if (c == 1) {
                        nodes[r] = (double)nd;
                        solved += ok;
                    }
                }
            }
            char cell[3][32];
            for (int c = 0; c < 3; c++) {
                if (skip[c]) {
                    snprintf(cell[c], sizeof cell[c], "skipped");
                    continue;
                }
                double t = median(times[c], reps);
                last[c] = t;
                if (t < 1e-3)
                    snprintf(cell[c], sizeof cell[c], "%.2f us", t * 1e6);
                else if (t < 1)
                    snprintf(cell[c], sizeof cell[c], "%.3f ms", t * 1e3);
                else
                    snprintf(cell[c], sizeof cell[c], "%.3f s", t);
            }
            printf("%4d %16s %16s %16s %10.0f %5d/%-3d\n", m, cell[0], cell[1], cell[2],
                   skip[1] ? NAN : median(nodes, reps), solved, reps);
            fflush(stdout);
        }
        printf("\n");
    }
    for (int c = 0; c < 3; c++)
        free(times[c]);
    free(nodes);
    free(M);
    free(q);
    free(zref);
    return 0;
}
