/* Minimal-norm selection on monotone MLCPs with a singular equality block: Siconos' diodeBridge20
 * and diodeBridge40 test files (tests/lcp/siconos_data, read here by a parser of their plain
 * format). What is asserted comes from outside the solver:
 *  - the answer passes a per-row check written here (each row against its own terms);
 *  - the answer satisfies the first-order condition of minimality over the face of the solution
 *    set it lies on: every direction d that keeps the equality rows, the rows with w_i = 0
 *    (z_i > 0) and the rows with z_i = 0 (w_i > 0) satisfied moves along solutions (the strictly
 *    positive rows stay positive for small steps), so |z + s d| >= |z| for small s of both signs
 *    needs z'd = 0; the directions are the null space of those rows (LAPACK SVD, here);
 *  - one ulp of q (nextafter, up and down) does not change the answer beyond 1e-9: the verdict
 *    must not hinge on the last bit (the sanitizer build's rounding used to turn diodeBridge20
 *    from right to no answer). */
#include <criterion/criterion.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <nsdae/lcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct mlcp_file {
    int n, m, N;
    double *M, *q;   /* column-major */
    nsdae_row_kind *kind;
} mlcp_file;

/* Siconos' MLCP text format: the 3rd and 4th lines are n (equality rows, first) and m, then a
 * line "N N" followed by M row by row and q. */
static void load(const char *name, mlcp_file *f)
{
    char path[512];
    snprintf(path, sizeof path, "%s/tests/lcp/siconos_data/%s", NSDAE_SOURCE_DIR, name);
    FILE *fp = fopen(path, "r");
    cr_assert(fp, "cannot open %s", path);
    char line[65536];
    int lineno = 0, found = 0;
    while (!found && fgets(line, sizeof line, fp)) {
        lineno++;
        int a, b;
        if (lineno == 3)
            f->n = atoi(line);
        if (lineno == 4) {
            f->m = atoi(line);
            f->N = f->n + f->m;
        }
        found = lineno > 4 && sscanf(line, "%d %d", &a, &b) == 2 && a == f->N && b == f->N;
    }
    cr_assert(found, "no matrix header in %s", path);
    int N = f->N;
    f->M = malloc(sizeof(double) * (size_t)N * N);
    f->q = malloc(sizeof(double) * (size_t)N);
    f->kind = malloc(sizeof(nsdae_row_kind) * (size_t)N);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            cr_assert(fscanf(fp, "%lf", &f->M[i + (size_t)j * N]) == 1);
    for (int i = 0; i < N; i++) {
        cr_assert(fscanf(fp, "%lf", &f->q[i]) == 1);
        f->kind[i] = i < f->n ? NSDAE_ROW_EQUALITY : NSDAE_ROW_COMPLEMENTARITY;
    }
    fclose(fp);
}

static void unload(mlcp_file *f)
{
    free(f->M);
    free(f->q);
    free(f->kind);
}

static double row_terms(const mlcp_file *f, const double *q, const double *z, int i, double *w)
{
    double s = fabs(q[i]), v = q[i];
    for (int j = 0; j < f->N; j++) {
        v += f->M[i + (size_t)j * f->N] * z[j];
        s += fabs(f->M[i + (size_t)j * f->N] * z[j]);
    }
    *w = v;
    return s;
}

/* Each row against its own terms: equalities |w_i| <= 1e-9 s_i; complementarity z_i >= 0 and
 * w_i >= 0 to that tolerance, and z_i w_i = 0: either w_i small against its row's terms or z_i
 * small against the largest |z|. A row whose terms cancel is held to the rounding any computed z
 * carries: 64 N eps times the largest term a z_j makes in its column (a few ulps of each z_j). */
static void assert_rows(const mlcp_file *f, const double *q, const double *z)
{
    double zmax = 0, zterm = 0;
    for (int j = 0; j < f->N; j++) {
        zmax = fmax(zmax, fabs(z[j]));
        for (int k = 0; k < f->N; k++)
            zterm = fmax(zterm, fabs(f->M[k + (size_t)j * f->N] * z[j]));
    }
    double floor = 64 * f->N * DBL_EPSILON * zterm;
    for (int i = 0; i < f->N; i++) {
        double w, s = row_terms(f, q, z, i, &w), tol = 1e-9 * s + floor;
        cr_assert(isfinite(w) && isfinite(z[i]));
        if (i < f->n) {
            cr_assert(fabs(w) <= tol, "equality row %d: w = %g, terms %g", i, w, s);
            continue;
        }
        cr_assert(w >= -tol && z[i] >= -1e-9 * zmax, "row %d: z = %g, w = %g", i, z[i], w);
        cr_assert(fabs(w) <= tol || fabs(z[i]) <= 1e-9 * zmax, "row %d not complementary: z = %g, w = %g", i, z[i], w);
    }
}

