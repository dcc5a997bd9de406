/* Seeded random MLCPs against independent computations:
 *  - P-matrix LCPs: Siconos Lemke, Siconos ENUM, Siconos LCP ENUM, the own enumerator and the
 *    selection all return the one solution;
 *  - the minimal-norm selection against a brute force written here from scratch: over all 3^m
 *    "extended patterns" (w_i = 0, z_i = 0, or both) minimise the objective on the affine set
 *    by one KKT least-squares solve (LAPACKE_dgelsd) and keep the feasible minimisers. Every
 *    face of every pattern's piece is one extended pattern, and the optimum over the solution
 *    set is attained at a point that is the unique minimiser over its face's affine hull (a
 *    vertex of the optimal set; pieces of a pure LCP contain no lines), so this is exact.
 *  - the own enumerator against the Siconos SEED-restart enumeration. */
#include <criterion/criterion.h>
#include <lapacke.h>
#include <math.h>
#include <nsdae/lcp.h>

#include "internal.h"   /* lcp_minnorm_bnb: the branch and bound alone, against the fast path */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "xorshift.h"

enum { MAXN = 12 };

static uint64_t rng = 88172645463325252ULL;
static double urand(void)   /* uniform in (-1, 1) */
{
    return xorshift_uniform(&rng);
}
static int irand(int n)
{
    return (int)((urand() + 1) * 0.5 * n) % n;
}

typedef struct inst {
    int N, n;   /* size, leading equality rows */
    double M[MAXN * MAXN], q[MAXN];
    nsdae_row_kind kind[MAXN];
    int sel[MAXN], k;      /* objective selection (k = 0: all) */
    double Qd[MAXN];       /* diagonal weight per selected entry */
    double Q[MAXN * MAXN]; /* the same as a full matrix, for the spec */
    int useQ;
    double zref[MAXN];
    int family;
} inst;

static void gen(inst *X, int N, int family, int n_eq)
{
    memset(X, 0, sizeof *X);
    X->N = N;
    X->n = n_eq;
    X->family = family;
    double *M = X->M, *q = X->q;
    for (int i = 0; i < N * N; i++)
        M[i] = urand();
    for (int i = 0; i < N; i++)
        q[i] = urand();
    switch (family) {
    case 1: /* negative diagonal entries: several solutions */
        for (int i = 0; i < N; i++)
            M[i + i * N] = -0.5 * (urand() + 1);
        break;
    case 2: { /* M = u u^T, q = -c u: a continuum when u has a positive entry. Dyadic entries
               * keep M exactly rank one: a rounded rank-one matrix is an ill-posed problem
               * whose nearly singular patterns have solutions of size 1e5. */
        double u[MAXN], c = (4 + irand(8)) / 8.0;
        for (int i = 0; i < N; i++) {
            double a = (1 + irand(4)) / 4.0;
            u[i] = (i % 3 == 2 || urand() < 0) ? -a : a;
        }
        for (int i = 0; i < N; i++) {
            q[i] = -c * u[i];
            for (int j = 0; j < N; j++)
                M[i + j * N] = u[i] * u[j];
        }
        break;
    }
    case 3: { /* a repeated row and column */
        if (N < 2)
            break;
        int a = irand(N), b = (a + 1 + irand(N - 1)) % N;
        for (int j = 0; j < N; j++)
            M[b + j * N] = M[a + j * N];
        for (int i = 0; i < N; i++)
            M[i + b * N] = M[i + a * N];
        M[b + b * N] = M[a + a * N];
        q[b] = q[a];
        break;
    }
    case 4: { /* a zero row, q_i in {-|.|, 0, +|.|} */
        int a = irand(N);
        for (int j = 0; j < N; j++)
            M[a + j * N] = 0;
        int s = irand(3);
        q[a] = s == 0 ? 0 : s == 1 ? fabs(q[a]) : -fabs(q[a]);   /* free ray, z_a = 0, no solution */
        break;
    }
    case 5: /* small integers: ties and degenerate patterns */
        for (int i = 0; i < N * N; i++)
            M[i] = irand(3) - 1;
        for (int i = 0; i < N; i++)
            q[i] = irand(3) - 1;
        break;
    case 6: { /* P-matrix: R R^T + N X plus a small skew part */
        double R[MAXN * MAXN], S[MAXN * MAXN];
        for (int i = 0; i < N * N; i++)
            R[i] = urand(), S[i] = 0.3 * urand();
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                double v = (i == j) * N;
                for (int l = 0; l < N; l++)
                    v += R[i + l * N] * R[j + l * N];
                M[i + j * N] = v + S[i + j * N] - S[j + i * N];
            }
        break;
    }
    case 7: { /* PSD of rank < N: B B^T, integer B so that the rank deficiency is exact */
        int r = 1 + irand(N > 1 ? N - 1 : 1);
        double B[MAXN * MAXN];
        for (int i = 0; i < N * r; i++)
            B[i] = irand(5) - 2;
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                double v = 0;
                for (int l = 0; l < r; l++)
                    v += B[i + l * N] * B[j + l * N];
                M[i + j * N] = v;
            }
        break;
    }
    }
    for (int i = 0; i < N; i++)
        X->kind[i] = i < n_eq ? NSDAE_ROW_EQUALITY : NSDAE_ROW_COMPLEMENTARITY;
    if (n_eq > 0)   /* keep the equality block well away from singular */
        for (int i = 0; i < n_eq; i++)
            M[i + i * N] = 3 + fabs(M[i + i * N]);
}

