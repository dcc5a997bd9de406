/* The sparse step path (src/stepping/sparse_step.h) against independent computations:
 *  - every example the MLCS stepper runs, and the diode ladder at small N, both schemes and
 *    --gamma-relation: the same trajectory as the dense path (the whole step MLCP through
 *    nsdae_lcp_minnorm, the reference) to 1e-12 relative;
 *  - 2000 decoupled x_i' = -a_i x_i: implicit Euler's x_i(0) (1 + a_i h)^-n exactly, and the
 *    theta-method's ((1 - (1 - th) a_i h) / (1 + th a_i h))^n;
 *  - its step matrix, right-hand side, per-row acceptance and residual entry by entry against
 *    the dense step MLCP (step_mlcp.c) and nsdae_mlcp_row_violation (lcp/violation.c). */
#include <criterion/criterion.h>

#include <nsdae/lcp.h>
#include <nsdae/model.h>
#include <nsdae/stepper.h>
#include <nsdae/tolerances.h>
#include <nsdae/translate.h>

#include "stepping/sparse_lcp.h"
#include "stepping/step_mlcp.h"

#include <dirent.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXAMPLES NSDAE_SOURCE_DIR "/examples/"

typedef struct traj {
    int ny;
    long n, cap;
    double *y;   /* n rows of ny */
} traj;

static int record(const nsdae_step_record *rec, void *ctx)
{
    traj *t = ctx;
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 256;
        t->y = realloc(t->y, (size_t)t->cap * (size_t)t->ny * sizeof *t->y);
        cr_assert_not_null(t->y);
    }
    memcpy(t->y + (size_t)t->n++ * (size_t)t->ny, rec->y, (size_t)t->ny * sizeof *t->y);
    return 0;
}

static nsdae_mlcs *translate(const char *path, const char *param, double value)
{
    nsdae_model *m = NULL;
    nsdae_mlcs *s = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_model_parse_file(path, &m, &err), NSDAE_OK, "%s: %s", path, err.message);
    if (param) cr_assert_eq(nsdae_model_set_param(m, param, value, &err), NSDAE_OK, "%s", err.message);
    if (nsdae_translate_mlcs(m, &s, NULL, &err) != NSDAE_OK) s = NULL; /* a contact model: Moreau-Jean's */
    nsdae_model_destroy(m);
    return s;
}

/* Runs s with o under one solver; returns the steps solved sparse (-1: the run failed). */
static long run(const nsdae_mlcs *s, nsdae_stepper_options o, nsdae_step_solver solver, traj *t)
{
    o.solver = solver;
    t->ny = s->ny;
    t->n = 0;
    nsdae_stepper_summary sum;
    nsdae_error err = {0};
    nsdae_status st = nsdae_stepper_run(s, &o, record, t, NULL, &sum, &err);
    return st == NSDAE_OK ? sum.sparse : -1;
}

/* max over steps and unknowns of |a - b| / (1 + max |b| of that unknown) */
static double difference(const traj *a, const traj *b)
{
    cr_assert_eq(a->n, b->n);
    double worst = 0.0;
    for (int j = 0; j < a->ny; j++) {
        double scale = 1.0;
        for (long k = 0; k < b->n; k++) scale = fmax(scale, fabs(b->y[(size_t)k * b->ny + j]));
        for (long k = 0; k < a->n; k++)
            worst = fmax(worst, fabs(a->y[(size_t)k * a->ny + j] - b->y[(size_t)k * b->ny + j]) / scale);
    }
    return worst;
}

/* Sparse (auto) against dense on s with o; returns the steps solved sparse. */
static long compare(const char *what, const nsdae_mlcs *s, const nsdae_stepper_options *o)
{
    traj dense = {0}, sparse = {0};
    long d = run(s, *o, NSDAE_STEP_SOLVER_DENSE, &dense);
    long sp = run(s, *o, NSDAE_STEP_SOLVER_AUTO, &sparse);
    cr_assert_eq(d == -1, sp == -1, "%s: one path failed, not the other", what);
    cr_expect_eq(d, 0, "%s: the dense path solved steps sparse", what);
    if (d != -1) {
        double diff = difference(&sparse, &dense);
        cr_expect_leq(diff, 1e-12, "%s: sparse and dense differ by %.3g (%ld sparse steps)", what, diff, sp);
    }
    free(dense.y);
    free(sparse.y);
    return sp;
}

