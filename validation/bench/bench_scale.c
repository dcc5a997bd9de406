/* Cost against size: bead columns (examples/bead_column.nsm, Moreau-Jean, theta = 1/2) and RC
 * ladders with a clamping diode per node (examples/diode_ladder.nsm, --scheme theta --theta 0.5
 * --gamma 0.5 --no-count),
 * nsdae against Siconos kernel C++ peers built in the same tree (siconos_peer/: the same models
 * in Siconos' own form, MoreauJeanOSI / EulerMoreauOSI with an LCP per step).
 *
 * Per size: whole process (the `nsdae simulate` command, parse + translate + run, writing only the
 * last CSV row; the peer program run once), loop-only microseconds per step (nsdae through the C
 * API, the peer timing its own time loop), the largest difference of the final states, and at the
 * end the exponent p of a least-squares fit of loop cost ~ N^p. Each figure is the least of up to
 * three runs (fewer past two seconds), for both sides. The ladder column "sparse" is the share of
 * nsdae's steps solved on the sparse path (KLU and pivoting, stepper.h); "cpu us/st" is nsdae's loop
 * in processor time (this process's), with its own fitted p: on a shared machine wall time adds
 * the share of the cores others take, more at the larger N whose runs span more time slices.
 *
 * Like for like on the ladders: the peer eliminates the series currents into its A, so they are
 * weighted theta there; nsdae keeps them as algebraic unknowns, which its theta scheme weights
 * like the multipliers, by gamma (stepper.h). With nsdae's default gamma = 1 they enter at t_k+1
 * and the final states differ by 1.0e-3 V at N = 10 (T = 2e-3; 1.7e-3 at T = 2e-2) whatever the
 * peer's gamma; with gamma = 1/2 on both sides (nsdae --gamma 0.5, EulerMoreauOSI(1/2, 1/2)) they
 * agree to 3e-15 (T = 2e-3) and 4e-14 (T = 2e-2, diodes switching both ways). --gamma-relation
 * (setUseGammaForRelation) is not the cause: with it the difference is 1.2e-3 to 4.7e-3.
 *
 *   OPENBLAS_NUM_THREADS=1 ./bench_scale [--beads N,N,...] [--ladders N,N,...] [--ladder-stop T]
 *                                        [--no-peer]
 * Defaults: beads 10,50,100,200,400,1000 (T = 2, h = 1e-3, the model's experiment); ladders
 * 10,40,160,320,1000 over T = 2e-3 (200 steps of h = 1e-5: node 1 clamps at 0.7 ms).
 */
#include <nsdae/model.h>
#include <nsdae/moreau.h>
#include <nsdae/stepper.h>
#include <nsdae/translate.h>
#include <nsdae/translate_lagrangian.h>

#include "bench_clock.h"
#include "bench_list.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXN 32

typedef struct paths {
    char nsdae[1024], contact_peer[1024], ladder_peer[1024], beads[1024], ladder[1024];
    int use_peer;
} paths;

typedef struct row {
    int n;
    long steps;
    double whole, loop_us;            /* nsdae */
    double cpu_us;                    /* nsdae's loop in processor time per step (the least run's) */
    double peer_whole, peer_loop_us;  /* Siconos */
    double dmax;                      /* max |final nsdae - final Siconos| */
    double sparse;                    /* share of nsdae's steps on the sparse path (ladders; NAN: none) */
} row;

static nsdae_model *load(const char *file, int n, nsdae_error *err)
{
    nsdae_model *m = NULL;
    if (nsdae_model_parse_file(file, &m, err) != NSDAE_OK) return NULL;
    if (nsdae_model_set_param(m, "N", n, err) != NSDAE_OK) {
        nsdae_model_destroy(m);
        return NULL;
    }
    return m;
}

/* Processor seconds of this process: on a shared machine the loop's own cost, which wall time
 * overstates by the share of the cores others take (2.5x at a load of 10 on 2 cores). */
static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The machine is shared: every figure is the least of up to RUNS runs (fewer once a side has spent
 * BUDGET seconds), the same rule for both sides. */
#define RUNS 3
#define BUDGET 2.0

/* Runs a command, returns its wall time (NAN on failure); its output into out. */
static double run_once(const char *cmd, char *out, size_t size)
{
    double t0 = bench_seconds();
    FILE *p = popen(cmd, "r");
    if (!p) return NAN;
    if (out && size) {
        out[0] = '\0';
        size_t used = 0;
        int ch;
        while ((ch = fgetc(p)) != EOF)
            if (used + 1 < size) out[used++] = (char)ch;
        out[used] = '\0';
    } else {
        while (fgetc(p) != EOF) {}
    }
    int rc = pclose(p);
    double t = bench_seconds() - t0;
    return rc == 0 ? t : NAN;
}