/* objective with the instance's selection and diagonal weights */
static double objective(const inst *X, const double *z)
{
    double f = 0;
    int k = X->k ? X->k : X->N;
    for (int a = 0; a < k; a++) {
        int j = X->k ? X->sel[a] : a;
        double d = z[j] - X->zref[j];
        f += 0.5 * X->Qd[a] * d * d;
    }
    return f;
}

typedef struct brute {
    int found;
    double fmin, zmin[MAXN];
    int clear_unique, clear_tie;
} brute;

static void kkt_residual(const double *K, const double *rhs, const double *x, int L, double *res, double *bn,
                         double *kn, double *xn)
{
    *res = *bn = *kn = *xn = 0;
    for (int i = 0; i < L; i++) {
        double v = -rhs[i];
        for (int j = 0; j < L; j++) {
            v += K[i + j * L] * x[j];
            *kn = fmax(*kn, fabs(K[i + j * L]));
        }
        *res = fmax(*res, fabs(v));
        *bn = fmax(*bn, fabs(rhs[i]));
        *xn = fmax(*xn, fabs(x[i]));
    }
}

/* z >= -tol and w >= -tol on the complementarity rows */
static int feasible(const inst *X, const double *z, double tol)
{
    for (int i = X->n; i < X->N; i++) {
        double w = X->q[i];
        for (int j = 0; j < X->N; j++)
            w += X->M[i + j * X->N] * z[j];
        if (z[i] < -tol || w < -tol)
            return 0;
    }
    return 1;
}

/* z solves the extended pattern `code`: every required equality within tol, signs within tol */
static int in_pattern(const inst *X, long code, const double *z, double tol)
{
    double qn = 0;
    for (int i = 0; i < X->N; i++)
        qn = fmax(qn, fabs(X->q[i]));
    tol *= 1 + qn;
    for (int i = 0; i < X->N; i++) {
        double w = X->q[i];
        for (int j = 0; j < X->N; j++)
            w += X->M[i + j * X->N] * z[j];
        int e = 0;
        if (i >= X->n) {
            e = (int)(code % 3);
            code /= 3;
        }
        if ((e == 0 || e == 2) && fabs(w) > tol)
            return 0;
        if ((e == 1 || e == 2) && fabs(z[i]) > tol)
            return 0;
        if (i >= X->n && (z[i] < -0.1 * tol || w < -0.1 * tol))
            return 0;
    }
    return 1;
}

