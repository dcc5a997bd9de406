/* Cost of the Lagrangian (contact) front end against the model size (issue 12, Must work 3 and 4):
 * bead columns of N beads (examples/bead_column.nsm with --param N), per N:
 *   parse      nsdae_model_parse_file + nsdae_model_set_param("N") (the arrays expanded to N)
 *   translate  nsdae_translate_lagrangian (classification, equations of motion, checks, tapes)
 *   setup      what a Moreau-Jean run evaluates once: the values of M's and G's structural
 *              nonzeros (mass_values, gap_jacobian_values: the bead column's M is constant and
 *              its gaps are linear). Before M had a pattern (lagrangian.h, mass_colptr) the mass
 *              callback filled an ndof x ndof array, 128 MB at N = 4000 and most of the peak
 *              memory past N = 2000
 *   G nnz      the structural nonzeros of G the translation found (2N - 1 for a column)
 *   M nnz      those of M's lower triangle (N for a column: M = m I)
 * and the peak resident memory of the process after each size (getrusage: it only grows, so a
 * row's figure is the largest N so far). Then the exponent p of a least-squares fit time ~ N^p
 * of each stage over the rows (p = 1: linear).
 * Usage: OPENBLAS_NUM_THREADS=1 ./build/bench_lag_size [--beads N,N,...]   (default 100,200,400,1000,2000,4000) */
#include "bench_clock.h"
#include "bench_fit.h"

#include <nsdae/lagrangian.h>
#include <nsdae/model.h>
#include <nsdae/translate_lagrangian.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

enum { MAX_ROWS = 32 };

static double peak_mb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0;
}

/* One size: the three stage times into t[0..2], M's nnz into *m_nnz, G's nnz returned (-1 on failure). */
static int one_size(const char *file, int n, double t[3], int *m_nnz)
{
    nsdae_error err = {0};
    nsdae_model *m = NULL;
    nsdae_lagrangian *s = NULL;
    double *mv = NULL, *gv = NULL;
    int nnz = -1;
    double t0 = bench_seconds();
    if (nsdae_model_parse_file(file, &m, &err) != NSDAE_OK || nsdae_model_set_param(m, "N", n, &err) != NSDAE_OK)
        goto done;
    double t1 = bench_seconds();
    if (nsdae_translate_lagrangian(m, &s, &err) != NSDAE_OK) goto done;
    double t2 = bench_seconds();
    *m_nnz = s->mass_colptr ? s->mass_colptr[s->ndof] : s->ndof * s->ndof;
    mv = malloc(((size_t)*m_nnz + 1) * sizeof *mv);
    int g_nnz = s->gap_rowptr ? s->gap_rowptr[s->ncontacts] : 0;
    gv = malloc(((size_t)g_nnz + 1) * sizeof *gv);
    if (!mv || !gv || (s->mass_values ? s->mass_values(s->q0, mv, s->ctx) : s->mass(s->q0, mv, s->ctx)) != 0 ||
        (s->gap_jacobian_values && s->gap_jacobian_values(s->q0, gv, s->ctx) != 0)) {
        snprintf(err.message, sizeof err.message, "setup failed");
        goto done;
    }
    double t3 = bench_seconds();
    t[0] = t1 - t0;
    t[1] = t2 - t1;
    t[2] = t3 - t2;
    nnz = g_nnz;
done:
    if (nnz < 0) fprintf(stderr, "bench_lag_size: N = %d: %s\n", n, err.message);
    free(mv);
    free(gv);
    nsdae_lagrangian_destroy(s);
    nsdae_model_destroy(m);
    return nnz;
}

int main(int argc, char **argv)
{
    int ns[MAX_ROWS] = {100, 200, 400, 1000, 2000, 4000}, rows = 6;
    for (int i = 1; i + 1 < argc; i += 2)
        if (!strcmp(argv[i], "--beads")) {
            rows = 0;
            for (char *p = argv[i + 1]; *p && rows < MAX_ROWS; p += *p == ',') ns[rows++] = (int)strtol(p, &p, 10);
        }
    char file[1024];
    snprintf(file, sizeof file, "%s/examples/bead_column.nsm", NSDAE_SOURCE_DIR);
    double tp[MAX_ROWS], tt[MAX_ROWS], ts[MAX_ROWS];
    printf("%8s %10s %12s %10s %10s %10s %10s\n", "N", "parse s", "translate s", "setup s", "G nnz", "M nnz",
           "peak MB");
    for (int r = 0; r < rows; r++) {
        double t[3];
        int m_nnz = 0, nnz = one_size(file, ns[r], t, &m_nnz);
        if (nnz < 0) return 1;
        tp[r] = t[0];
        tt[r] = t[1];
        ts[r] = t[2];
        printf("%8d %10.3f %12.3f %10.3f %10d %10d %10.1f\n", ns[r], t[0], t[1], t[2], nnz, m_nnz, peak_mb());
        fflush(stdout);
    }
    printf("fitted exponent p (time ~ N^p over the rows): parse %.2f, translate %.2f, setup %.2f\n",
           fitted_exponent(ns, tp, rows), fitted_exponent(ns, tt, rows), fitted_exponent(ns, ts, rows));
    return 0;
}