Test(sparse_step, every_mlcs_example_as_dense)
{
    DIR *dir = opendir(EXAMPLES);
    cr_assert_not_null(dir);
    long sparse_steps = 0;
    int examples = 0;
    for (struct dirent *e; (e = readdir(dir));) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".nsm")) continue;
        char path[512];
        snprintf(path, sizeof path, "%s%s", EXAMPLES, e->d_name);
        nsdae_mlcs *s = translate(path, NULL, 0);
        if (!s) continue;
        nsdae_stepper_options o;
        cr_assert_eq(nsdae_stepper_options_for(s, &o, NULL), NSDAE_OK);
        double h = 0;
        long n = nsdae_stepper_steps(&o, &h);
        if (n > 300) o.stop = o.t0 + 300 * h; /* the first 300 steps: switches happen early in every example */
        for (int variant = 0; variant < 3; variant++) {
            nsdae_stepper_options v = o;
            if (variant >= 1 && v.scheme != NSDAE_SCHEME_EULER) {
                v.scheme = NSDAE_SCHEME_THETA;
                v.theta = 0.5;
                v.gamma = 0.5;
                v.gamma_relation = variant == 2;
            } else if (variant >= 1) {
                continue;
            }
            char what[600];
            snprintf(what, sizeof what, "%s variant %d", e->d_name, variant);
            sparse_steps += compare(what, s, &v);
        }
        examples++;
        nsdae_mlcs_destroy(s);
    }
    closedir(dir);
    cr_expect_geq(examples, 8, "MLCS examples found: %d", examples);
    cr_expect_gt(sparse_steps, 1000, "the sparse path ran on the examples (%ld steps)", sparse_steps);
}

Test(sparse_step, diode_ladder_small_n_as_dense)
{
    for (int N = 1; N <= 6; N += 5) {
        nsdae_mlcs *s = translate(EXAMPLES "diode_ladder.nsm", "N", N);
        cr_assert_not_null(s);
        nsdae_stepper_options o;
        cr_assert_eq(nsdae_stepper_options_for(s, &o, NULL), NSDAE_OK);
        o.stop = 0.03; /* 3000 steps, one and a half periods: every diode of node 1 switches */
        /* variant 3: plain Euler, whose dense path is Siconos ENUM's first solution */
        for (int variant = 0; variant < 4; variant++) {
            nsdae_stepper_options v = o;
            if (variant == 3) {
                v.scheme = NSDAE_SCHEME_EULER;
            } else if (variant) {
                v.scheme = NSDAE_SCHEME_THETA;
                v.gamma = 0.5;
                v.gamma_relation = variant == 2;
            }
            char what[64];
            snprintf(what, sizeof what, "ladder N = %d variant %d", N, variant);
            long sp = compare(what, s, &v);
            cr_expect_eq(sp, 3000, "%s: every step sparse (%ld)", what, sp);
        }
        nsdae_mlcs_destroy(s);
    }
}

/* x_i' = -a_i x_i, a_i = 1 + i/100, x_i(0) = 1 + i/1000 */
Test(sparse_step, decoupled_closed_form)
{
    const int ny = 2000, steps = 40;
    const double h = 0.01;
    nsdae_mlcs *s = NULL;
    cr_assert_eq(nsdae_mlcs_create(ny, 0, 1, &s, NULL), NSDAE_OK);
    for (int i = 0; i < ny; i++) {
        s->phases[0].E[i + (size_t)i * ny] = 1.0;
        s->phases[0].A[i + (size_t)i * ny] = -(1.0 + i / 100.0);
        s->y0[i] = 1.0 + i / 1000.0;
    }
    const double thetas[] = {1.0, 0.5, 0.75};
    for (int t = 0; t < 3; t++) {
        const double th = thetas[t];
        nsdae_stepper_options o;
        nsdae_stepper_defaults(&o);
        o.scheme = th == 1.0 ? NSDAE_SCHEME_MINNORM : NSDAE_SCHEME_THETA;
        o.theta = th;
        o.stop = steps * h;
        o.nsteps = steps;
        o.solver = NSDAE_STEP_SOLVER_SPARSE;
        double *y = calloc((size_t)ny, sizeof *y);
        nsdae_stepper_summary sum;
        nsdae_error err = {0};
        cr_assert_eq(nsdae_stepper_run(s, &o, NULL, NULL, y, &sum, &err), NSDAE_OK, "%s", err.message);
        cr_expect_eq(sum.sparse, steps);
        double worst = 0.0;
        for (int i = 0; i < ny; i++) {
            double a = 1.0 + i / 100.0, g = (1.0 - (1.0 - th) * a * h) / (1.0 + th * a * h);
            double exact = (1.0 + i / 1000.0) * pow(g, steps);
            worst = fmax(worst, fabs(y[i] - exact) / fabs(exact));
        }
        cr_expect_leq(worst, 1e-12, "theta %g: worst relative error %.3g", th, worst);
        free(y);
    }
    nsdae_mlcs_destroy(s);
}