/* the brute force described at the top of the file */
static void brute_force(const inst *X, brute *B)
{
    int N = X->N, n = X->n, m = N - n;
    double H[MAXN] = {0};   /* diagonal Hessian in z */
    int k = X->k ? X->k : N;
    for (int a = 0; a < k; a++)
        H[X->k ? X->sel[a] : a] = X->Qd[a];
    enum { CAP = 4096 };
    static double cz[CAP][MAXN], cf[CAP];
    int nc = 0;
    long total = 1;
    for (int i = 0; i < m; i++)
        total *= 3;
    double E[2 * MAXN * MAXN], b[2 * MAXN];
    double K[(3 * MAXN) * (3 * MAXN)], rhs[3 * MAXN], Kc[(3 * MAXN) * (3 * MAXN)], s[3 * MAXN];
    memset(B, 0, sizeof *B);
    B->fmin = INFINITY;
    for (long code = 0; code < total; code++) {
        int rows = 0;
        long c = code;
        for (int i = 0; i < N; i++) {
            int e = i < n ? 0 : (int)(c % 3);
            if (i >= n)
                c /= 3;
            if (e == 0 || e == 2) { /* w_i = 0 */
                for (int j = 0; j < N; j++)
                    E[rows + j * 2 * MAXN] = X->M[i + j * N];
                b[rows++] = -X->q[i];
            }
            if (e == 1 || e == 2) { /* z_i = 0 */
                for (int j = 0; j < N; j++)
                    E[rows + j * 2 * MAXN] = (i == j);
                b[rows++] = 0;
            }
        }
        /* KKT: [H E'; E 0] [z; l] = [H zref; b] */
        int L = N + rows;
        memset(K, 0, sizeof(double) * L * L);
        for (int i = 0; i < N; i++) {
            K[i + i * L] = H[i];
            rhs[i] = H[i] * X->zref[i];
        }
        for (int r = 0; r < rows; r++) {
            for (int j = 0; j < N; j++) {
                K[N + r + j * L] = E[r + j * 2 * MAXN];
                K[j + (N + r) * L] = E[r + j * 2 * MAXN];
            }
            rhs[N + r] = b[r];
        }
        memcpy(Kc, K, sizeof(double) * L * L);
        double x[3 * MAXN];
        memcpy(x, rhs, sizeof(double) * L);
        lapack_int rank, ipiv[3 * MAXN];
        /* LU when the KKT matrix is clearly regular, minimal-norm least squares otherwise */
        double anorm = LAPACKE_dlange(LAPACK_COL_MAJOR, '1', L, L, Kc, L), rcond = 0;
        int lu = LAPACKE_dgetrf(LAPACK_COL_MAJOR, L, L, Kc, L, ipiv) == 0 &&
                 LAPACKE_dgecon(LAPACK_COL_MAJOR, '1', L, Kc, L, anorm, &rcond) == 0 && rcond > 1e-10;
        if (lu) {
            LAPACKE_dgetrs(LAPACK_COL_MAJOR, 'N', L, 1, Kc, L, ipiv, x, L);
        } else {
            memcpy(Kc, K, sizeof(double) * L * L);
            if (LAPACKE_dgelsd(LAPACK_COL_MAJOR, L, L, 1, Kc, L, x, L, s, 1e-13, &rank) != 0)
                continue;
        }
        /* cheap rejection first, then refinement for the survivors (the KKT matrix squares
         * the conditioning, and a few instances are ill conditioned), then the strict tests */
        double res, bn, kn, xn;
        kkt_residual(K, rhs, x, L, &res, &bn, &kn, &xn);
        if (res > 1e-6 * (1 + bn + kn * xn) || !feasible(X, x, 1e-6 * (1 + xn)))
            continue;
        for (int it = 0; it < 2; it++) {
            double d[3 * MAXN];
            for (int i = 0; i < L; i++) {
                double v = rhs[i];
                for (int j = 0; j < L; j++)
                    v -= K[i + j * L] * x[j];
                d[i] = v;
            }
            memcpy(Kc, K, sizeof(double) * L * L);
            if (LAPACKE_dgelsd(LAPACK_COL_MAJOR, L, L, 1, Kc, L, d, L, s, 1e-13, &rank) != 0)
                break;
            for (int i = 0; i < L; i++)
                x[i] += d[i];
        }
        /* the final verdict in problem space, with absolute tolerances: a nearly singular
         * pattern can pass a normwise backward-error test with z ~ 1e16 */
        if (!in_pattern(X, code, x, 1e-8))
            continue;
        double *z = x;
        double f = objective(X, z);
        if (nc < CAP) {
            memcpy(cz[nc], z, sizeof(double) * N);
            cf[nc++] = f;
        }
        if (f < B->fmin) {
            B->fmin = f;
            memcpy(B->zmin, z, sizeof(double) * N);
        }
        B->found = 1;
    }
    if (!B->found)
        return;
    B->clear_unique = 1;
    for (int i = 0; i < nc; i++) {
        double d = 0, sc = 1;
        for (int j = 0; j < N; j++) {
            d = fmax(d, fabs(cz[i][j] - B->zmin[j]));
            sc = fmax(sc, fabs(cz[i][j]));
        }
        if (d <= 1e-7 * sc)
            continue;
        if (cf[i] <= B->fmin + 1e-7 * (1 + B->fmin))
            B->clear_unique = 0;
        if (cf[i] <= B->fmin + 1e-11 * (1 + B->fmin))
            B->clear_tie = 1;
    }
}

static void make_spec(inst *X, nsdae_minnorm_spec *spec, int count)
{
    memset(spec, 0, sizeof *spec);
    spec->z_ref = X->zref;
    spec->count_solutions = count;
    if (X->k) {
        spec->select = X->sel;
        spec->k = X->k;
    }
    if (X->useQ) {
        int k = X->k ? X->k : X->N;
        if (!X->k) {   /* Q needs an explicit selection */
            for (int a = 0; a < k; a++)
                X->sel[a] = a;
            spec->select = X->sel;
            spec->k = k;
        }
        memset(X->Q, 0, sizeof X->Q);
        for (int a = 0; a < k; a++)
            X->Q[a + a * k] = X->Qd[a];
        spec->Q = X->Q;
    }
}

static double violation(const inst *X, const double *z, const double *w)
{
    double v = 0;
    for (int i = 0; i < X->N; i++) {
        double wi = X->q[i];
        for (int j = 0; j < X->N; j++)
            wi += X->M[i + j * X->N] * z[j];
        v = fmax(v, fabs(wi - w[i]));
        if (i < X->n)
            v = fmax(v, fabs(wi));
        else
            v = fmax(v, fmax(fmax(-z[i], -wi), fmin(fabs(z[i]), fabs(wi))));
    }
    return v;
}

/* DUMP=file writes a disagreeing instance for a reproduction outside the test */
static void dump_instance(const inst *X, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    fprintf(f, "%d %d %d %d\n", X->N, X->n, X->k, X->useQ);
    for (int i = 0; i < X->N * X->N; i++)
        fprintf(f, "%.17g\n", X->M[i]);
    for (int i = 0; i < X->N; i++)
        fprintf(f, "%.17g %.17g\n", X->q[i], X->zref[i]);
    for (int i = 0; i < X->k; i++)
        fprintf(f, "%d %.17g\n", X->sel[i], X->Qd[i]);
    fclose(f);
}