/* max |d'z| / |z| over an orthonormal basis d of the directions that keep z's face */
static double face_gradient(const mlcp_file *f, const double *z)
{
    int N = f->N, rows = 0;
    double *A = calloc((size_t)2 * N * N, sizeof(double)), zmax = 0;
    for (int j = 0; j < N; j++)
        zmax = fmax(zmax, fabs(z[j]));
    for (int i = 0; i < N; i++) {
        double w, s = row_terms(f, f->q, z, i, &w);
        int w_zero = i < f->n || fabs(w) <= 1e-7 * s + 1e-12;
        int z_zero = i >= f->n && fabs(z[i]) <= 1e-7 * zmax;
        cr_assert(w_zero || z_zero);
        if (w_zero) {
            for (int j = 0; j < N; j++)
                A[rows + (size_t)j * 2 * N] = f->M[i + (size_t)j * N];
            rows++;
        }
        if (z_zero)
            A[rows++ + (size_t)i * 2 * N] = 1;
    }
    double *s = malloc(sizeof(double) * (size_t)N), *vt = malloc(sizeof(double) * (size_t)N * N);
    double *superb = malloc(sizeof(double) * (size_t)N);
    int info = LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'N', 'A', rows, N, A, 2 * N, s, NULL, 1, vt, N, superb);
    cr_assert(info == 0);
    int mn = rows < N ? rows : N, rank = 0;
    for (int a = 0; a < mn; a++)
        rank += s[a] > 1e-10 * s[0];
    double worst = 0, zn = 0;
    for (int j = 0; j < N; j++)
        zn += z[j] * z[j];
    zn = sqrt(zn);
    for (int a = rank; a < N; a++) {   /* rows of vt beyond the rank: the null space */
        double d = 0;
        for (int j = 0; j < N; j++)
            d += vt[a + (size_t)j * N] * z[j];
        worst = fmax(worst, fabs(d) / zn);
    }
    free(A);
    free(s);
    free(vt);
    free(superb);
    return worst;
}

static void solve(const mlcp_file *f, const double *q, double *z)
{
    nsdae_mlcp p = {f->N, f->M, q, f->kind, NULL, NULL};
    double *w = malloc(sizeof(double) * (size_t)f->N);
    nsdae_error err = {0};
    nsdae_minnorm_result res;
    nsdae_status st = nsdae_lcp_minnorm(&p, NULL, z, w, &res, &err);
    cr_assert(st == NSDAE_OK, "minnorm: %s", err.message);
    free(w);
}

static void check_file(const char *name)
{
    mlcp_file f;
    load(name, &f);
    int N = f.N;
    double *z = malloc(sizeof(double) * (size_t)N), *z2 = malloc(sizeof(double) * (size_t)N);
    double *q2 = malloc(sizeof(double) * (size_t)N);
    solve(&f, f.q, z);
    assert_rows(&f, f.q, z);
    double g = face_gradient(&f, z);
    cr_expect(g <= 1e-7, "%s: not minimal on its face: |d'z|/|z| = %g", name, g);
    for (int dir = -1; dir <= 1; dir += 2) {
        for (int i = 0; i < N; i++)
            q2[i] = f.q[i] != 0 ? nextafter(f.q[i], dir * INFINITY) : 0.0;
        solve(&f, q2, z2);
        assert_rows(&f, q2, z2);
        double zmax = 0, diff = 0;
        for (int j = 0; j < N; j++) {
            zmax = fmax(zmax, fabs(z[j]));
            diff = fmax(diff, fabs(z2[j] - z[j]));
        }
        cr_expect(diff <= 1e-9 * (1 + zmax), "%s: one ulp of q (%+d) moved the answer by %g", name, dir, diff);
    }
    free(z);
    free(z2);
    free(q2);
    unload(&f);
}

Test(monotone, diode_bridge_20_minimal_on_its_face_and_stable_under_one_ulp)
{
    check_file("diodeBridge20_mlcp.dat");
}

Test(monotone, diode_bridge_40_minimal_on_its_face_and_stable_under_one_ulp)
{
    check_file("diodeBridge40_mlcp.dat");
}