/* The ladder's step: M and q entry by entry, the per-row check and the residual at the solution
 * and at a perturbed point, against the dense step MLCP and the complementarity layer's check. */
Test(sparse_step, step_matrix_and_check_as_dense)
{
    nsdae_mlcs *s = translate(EXAMPLES "diode_ladder.nsm", "N", 4);
    cr_assert_not_null(s);
    const int n = s->ny + s->nl;
    double *y0 = calloc((size_t)s->ny, sizeof *y0), *l0 = calloc((size_t)s->nl, sizeof *l0);
    double *z = calloc((size_t)n, sizeof *z), *w = calloc((size_t)n, sizeof *w);
    for (int j = 0; j < s->ny; j++) y0[j] = 0.3 + 0.7 * j; /* node 1 and beyond above E: diodes conduct */
    for (int j = 0; j < s->nl; j++) l0[j] = 0.01 * j;
    for (int gr = 0; gr < 2; gr++) {
        sparse_step ss;
        step_mlcp sm;
        cr_assert_eq(sparse_step_init(&ss, s), 1);
        cr_assert_eq(step_mlcp_init(&sm, s, NULL), NSDAE_OK);
        cr_assert_eq(sparse_step_prepare(&ss, s, 0.004, 1e-5, 0.5, 0.5 + 0.25 * gr, gr, y0, l0), 1);
        step_mlcp_build(&sm, s, 0.004, 1e-5, 0.5, 0.5 + 0.25 * gr, gr, y0, l0);
        double *dense = calloc((size_t)n * n, sizeof *dense);
        for (int j = 0; j < n; j++)
            for (int k = ss.M.colp[j]; k < ss.M.colp[j + 1]; k++) dense[ss.M.rowi[k] + (size_t)j * n] = ss.M.val[k];
        for (size_t e = 0; e < (size_t)n * n; e++) cr_assert_eq(dense[e], sm.M[e], "M entry %zu", e);
        for (int i = 0; i < n; i++)
            cr_assert_leq(fabs(ss.q[i] - sm.q[i]), 1e-15 * (1 + fabs(sm.q[i])), "q_%d: %.17g %.17g", i, ss.q[i], sm.q[i]);
        cr_assert_eq(sparse_step_solve(&ss, z, w, NULL), NSDAE_OK);
        int conducting = 0;
        for (int i = 0; i < s->nl; i++) conducting += z[s->ny + i] > 0;
        cr_expect_gt(conducting, 0, "the test point has conducting diodes");
        for (int pass = 0; pass < 2; pass++) {
            if (pass) z[s->ny] -= 1e-3, z[0] += 1e-4; /* a point that violates rows */
            double vs = sparse_row_violation(&ss, z), vd = nsdae_mlcp_row_violation(&sm.problem, z);
            cr_expect_leq(fabs(vs - vd), 1e-12 * vd + 1e-15, "violation %.17g vs %.17g", vs, vd);
            cr_expect_eq(vs > NSDAE_TOL_RESIDUAL, pass == 1);
            double rs = sparse_step_residual(&ss, z), rd = step_mlcp_residual(&sm, z);
            cr_expect_leq(fabs(rs - rd), 1e-12 * rd + 1e-18, "residual %.17g vs %.17g", rs, rd);
        }
        free(dense);
        sparse_step_free(&ss);
        step_mlcp_free(&sm);
    }
    free(y0); free(l0); free(z); free(w);
    nsdae_mlcs_destroy(s);
}

/* examples/rlc_diode.nsm: the diode row's only term is vD, which the y rows compute to -2.4e-15
 * where 0 is exact (a 1/h amplification); without iterative refinement the per-row check rejects
 * the sparse answer from step 2 on. Every step must be sparse, and as dense (above). */