/* The timeout only guards against a hang: the brute force's 3^m KKT solves take about 80 s under
 * AddressSanitizer on a loaded 2-core machine, so 120 s was too close. */
Test(random, minnorm_matches_brute_force, .timeout = 600)
{
    /* m = 1..10; fewer of the large ones, where the brute force costs 3^m KKT solves */
    static const int per_m[11] = {0, 360, 360, 360, 360, 360, 200, 40, 12, 4, 2};
    int total = 0, compared_z = 0, ties = 0, nosol = 0, counted = 0, partial = 0;
    rng = 0x9E3779B97F4A7C15ULL;
    if (getenv("NSDAE_TEST_SEED"))   /* for soak runs by hand; ctest uses the fixed seed */
        rng ^= strtoull(getenv("NSDAE_TEST_SEED"), NULL, 10) * 2654435761ULL;
    for (int m = 1; m <= 10; m++) {
        for (int r = 0; r < per_m[m]; r++) {
            inst X;
            int family = r % 8;
            int n_eq = (r % 7 == 3 && (family == 0 || family == 6) && m >= 2) ? 1 : 0;
            gen(&X, m + n_eq, family, n_eq);
            /* objective: selection for a third of the pure LCPs, weights for a quarter */
            if (n_eq == 0 && r % 3 == 1) {
                int k = 0;
                for (int j = 0; j < X.N; j++)
                    if (irand(2) || (k == 0 && j == X.N - 1))
                        X.sel[k++] = j;
                X.k = k < X.N ? k : 0;
            }
            int k = X.k ? X.k : X.N;
            X.useQ = r % 4 == 2;
            for (int a = 0; a < k; a++)
                X.Qd[a] = X.useQ ? 0.5 + (urand() + 1) : 1.0;
            if (r % 2)
                for (int j = 0; j < X.N; j++)
                    X.zref[j] = urand();
            brute B;
            brute_force(&X, &B);
            nsdae_minnorm_spec spec;
            int count = r % 5 == 0;
            make_spec(&X, &spec, count);
            double z[MAXN], w[MAXN];
            nsdae_minnorm_result res;
            nsdae_error e = {0};
            nsdae_mlcp p = {X.N, X.M, X.q, X.kind, NULL, NULL};
            nsdae_status st = nsdae_lcp_minnorm(&p, &spec, z, w, &res, &e);
            total++;
            if ((!B.found) != (st != NSDAE_OK) && getenv("DUMP"))
                dump_instance(&X, getenv("DUMP"));
            if (!B.found) {
                cr_assert_eq(st, NSDAE_NO_SOLUTION, "m=%d r=%d family %d: brute force finds none, status %d (%s)", m, r,
                             family, st, e.message);
                nosol++;
                continue;
            }
            cr_assert_eq(st, NSDAE_OK, "m=%d r=%d family %d: %s", m, r, family, e.message);
            cr_assert(fabs(res.objective - B.fmin) <= 1e-8 * (1 + B.fmin),
                      "m=%d r=%d family %d: objective %.15g, brute force %.15g", m, r, family, res.objective, B.fmin);
            cr_assert(fabs(objective(&X, z) - res.objective) <= 1e-9 * (1 + B.fmin), "m=%d r=%d: reported objective",
                      m, r);
            cr_assert(violation(&X, z, w) <= 1e-8, "m=%d r=%d family %d: z is not a solution (%.3g)", m, r, family,
                      violation(&X, z, w));
            if (X.k == 0 && B.clear_unique) {
                compared_z++;
                cr_assert_eq(res.unique, 1, "m=%d r=%d family %d: brute force says unique", m, r, family);
                for (int j = 0; j < X.N; j++)
                    cr_assert(fabs(z[j] - B.zmin[j]) <= 1e-7 * (1 + fabs(B.zmin[j])),
                              "m=%d r=%d family %d: z[%d] %.15g vs %.15g", m, r, family, j, z[j], B.zmin[j]);
            }
            if (B.clear_tie) {
                ties++;
                cr_assert_eq(res.unique, 0, "m=%d r=%d family %d: brute force sees a tie", m, r, family);
            }
            partial += X.k != 0;
            if (count) {
                /* the count against the own enumerator (a different code path: no pruning) */
                nsdae_lcp_solution_set *s = NULL;
                cr_assert_eq(nsdae_lcp_enumerate(&p, &s, &e), NSDAE_OK, "%s", e.message);
                long want = s->has_continuum ? -1 : s->count;
                cr_assert_eq(res.nsol, want, "m=%d r=%d family %d: nsol %ld, enumerate %ld", m, r, family, res.nsol,
                             want);
                nsdae_lcp_solution_set_free(s);
                counted++;
            }
        }
    }
    cr_log_info("minnorm vs brute force: %d instances (%d no solution, %d z compared, %d ties, %d partial "
                "objectives, %d counted)",
                total, nosol, compared_z, ties, partial, counted);
    cr_assert_geq(total, 2000);
    cr_assert_geq(compared_z, 800);
    cr_assert_geq(ties + nosol, 10);
}