/* The least wall time of up to RUNS runs; out keeps the output of the fastest. */
static double run_command(const char *cmd, char *out, size_t size)
{
    double best = NAN, spent = 0.0;
    char *tmp = out ? malloc(size) : NULL;
    for (int k = 0; k < RUNS && spent < BUDGET; k++) {
        double t = run_once(cmd, tmp, tmp ? size : 0);
        if (!isfinite(t)) return NAN;
        spent += t;
        if (!(t >= best)) {
            best = t;
            if (out) memcpy(out, tmp, size);
        }
    }
    free(tmp);
    return best;
}

/* "NAME steps seconds x_1 ... x_n" from a peer: loop us/step, the final state into x. */
static double parse_peer(const char *text, int n, double *x, long *steps)
{
    char name[32];
    double seconds;
    int used = 0;
    if (sscanf(text, "%31s %ld %lf%n", name, steps, &seconds, &used) != 3 || *steps <= 0) return NAN;
    const char *s = text + used;
    for (int j = 0; j < n; j++) {
        char *end;
        x[j] = strtod(s, &end);
        if (end == s) return NAN;
        s = end;
    }
    return 1e6 * seconds / (double)*steps;
}

static void bead_row(const paths *P, row *r)
{
    nsdae_error err = {0};
    char cmd[4096], out[1 << 16];
    snprintf(cmd, sizeof cmd, "'%s' simulate '%s' --param N=%d --every 100000000 --out /dev/null 2>/dev/null",
             P->nsdae, P->beads, r->n);
    r->whole = run_command(cmd, NULL, 0);
    nsdae_model *m = load(P->beads, r->n, &err);
    nsdae_lagrangian *s = NULL;
    double *q = malloc((size_t)r->n * sizeof *q), *qs = malloc((size_t)r->n * sizeof *qs);
    r->loop_us = r->peer_loop_us = r->peer_whole = r->dmax = NAN;
    if (m && q && qs && nsdae_translate_lagrangian(m, &s, &err) == NSDAE_OK) {
        nsdae_moreau_options o;
        nsdae_moreau_defaults(&o);
        o.theta = 0.5;
        o.stop = 2.0;
        o.nsteps = 0;
        o.step = 1e-3;
        nsdae_moreau_summary sum;
        double spent = 0.0;
        for (int k = 0; k < RUNS && spent < BUDGET; k++) {
            double t0 = bench_seconds();
            if (nsdae_moreau_run(s, &o, NULL, NULL, q, NULL, &sum, &err) != NSDAE_OK) break;
            double t = bench_seconds() - t0, us = 1e6 * t / (double)sum.steps;
            spent += t;
            if (!(us >= r->loop_us)) r->loop_us = us;
            r->steps = sum.steps;
        }
    }
    if (!isfinite(r->loop_us)) fprintf(stderr, "bench_scale: beads N = %d: %s\n", r->n, err.message);
    if (P->use_peer) {
        snprintf(cmd, sizeof cmd, "'%s' beads:%d 0.001 2 1", P->contact_peer, r->n);
        r->peer_whole = run_command(cmd, out, sizeof out);
        long steps;
        r->peer_loop_us = isfinite(r->peer_whole) ? parse_peer(out, r->n, qs, &steps) : NAN;
        r->dmax = 0.0;
        for (int j = 0; j < r->n; j++) r->dmax = fmax(r->dmax, fabs(q[j] - qs[j]));
    }
    nsdae_lagrangian_destroy(s);
    nsdae_model_destroy(m);
    free(q);
    free(qs);
}

/* v[1..N] of the ladder in the stepper's y. */
static void ladder_state(const nsdae_mlcs *s, const double *y, int n, double *v)
{
    char name[32];
    for (int k = 0; k < n; k++) {
        v[k] = NAN;
        snprintf(name, sizeof name, "v[%d]", k + 1);
        for (int i = 0; i < s->ny; i++)
            if (s->y_names[i] && strcmp(s->y_names[i], name) == 0) v[k] = y[i];
    }
}