Test(sparse_step, rlc_diode_every_step_sparse)
{
    nsdae_mlcs *s = translate(EXAMPLES "rlc_diode.nsm", NULL, 0);
    cr_assert_not_null(s);
    nsdae_stepper_options o;
    cr_assert_eq(nsdae_stepper_options_for(s, &o, NULL), NSDAE_OK);
    o.stop = 1e-3;
    traj t = {0};
    long sp = run(s, o, NSDAE_STEP_SOLVER_SPARSE, &t);
    cr_expect_eq(sp, 1000, "sparse steps: %ld", sp);
    free(t.y);
    nsdae_mlcs_destroy(s);
}

/* y' = 1 - l, 0 <= 1 - y _|_ l >= 0 (a ramp clamped at 1: S = h > 0, one solution) has the
 * certificate; the same with l acting on nothing (S = 0: a continuum of l while y < 1) has not,
 * and SPARSE says so instead of guessing, while AUTO falls back to the dense path. */
Test(sparse_step, certificate_or_unsupported)
{
    for (int acts = 0; acts < 2; acts++) {
        nsdae_mlcs *s = NULL;
        cr_assert_eq(nsdae_mlcs_create(1, 1, 1, &s, NULL), NSDAE_OK);
        s->phases[0].E[0] = 1;
        s->phases[0].b[0] = 1;
        s->phases[0].B[0] = acts ? -1 : 0;
        s->phases[0].C[0] = -1;
        s->phases[0].c[0] = 1;
        nsdae_stepper_options o;
        nsdae_stepper_defaults(&o);
        o.stop = acts ? 1.5 : 0.75; /* acting: clamped at 1 from the fourth step of 1/4 on */
        o.nsteps = acts ? 6 : 3;
        o.solver = NSDAE_STEP_SOLVER_SPARSE;
        double y = 0;
        nsdae_stepper_summary sum;
        nsdae_error err = {0};
        nsdae_status st = nsdae_stepper_run(s, &o, NULL, NULL, &y, &sum, &err);
        if (acts) {
            cr_expect_eq(st, NSDAE_OK, "%s", err.message);
            cr_expect_eq(sum.sparse, 6);
            cr_expect_float_eq(y, 1.0, 1e-15);
        } else {
            cr_expect_eq(st, NSDAE_UNSUPPORTED);
            cr_expect(strstr(err.message, "certificate") != NULL, "%s", err.message);
            o.solver = NSDAE_STEP_SOLVER_AUTO;
            cr_expect_eq(nsdae_stepper_run(s, &o, NULL, NULL, &y, &sum, &err), NSDAE_OK, "%s", err.message);
            cr_expect_eq(sum.sparse, 0);
            cr_expect_float_eq(y, 0.75, 1e-15);
        }
        nsdae_mlcs_destroy(s);
    }
}

/* The smallest eigenvalue of sym(S), S = D - C W^-1 B from the dense step matrix (LAPACK: a general
 * solve and a symmetric eigensolver, independent of both certificates); NAN when W is singular. */
static double schur_min_eigenvalue(const sparse_step *ss)
{
    const int n = ss->n, ny = ss->ny, nl = ss->nl;
    double *M = calloc((size_t)n * n, sizeof *M), *W = malloc(sizeof *W * ny * ny), *X = malloc(sizeof *X * ny * nl);
    double *S = malloc(sizeof *S * nl * nl), *ev = malloc(sizeof *ev * nl);
    int *piv = malloc(sizeof *piv * ny);
    cr_assert(M && W && X && S && ev && piv);
    for (int j = 0; j < n; j++)
        for (int k = ss->M.colp[j]; k < ss->M.colp[j + 1]; k++) M[ss->M.rowi[k] + (size_t)j * n] = ss->M.val[k];
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < ny; i++) W[i + j * ny] = M[i + (size_t)j * n];
    for (int j = 0; j < nl; j++)
        for (int i = 0; i < ny; i++) X[i + j * ny] = M[i + (size_t)(ny + j) * n];
    double lmin = NAN;
    if (LAPACKE_dgesv(LAPACK_COL_MAJOR, ny, nl, W, ny, piv, X, ny) == 0) {
        for (int j = 0; j < nl; j++)
            for (int i = 0; i < nl; i++) {
                double v = M[ny + i + (size_t)(ny + j) * n];
                for (int k = 0; k < ny; k++) v -= M[ny + i + (size_t)k * n] * X[k + j * ny];
                S[i + j * nl] = v;
            }
        for (int j = 0; j < nl; j++)
            for (int i = 0; i <= j; i++) S[i + j * nl] = S[j + i * nl] = 0.5 * (S[i + j * nl] + S[j + i * nl]);
        if (LAPACKE_dsyev(LAPACK_COL_MAJOR, 'N', 'U', nl, S, nl, ev) == 0) lmin = ev[0];
    }
    free(M); free(W); free(X); free(S); free(ev); free(piv);
    return lmin;
}