static void same_z(const double *a, const double *b, int N, const char *who, int m, int r)
{
    for (int j = 0; j < N; j++)
        cr_assert(fabs(a[j] - b[j]) <= 1e-8 * (1 + fabs(b[j])), "m=%d r=%d: %s z[%d] = %.15g vs %.15g", m, r, who, j,
                  a[j], b[j]);
}

Test(random, p_matrix_all_solvers_agree)
{
    rng = 12345;
    for (int m = 1; m <= MAXN; m++) {
        for (int r = 0; r < 12; r++) {
            inst X;
            gen(&X, m, 6, 0);
            nsdae_mlcp p = {m, X.M, X.q, NULL, NULL, NULL};
            double zl[MAXN], ze[MAXN], zc[MAXN], zm[MAXN], w[MAXN];
            nsdae_error e = {0};
            cr_assert_eq(nsdae_lcp_solve_siconos(&p, "lemke", zl, w, &e), NSDAE_OK, "%s", e.message);
            cr_assert_eq(nsdae_lcp_solve_siconos(&p, "enum", ze, w, &e), NSDAE_OK, "%s", e.message);
            cr_assert_eq(nsdae_lcp_solve_siconos(&p, "lcp-enum", zc, w, &e), NSDAE_OK, "%s", e.message);
            nsdae_minnorm_result res;
            nsdae_minnorm_spec spec = {.count_solutions = 1};
            cr_assert_eq(nsdae_lcp_minnorm(&p, &spec, zm, w, &res, &e), NSDAE_OK, "%s", e.message);
            cr_assert_eq(res.nsol, 1);
            cr_assert_eq(res.unique, 1);
            same_z(ze, zl, m, "siconos enum vs lemke", m, r);
            same_z(zc, zl, m, "siconos lcp-enum vs lemke", m, r);
            same_z(zm, zl, m, "minnorm vs siconos lemke", m, r);
            nsdae_lcp_solution_set *s = NULL;
            cr_assert_eq(nsdae_lcp_enumerate(&p, &s, &e), NSDAE_OK, "%s", e.message);
            cr_assert_eq(s->count, 1, "m=%d r=%d: %d solutions", m, r, s->count);
            same_z(s->pieces[0].z, zl, m, "enumerate vs siconos lemke", m, r);
            nsdae_lcp_solution_set_free(s);
        }
    }
}

/* Non-degenerate families (no continua): the own enumerator and the Siconos SEED restarts
 * must find the same finite set of points, for pure LCPs and MLCPs with 1 equality row. */
Test(random, enumerate_matches_siconos_restart)
{
    rng = 777;
    int compared = 0;
    for (int m = 1; m <= 8; m++) {
        for (int r = 0; r < 30; r++) {
            inst X;
            int n_eq = r % 3 == 2;
            gen(&X, m + n_eq, r % 2, n_eq);
            nsdae_mlcp p = {X.N, X.M, X.q, X.kind, NULL, NULL};
            nsdae_lcp_solution_set *a = NULL, *b = NULL;
            nsdae_error e = {0};
            cr_assert_eq(nsdae_lcp_enumerate(&p, &a, &e), NSDAE_OK, "%s", e.message);
            cr_assert_eq(nsdae_lcp_enumerate_siconos_restart(&p, &b, &e), NSDAE_OK, "%s", e.message);
            cr_assert_eq(a->has_continuum, 0);
            cr_assert_eq(a->count, b->count, "m=%d r=%d: own %d, siconos %d", m, r, a->count, b->count);
            for (int i = 0; i < a->count; i++) {
                int hit = 0;
                for (int j = 0; j < b->count && !hit; j++) {
                    double d = 0;
                    for (int l = 0; l < X.N; l++)
                        d = fmax(d, fabs(a->pieces[i].z[l] - b->pieces[j].z[l]));
                    hit = d < 1e-8;
                }
                cr_assert(hit, "m=%d r=%d: solution %d not found by siconos", m, r, i);
            }
            compared += a->count;
            nsdae_lcp_solution_set_free(a);
            nsdae_lcp_solution_set_free(b);
        }
    }
    cr_assert_geq(compared, 200);
}

/* Mixed rows (equality, complementarity, box with finite, one-sided, infinite and equal
 * bounds). Checks against the caller's conditions written here, and against two other
 * routes: the selection's objective can be no larger than that of the solution Siconos ENUM
 * returns, and equals the best objective over the enumerated pieces when all are points. */