static void ladder_row(const paths *P, double stop, row *r)
{
    nsdae_error err = {0};
    char cmd[4096], out[1 << 16];
    snprintf(cmd, sizeof cmd,
             "'%s' simulate '%s' --param N=%d --scheme theta --theta 0.5 --gamma 0.5 --no-count --stop %.17g "
             "--every 100000000 "
             "--out /dev/null 2>/dev/null", P->nsdae, P->ladder, r->n, stop);
    r->whole = run_command(cmd, NULL, 0);
    nsdae_model *m = load(P->ladder, r->n, &err);
    nsdae_mlcs *s = NULL;
    double *v = malloc((size_t)r->n * sizeof *v), *vs = malloc((size_t)r->n * sizeof *vs), *y = NULL;
    r->loop_us = r->cpu_us = r->peer_loop_us = r->peer_whole = r->dmax = NAN;
    /* above NSDAE_TRANSLATE_DENSE_AT_ONCE unknowns the translation leaves the matrices compressed,
     * and the stepper reads them so (its dense path makes the dense ones if it is needed), as
     * `nsdae simulate` runs it */
    if (m && v && vs && nsdae_translate_mlcs(m, &s, NULL, &err) == NSDAE_OK &&
        (y = malloc((size_t)s->ny * sizeof *y))) {
        nsdae_stepper_options o;
        nsdae_stepper_defaults(&o);
        o.scheme = NSDAE_SCHEME_THETA;
        o.theta = 0.5;
        o.gamma = 0.5; /* like the peer's EulerMoreauOSI(1/2, 1/2): see the header */
        o.stop = stop;
        o.nsteps = 0;
        o.step = 1e-5;
        o.count_solutions = 0; /* as Siconos: one solution per step, not how many there are */
        nsdae_stepper_summary sum;
        double spent = 0.0;
        for (int k = 0; k < RUNS && spent < BUDGET; k++) {
            double t0 = bench_seconds(), c0 = cpu_seconds();
            if (nsdae_stepper_run(s, &o, NULL, NULL, y, &sum, &err) != NSDAE_OK) break;
            double t = bench_seconds() - t0, us = 1e6 * t / (double)sum.steps;
            double cus = 1e6 * (cpu_seconds() - c0) / (double)sum.steps;
            spent += t;
            if (!(us >= r->loop_us)) r->loop_us = us;
            if (!(cus >= r->cpu_us)) r->cpu_us = cus;
            r->steps = sum.steps;
            r->sparse = (double)sum.sparse / (double)sum.steps;
            ladder_state(s, y, r->n, v);
        }
    }
    if (!isfinite(r->loop_us)) fprintf(stderr, "bench_scale: ladder N = %d: %s\n", r->n, err.message);
    if (P->use_peer) {
        snprintf(cmd, sizeof cmd, "'%s' %d 0.5 1e-5 %.17g 1 0.5", P->ladder_peer, r->n, stop);
        r->peer_whole = run_command(cmd, out, sizeof out);
        long steps;
        r->peer_loop_us = isfinite(r->peer_whole) ? parse_peer(out, r->n, vs, &steps) : NAN;
        r->dmax = 0.0;
        for (int j = 0; j < r->n; j++) r->dmax = fmax(r->dmax, fabs(v[j] - vs[j]));
    }
    nsdae_mlcs_destroy(s);
    nsdae_model_destroy(m);
    free(v);
    free(vs);
    free(y);
}

/* Least-squares slope of log(cost) against log(N) over the finite entries; which: 0 nsdae's loop,
 * 1 the peer's, 2 nsdae's loop in processor time. */
static double exponent(const row *r, int count, int which)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int k = 0;
    for (int i = 0; i < count; i++) {
        double c = which == 1 ? r[i].peer_loop_us : which == 2 ? r[i].cpu_us : r[i].loop_us;
        if (!(c > 0.0)) continue;
        double x = log((double)r[i].n), y = log(c);
        sx += x; sy += y; sxx += x * x; sxy += x * y;
        k++;
    }
    return k >= 2 ? (k * sxy - sx * sy) / (k * sxx - sx * sx) : NAN;
}

/* A row as soon as it is measured: the tables come at the end of a family, and Siconos' cubic
 * ladder peer alone takes over 20 minutes at N = 1000 */
static void progress(const char *family, const row *r)
{
    fprintf(stderr, "bench_scale: %s N = %d: nsdae %.3f s whole, %.1f us/step; siconos %.3f s whole, %.1f us/step\n",
            family, r->n, r->whole, r->loop_us, r->peer_whole, r->peer_loop_us);
}

