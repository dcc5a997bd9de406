/* Microseconds per Moreau-Jean step: nsdae against the same models written with the Siconos
 * kernel C++ API (siconos_peer/siconos_contact_peer.cpp: MoreauJeanOSI(0.5), NewtonImpactNSL,
 * LCP/Lemke, TimeStepping), run as a separate program. Both time their time loop only, over
 * enough repetitions to last about a second each. The final positions are compared too: the two
 * implement the same scheme, so they must agree to round-off.
 *
 *   OPENBLAS_NUM_THREADS=1 ./bench_contact [--budget SECONDS] [--peer PATH] [--no-peer]
 */
#include "examples/builtin_contact.h"
#include <nsdae/moreau.h>

#include "bench_clock.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct bench_model {
    const char *nsdae_name, *peer_name;
    double stop, step;
} bench_model;

static const bench_model models[] = {
    {"bouncing-ball", "ball", 10.0, 0.005},
    {"beads", "beads", 2.0, 0.001},
};

static void usage(const char *prog)
{
    printf("usage: %s [--budget SECONDS] [--peer PATH] [--no-peer]\n"
           "Microseconds per Moreau-Jean step for the bouncing ball (T = 10, h = 0.005) and the column\n"
           "of 10 beads (T = 2, h = 0.001), nsdae against the Siconos kernel C++ peer program\n"
           "(default: siconos_contact_peer next to this program). Run with OPENBLAS_NUM_THREADS=1.\n"
           "  --budget S   time each side for about S seconds (default 1)\n"
           "  --peer PATH  the peer program\n"
           "  --no-peer    nsdae only\n",
           prog);
}

/* nsdae: repeat whole runs until the budget is spent; returns microseconds per step. */
static double time_nsdae(const bench_model *m, double budget, double *q_final, int *ndof)
{
    nsdae_lagrangian *s = NULL;
    nsdae_error err = {0};
    if (nsdae_builtin_contact_create(m->nsdae_name, NULL, 0, &s, &err) != NSDAE_OK) {
        fprintf(stderr, "bench_contact: %s\n", err.message);
        return NAN;
    }
    nsdae_moreau_options o;
    nsdae_moreau_defaults(&o);
    o.theta = 0.5;
    o.stop = m->stop;
    o.nsteps = 0;
    o.step = m->step;
    long steps = 0;
    double elapsed = 0.0;
    while (elapsed < budget) {
        nsdae_moreau_summary sum;
        double t0 = bench_seconds();
        nsdae_status st = nsdae_moreau_run(s, &o, NULL, NULL, q_final, NULL, &sum, &err);
        elapsed += bench_seconds() - t0;
        if (st != NSDAE_OK) {
            fprintf(stderr, "bench_contact: %s\n", err.message);
            nsdae_lagrangian_destroy(s);
            return NAN;
        }
        steps += sum.steps;
    }
    *ndof = s->ndof;
    nsdae_lagrangian_destroy(s);
    return 1e6 * elapsed / (double)steps;
}

/* The peer: one call for a single run (to size the repetitions), then the timed call. */
static double run_peer(const char *peer, const bench_model *m, int repeats, double *q_final, int ndof,
                       double *seconds)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "'%s' %s %.17g %.17g %d", peer, m->peer_name, m->step, m->stop, repeats);
    FILE *p = popen(cmd, "r");
    if (!p) return NAN;
    char name[32];
    long steps = 0;
    int ok = fscanf(p, "%31s %ld %lf", name, &steps, seconds) == 3;
    for (int j = 0; ok && j < ndof; j++) ok = fscanf(p, "%lf", &q_final[j]) == 1;
    int rc = pclose(p);
    if (!ok || rc != 0 || steps <= 0) return NAN;
    return 1e6 * *seconds / (double)steps;
}

static double time_peer(const char *peer, const bench_model *m, double budget, double *q_final, int ndof)
{
    double seconds;
    if (access(peer, X_OK) != 0 || isnan(run_peer(peer, m, 1, q_final, ndof, &seconds))) return NAN;
    int repeats = seconds > 0.0 ? (int)fmin(10000.0, fmax(1.0, budget / seconds)) : 100;
    return run_peer(peer, m, repeats, q_final, ndof, &seconds);
}

/* siconos_contact_peer in the directory of this program. */
static void default_peer(const char *argv0, char *buf, size_t size)
{
    const char *slash = strrchr(argv0, '/');
    int dir = slash ? (int)(slash - argv0) : 1;
    snprintf(buf, size, "%.*s/siconos_contact_peer", dir, slash ? argv0 : ".");
}

int main(int argc, char **argv)
{
    double budget = 1.0;
    int use_peer = 1;
    char peer[1024];
    default_peer(argv[0], peer, sizeof peer);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(argv[0]);
            return 0;
        } else if (strcmp(argv[i], "--budget") == 0 && i + 1 < argc) {
            budget = atof(argv[++i]);
        } else if (strcmp(argv[i], "--peer") == 0 && i + 1 < argc) {
            snprintf(peer, sizeof peer, "%s", argv[++i]);
        } else if (strcmp(argv[i], "--no-peer") == 0) {
            use_peer = 0;
        } else {
            fprintf(stderr, "bench_contact: unknown argument '%s' (try --help)\n", argv[i]);
            return 2;
        }
    }
    if (!(budget > 0.0)) budget = 1.0;
    const char *threads = getenv("OPENBLAS_NUM_THREADS");
    printf("Moreau-Jean, theta = 1/2, microseconds per step (OPENBLAS_NUM_THREADS=%s)\n", threads ? threads : "unset");
    printf("%-14s %7s %14s %16s %9s %16s\n", "model", "steps", "nsdae us/step", "siconos us/step", "ratio",
           "max |dq| final");
    int worst = 0;
    for (size_t k = 0; k < sizeof models / sizeof models[0]; k++) {
        const bench_model *m = &models[k];
        double qn[64], qs[64];
        int ndof = 0;
        double tn = time_nsdae(m, budget, qn, &ndof);
        double ts = use_peer ? time_peer(peer, m, budget, qs, ndof) : NAN;
        double dq = 0.0;
        for (int j = 0; j < ndof; j++) dq = fmax(dq, fabs(qn[j] - qs[j]));
        long steps = (long)llround(m->stop / m->step);
        if (isnan(ts)) {
            printf("%-14s %7ld %14.3f %16s %9s %16s\n", m->nsdae_name, steps, tn, "-", "-", "-");
            worst = 1;
        } else {
            printf("%-14s %7ld %14.3f %16.3f %9.1f %16.2e\n", m->nsdae_name, steps, tn, ts, ts / tn, dq);
        }
    }
    if (use_peer && worst)
        printf("siconos peer unavailable at %s (built only with a C++ compiler and libsiconos-kernel-dev, and not in\n"
               "the sanitizer build)\n", peer);
    return 0;
}