static double box_violation(int N, const double *M, const double *q, const nsdae_row_kind *kind, const double *lo,
                            const double *hi, const double *z)
{
    double v = 0;
    for (int i = 0; i < N; i++) {
        double w = q[i];
        for (int j = 0; j < N; j++)
            w += M[i + j * N] * z[j];
        if (kind[i] == NSDAE_ROW_EQUALITY) {
            v = fmax(v, fabs(w));
        } else if (kind[i] == NSDAE_ROW_COMPLEMENTARITY) {
            v = fmax(v, fmax(fmax(-z[i], -w), fmin(fabs(z[i]), fabs(w))));
        } else {
            v = fmax(v, fmax(lo[i] - z[i], z[i] - hi[i]));
            if (w > 0)   /* must sit at lo */
                v = fmax(v, fmin(w, z[i] - lo[i]));
            if (w < 0)   /* must sit at hi */
                v = fmax(v, fmin(-w, hi[i] - z[i]));
        }
    }
    return v;
}

Test(random, box_rows_against_siconos_and_enumeration)
{
    rng = 4242;
    int checked = 0, with_points = 0;
    for (int N = 1; N <= 6; N++) {
        for (int r = 0; r < 60; r++) {
            double M[36], q[6], lo[6], hi[6], zref[6];
            nsdae_row_kind kind[6];
            for (int i = 0; i < N * N; i++)
                M[i] = urand();
            for (int i = 0; i < N; i++) {
                M[i + i * N] = 1.5 + fabs(M[i + i * N]);   /* mostly solvable */
                q[i] = 2 * urand();
                zref[i] = urand();
                int c = irand(7);
                kind[i] = c == 0 ? NSDAE_ROW_EQUALITY : c == 1 ? NSDAE_ROW_COMPLEMENTARITY : NSDAE_ROW_BOX;
                lo[i] = -0.5 + 0.4 * urand();
                hi[i] = 0.5 + 0.4 * urand();
                if (c == 3)
                    lo[i] = -INFINITY;
                if (c == 4)
                    hi[i] = INFINITY;
                if (c == 5)
                    lo[i] = -INFINITY, hi[i] = INFINITY;
                if (c == 6 && r % 4 == 0)
                    lo[i] = hi[i];
            }
            if (r % 5 == 4)   /* a negative diagonal entry: several solutions */
                M[0] = -0.5;
            nsdae_mlcp p = {N, M, q, kind, lo, hi};
            nsdae_minnorm_spec spec = {.z_ref = zref};
            double z[6], w[6], zs[6], ws[6];
            nsdae_minnorm_result res;
            nsdae_error e = {0};
            nsdae_status st = nsdae_lcp_minnorm(&p, &spec, z, w, &res, &e);
            nsdae_status ss = nsdae_lcp_solve_siconos(&p, "enum", zs, ws, &e);
            if (ss == NSDAE_OK)
                cr_assert_eq(st, NSDAE_OK, "N=%d r=%d: siconos found a solution, minnorm: %s", N, r, e.message);
            if (st != NSDAE_OK) {
                cr_assert_eq(st, NSDAE_NO_SOLUTION, "N=%d r=%d: %s", N, r, e.message);
                continue;
            }
            cr_assert(box_violation(N, M, q, kind, lo, hi, z) <= 1e-9, "N=%d r=%d: violation %.3g", N, r,
                      box_violation(N, M, q, kind, lo, hi, z));
            double f = 0, fs = 0;
            for (int i = 0; i < N; i++) {
                f += 0.5 * (z[i] - zref[i]) * (z[i] - zref[i]);
                fs += 0.5 * (zs[i] - zref[i]) * (zs[i] - zref[i]);
            }
            cr_assert(fabs(f - res.objective) <= 1e-10 * (1 + f));
            if (ss == NSDAE_OK)
                cr_assert(f <= fs + 1e-9 * (1 + fs), "N=%d r=%d: siconos solution beats the selection", N, r);
            nsdae_lcp_solution_set *s = NULL;
            cr_assert_eq(nsdae_lcp_enumerate(&p, &s, &e), NSDAE_OK, "%s", e.message);
            cr_assert_geq(s->count, 1);
            if (!s->has_continuum) {
                double best = INFINITY;
                for (int c = 0; c < s->count; c++) {
                    double fc = 0;
                    cr_assert(box_violation(N, M, q, kind, lo, hi, s->pieces[c].z) <= 1e-9);
                    for (int i = 0; i < N; i++)
                        fc += 0.5 * (s->pieces[c].z[i] - zref[i]) * (s->pieces[c].z[i] - zref[i]);
                    best = fmin(best, fc);
                }
                cr_assert(fabs(best - f) <= 1e-9 * (1 + f), "N=%d r=%d: best piece %.15g, selection %.15g", N, r,
                          best, f);
                with_points++;
            }
            nsdae_lcp_solution_set_free(s);
            checked++;
        }
    }
    cr_log_info("box rows: %d solved instances, %d compared with the enumeration", checked, with_points);
    cr_assert_geq(checked, 200);
}

/* Larger m, where the 3^m brute force is too slow: with z_ref = 0 every piece the enumeration
 * reports carries its minimal-norm point, so the best of them is the selection's optimum; the
 * branch and bound must reach it (this checks its pruning) and count the same solutions. */