static void print_table(const char *title, const row *r, int count)
{
    printf("\n%s\n%6s %6s %10s %10s %12s %12s %8s %8s %10s %7s %10s\n", title, "N", "steps", "nsdae s", "siconos s",
           "nsdae us/st", "siconos us/st", "x whole", "x loop", "max |d|", "sparse", "cpu us/st");
    for (int i = 0; i < count; i++)
        printf("%6d %6ld %10.3f %10.3f %12.1f %12.1f %8.2f %8.2f %10.2e %7.2f %10.1f\n", r[i].n, r[i].steps, r[i].whole,
               r[i].peer_whole, r[i].loop_us, r[i].peer_loop_us, r[i].peer_whole / r[i].whole,
               r[i].peer_loop_us / r[i].loop_us, r[i].dmax, r[i].sparse, r[i].cpu_us);
    printf("fitted exponent p (loop cost ~ N^p): nsdae %.2f, siconos %.2f; nsdae in processor time %.2f\n",
           exponent(r, count, 0), exponent(r, count, 1), exponent(r, count, 2));
}

static void sibling(const char *argv0, const char *name, char *buf, size_t size)
{
    const char *slash = strrchr(argv0, '/');
    int dir = slash ? (int)(slash - argv0) : 1;
    snprintf(buf, size, "%.*s/%s", dir, slash ? argv0 : ".", name);
}

int main(int argc, char **argv)
{
    int beads[MAXN] = {10, 50, 100, 200, 400, 1000}, nb = 6;
    int ladders[MAXN] = {10, 40, 160, 320, 1000}, nl = 5;
    double ladder_stop = 2e-3;
    paths P;
    P.use_peer = 1;
    sibling(argv[0], "nsdae", P.nsdae, sizeof P.nsdae);
    sibling(argv[0], "siconos_contact_peer", P.contact_peer, sizeof P.contact_peer);
    sibling(argv[0], "siconos_ladder_peer", P.ladder_peer, sizeof P.ladder_peer);
    snprintf(P.beads, sizeof P.beads, "%s/examples/bead_column.nsm", NSDAE_SOURCE_DIR);
    snprintf(P.ladder, sizeof P.ladder, "%s/examples/diode_ladder.nsm", NSDAE_SOURCE_DIR);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--beads") == 0 && i + 1 < argc) nb = bench_parse_list(argv[++i], beads, MAXN);
        else if (strcmp(argv[i], "--ladders") == 0 && i + 1 < argc) nl = bench_parse_list(argv[++i], ladders, MAXN);
        else if (strcmp(argv[i], "--ladder-stop") == 0 && i + 1 < argc) ladder_stop = atof(argv[++i]);
        else if (strcmp(argv[i], "--no-peer") == 0) P.use_peer = 0;
        else {
            printf("usage: %s [--beads N,N,...] [--ladders N,N,...] [--ladder-stop T] [--no-peer]\n"
                   "(an empty list, --beads '', skips that family)\n", argv[0]);
            return strcmp(argv[i], "--help") == 0 ? 0 : 2;
        }
        if (nb < 0 || nl < 0) {
            fprintf(stderr, "bench_scale: bad size list\n");
            return 2;
        }
    }
    if (P.use_peer && (access(P.contact_peer, X_OK) != 0 || access(P.ladder_peer, X_OK) != 0)) {
        printf("Siconos peers not found next to this program (built with a C++ compiler and libsiconos-kernel-dev)\n");
        P.use_peer = 0;
    }
    const char *threads = getenv("OPENBLAS_NUM_THREADS");
    printf("bench_scale (OPENBLAS_NUM_THREADS=%s); s: whole process seconds, us/st: loop microseconds per step,\n"
           "x: Siconos time / nsdae time, max |d|: largest difference of the final states\n",
           threads ? threads : "unset");
    row rb[MAXN], rl[MAXN];
    for (int i = 0; i < nb; i++) {
        rb[i] = (row){.n = beads[i], .sparse = NAN, .cpu_us = NAN};
        bead_row(&P, &rb[i]);
        progress("beads", &rb[i]);
    }
    if (nb) print_table("bead columns, Moreau-Jean theta = 1/2, T = 2, h = 1e-3 (max |d| over positions)", rb, nb);
    fflush(stdout);
    for (int i = 0; i < nl; i++) {
        rl[i] = (row){.n = ladders[i], .sparse = NAN, .cpu_us = NAN};
        ladder_row(&P, ladder_stop, &rl[i]);
        progress("ladder", &rl[i]);
    }
    if (nl) {
        char title[200];
        snprintf(title, sizeof title, "RC-diode ladders, theta = gamma = 1/2, h = 1e-5, T = %g (max |d| over node voltages)",
                 ladder_stop);
        print_table(title, rl, nl);
    }
    return 0;
}