/* The sparse certificate (sparse_cert.c) is a proof: on 400 random small MLCS (sparse W, B, C, D of
 * both signs, sym(S) definite, indefinite or singular) it never says 1 where sym(S) has an
 * eigenvalue <= 0, and it is not blind: it proves most of the clearly definite ones, and every
 * diode ladder (whose S is a positive multiple of a diagonally dominant inverse). */
Test(sparse_step, sparse_certificate_is_a_proof)
{
    unsigned long seed = 12345;
    int definite = 0, proven = 0, proven_of_definite = 0;
    for (int trial = 0; trial < 400; trial++) {
        const int ny = 2 + trial % 5, nl = 1 + trial % 4;
        nsdae_mlcs *s = NULL;
        cr_assert_eq(nsdae_mlcs_create(ny, nl, 1, &s, NULL), NSDAE_OK);
        nsdae_mlcs_phase *p = &s->phases[0];
#define RND() ((seed = seed * 6364136223846793005UL + 1442695040888963407UL) >> 11) * (1.0 / 9007199254740992.0)
        for (int i = 0; i < ny; i++) p->E[i + i * ny] = 1.0;
        for (int e = 0; e < ny * ny; e++) if (RND() < 0.3) p->A[e] = 4 * RND() - 2;
        for (int e = 0; e < ny * nl; e++) if (RND() < 0.4) p->B[e] = 4 * RND() - 2;
        for (int e = 0; e < nl * ny; e++) if (RND() < 0.4) p->C[e] = 4 * RND() - 2;
        for (int e = 0; e < nl * nl; e++) if (RND() < 0.3) p->D[e] = 2 * RND() - 1;
#undef RND
        sparse_step ss;
        cr_assert_eq(sparse_step_init(&ss, s), 1);
        double y0[8] = {0}, l0[8] = {0};
        cr_assert_geq(sparse_step_prepare(&ss, s, 0.0, 0.1, 1.0, 1.0, 0, y0, l0), 0);
        double lmin = schur_min_eigenvalue(&ss), smax = 1e-300;
        for (int k = 0; k < ss.M.colp[ss.n]; k++) smax = fmax(smax, fabs(ss.M.val[k]));
        int cert = sparse_lcp_certify_sparse(&ss);
        cr_assert_geq(cert, 0);
        if (cert == 1) cr_expect_gt(lmin, 0.0, "trial %d: proven, but sym(S) has eigenvalue %.3g", trial, lmin);
        proven += cert;
        if (lmin > 1e-2 * smax) {
            definite++;
            proven_of_definite += cert;
        }
        sparse_step_free(&ss);
        nsdae_mlcs_destroy(s);
    }
    cr_expect_gt(definite, 20, "clearly definite cases: %d", definite);
    cr_expect_geq(2 * proven_of_definite, definite, "proven %d of %d clearly definite", proven_of_definite, definite);
    for (int N = 1; N <= 64; N *= 4) {
        nsdae_mlcs *s = translate(EXAMPLES "diode_ladder.nsm", "N", N);
        cr_assert_not_null(s);
        sparse_step ss;
        cr_assert_eq(sparse_step_init(&ss, s), 1);
        double *y0 = calloc((size_t)s->ny, sizeof *y0), *l0 = calloc((size_t)s->nl, sizeof *l0);
        cr_assert_eq(sparse_step_prepare(&ss, s, 0.0, 1e-5, 0.5, 0.5, 0, y0, l0), 1);
        cr_expect_eq(sparse_lcp_certify_sparse(&ss), 1, "ladder N = %d", N);
        cr_expect_gt(schur_min_eigenvalue(&ss), 0.0, "ladder N = %d", N);
        free(y0); free(l0);
        sparse_step_free(&ss);
        nsdae_mlcs_destroy(s);
    }
    cr_log_info("proven %d of 400, %d of %d clearly definite", proven, proven_of_definite, definite);
}