Test(random, minnorm_matches_enumeration_larger_m)
{
    rng = 2024;
    if (getenv("NSDAE_TEST_SEED"))
        rng ^= strtoull(getenv("NSDAE_TEST_SEED"), NULL, 10) * 2654435761ULL;
    int compared = 0;
    for (int m = 10; m <= 12; m++) {
        for (int r = 0; r < 16; r++) {
            inst X;
            gen(&X, m, r % 8, 0);
            nsdae_mlcp p = {m, X.M, X.q, NULL, NULL, NULL};
            nsdae_lcp_solution_set *s = NULL;
            nsdae_error e = {0};
            cr_assert_eq(nsdae_lcp_enumerate(&p, &s, &e), NSDAE_OK, "%s", e.message);
            double best = INFINITY;
            for (int c = 0; c < s->count; c++) {
                double f = 0;
                for (int j = 0; j < m; j++)
                    f += 0.5 * s->pieces[c].z[j] * s->pieces[c].z[j];
                best = fmin(best, f);
            }
            double z[MAXN + 2], w[MAXN + 2];
            nsdae_minnorm_result res;
            nsdae_minnorm_spec spec = {.count_solutions = r % 2};
            nsdae_status st = nsdae_lcp_minnorm(&p, &spec, z, w, &res, &e);
            if (s->count == 0) {
                cr_assert_eq(st, NSDAE_NO_SOLUTION, "m=%d r=%d: %s", m, r, e.message);
            } else {
                cr_assert_eq(st, NSDAE_OK, "m=%d r=%d: %s", m, r, e.message);
                cr_assert(fabs(res.objective - best) <= 1e-8 * (1 + best), "m=%d r=%d family %d: %.15g vs %.15g", m,
                          r, r % 8, res.objective, best);
                if (spec.count_solutions)
                    cr_assert_eq(res.nsol, s->has_continuum ? -1 : s->count, "m=%d r=%d", m, r);
                compared++;
            }
            nsdae_lcp_solution_set_free(s);
        }
    }
    cr_assert_geq(compared, 12);
}

/* Rescaled copies: rows by r_i > 0, columns by c_j > 0 (10^U(-6,6)) give the problem
 * M' = Dr M Dc, q' = Dr q with z = Dc z'; with the objective mapped (z_ref' = z_ref / c,
 * Q' = Dc Q Dc) the selection must be the same point, objective and count. Factors rounded to
 * powers of two keep the scaled problem exact, so every family is compared; unrounded factors
 * perturb the data at rounding level, so only the well-posed families are. */
static void rescaled_run(int rounded)
{
    static const int per_m[9] = {0, 60, 60, 60, 60, 40, 30, 20, 10};
    int compared = 0;
    for (int m = 1; m <= 8; m++)
        for (int r = 0; r < per_m[m]; r++) {
            inst X;
            int family = r % 8;
            if (!rounded && !(family == 0 || family == 1 || family == 4 || family == 6))
                continue;
            int n_eq = (r % 5 == 3 && (family == 0 || family == 6) && m >= 2) ? 2 : 0;
            gen(&X, m + n_eq, family, n_eq);
            if (r % 3 == 1) {
                X.k = 0;
                for (int j = 0; j < X.N; j++)
                    if (irand(2))
                        X.sel[X.k++] = j;
                if (X.k == 0 || X.k == X.N)
                    X.k = 0;
            }
            int k = X.k ? X.k : X.N;
            X.useQ = 1;   /* the mapped objective needs an explicit weight */
            for (int a = 0; a < k; a++)
                X.Qd[a] = r % 2 ? 0.5 + (urand() + 1) : 1.0;
            for (int j = 0; j < X.N; j++)
                X.zref[j] = r % 4 ? urand() : 0;
            nsdae_minnorm_spec spec;
            int count = r % 2;
            make_spec(&X, &spec, count);
            int N = X.N;
            double dr[MAXN], dc[MAXN], Ms[MAXN * MAXN], qs[MAXN], zr[MAXN], Qs[MAXN * MAXN];
            for (int i = 0; i < N; i++) {
                dr[i] = pow(10, 6 * urand());
                dc[i] = pow(10, 6 * urand());
                if (rounded) {
                    dr[i] = ldexp(1, (int)lround(log2(dr[i])));
                    dc[i] = ldexp(1, (int)lround(log2(dc[i])));
                }
            }
            for (int j = 0; j < N; j++) {
                for (int i = 0; i < N; i++)
                    Ms[i + j * N] = dr[i] * X.M[i + j * N] * dc[j];
                qs[j] = dr[j] * X.q[j];
                zr[j] = X.zref[j] / dc[j];
            }
            for (int a = 0; a < spec.k; a++)
                for (int b = 0; b < spec.k; b++)
                    Qs[a + b * spec.k] = dc[spec.select[a]] * spec.Q[a + b * spec.k] * dc[spec.select[b]];
            nsdae_minnorm_spec sspec = spec;
            sspec.z_ref = zr;
            sspec.Q = Qs;
            nsdae_mlcp p = {N, X.M, X.q, X.kind, NULL, NULL}, ps = {N, Ms, qs, X.kind, NULL, NULL};
            double z[MAXN], w[MAXN], zs[MAXN], ws[MAXN];
            nsdae_minnorm_result res, rs;
            nsdae_error e = {0}, es = {0};
            nsdae_status st = nsdae_lcp_minnorm(&p, &spec, z, w, &res, &e);
            nsdae_status sts = nsdae_lcp_minnorm(&ps, &sspec, zs, ws, &rs, &es);
            cr_assert_eq(sts, st, "m=%d r=%d family %d rounded %d: status %d (%s) vs scaled %d (%s)", m, r, family,
                         rounded, st, e.message, sts, es.message);
            compared++;
            if (st != NSDAE_OK)
                continue;
            cr_assert(fabs(res.objective - rs.objective) <= 1e-8 * (1 + res.objective),
                      "m=%d r=%d family %d rounded %d: objective %.15g vs scaled %.15g", m, r, family, rounded,
                      res.objective, rs.objective);
            if (count)
                cr_assert_eq(res.nsol, rs.nsol, "m=%d r=%d family %d rounded %d: nsol %ld vs scaled %ld", m, r,
                             family, rounded, res.nsol, rs.nsol);
            if (res.unique && rs.unique) {
                double zmax = 0;
                for (int j = 0; j < N; j++)
                    zmax = fmax(zmax, fabs(z[j]));
                for (int j = 0; j < N; j++)
                    cr_assert(fabs(z[j] - dc[j] * zs[j]) <= 1e-7 * (1 + zmax),
                              "m=%d r=%d family %d rounded %d: z[%d] %.15g vs scaled %.15g", m, r, family, rounded, j,
                              z[j], dc[j] * zs[j]);
            }
        }
    cr_log_info("rescaled (rounded %d): %d instances compared", rounded, compared);
    cr_assert_geq(compared, rounded ? 250 : 100);
}

Test(random, rescaled_copies_same_answer_powers_of_two)
{
    rng = 777;
    rescaled_run(1);
}

Test(random, rescaled_copies_same_answer_any_factors)
{
    rng = 778;
    rescaled_run(0);
}

/* m <= 4: the pattern-enumeration fast path against the branch and bound alone (on the
 * unequilibrated data: also a check that equilibration changes no answer). */
Test(random, fast_path_matches_branch_and_bound)
{
    rng = 4242;
    int fast = 0, total = 0;
    for (int m = 1; m <= 4; m++)
        for (int r = 0; r < 240; r++) {
            inst X;
            int family = r % 8, n_eq = (r % 3 == 1 && (family == 0 || family == 6)) ? 1 + r % 2 : 0;
            gen(&X, m + n_eq, family, n_eq);
            if (r % 4 == 1) {
                X.k = 0;
                for (int j = 0; j < X.N; j++)
                    if (irand(2))
                        X.sel[X.k++] = j;
                if (X.k == X.N)
                    X.k = 0;
                if (X.k == 0 && X.N > 1)
                    X.sel[X.k++] = 0;
            }
            int k = X.k ? X.k : X.N;
            X.useQ = r % 5 == 2;
            for (int a = 0; a < k; a++)
                X.Qd[a] = X.useQ ? 0.5 + (urand() + 1) : 1.0;
            for (int j = 0; j < X.N; j++)
                X.zref[j] = r % 2 ? urand() : 0;
            nsdae_minnorm_spec spec;
            make_spec(&X, &spec, r % 3 != 0);
            nsdae_mlcp p = {X.N, X.M, X.q, X.kind, NULL, NULL};
            double z[MAXN], w[MAXN], zb[MAXN], wb[MAXN];
            nsdae_minnorm_result res, rb;
            nsdae_error e = {0}, eb = {0};
            nsdae_status st = nsdae_lcp_minnorm(&p, &spec, z, w, &res, &e);
            lcp_structure cache = {0};   /* the general path: structure shortcut, else branch and bound */
            nsdae_status stb = lcp_minnorm_bnb(&p, NULL, &spec, &cache, NULL, zb, wb, &rb, NULL, &eb);
            lcp_structure_free(&cache);
            cr_assert_eq(st, stb, "m=%d r=%d family %d: status %d (%s) vs branch and bound %d (%s)", m, r, family, st,
                         e.message, stb, eb.message);
            total++;
            fast += st == NSDAE_OK && res.leaves == 1L << m && res.nodes == 1;
            if (st != NSDAE_OK)
                continue;
            cr_assert(fabs(res.objective - rb.objective) <= 1e-8 * (1 + rb.objective),
                      "m=%d r=%d family %d: objective %.15g vs branch and bound %.15g", m, r, family, res.objective,
                      rb.objective);
            if (spec.count_solutions)
                cr_assert_eq(res.nsol, rb.nsol, "m=%d r=%d family %d: nsol %ld vs branch and bound %ld", m, r, family,
                             res.nsol, rb.nsol);
            cr_assert_eq(res.unique, rb.unique, "m=%d r=%d family %d: unique %d vs branch and bound %d", m, r, family,
                         res.unique, rb.unique);
        }
    cr_log_info("fast path vs branch and bound: %d instances, %d solved by the fast path", total, fast);
    cr_assert_geq(fast, total / 3);
}
