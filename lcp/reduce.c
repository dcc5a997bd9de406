/* Elimination of the equality rows: the rest of the layer sees only complementarity pairs
 * (v_i(t), r_i(t)) over a reduced variable t. */
#include "internal.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

double lcp_red_v(const lcp_reduced *r, int i, const double *t)
{
    if (r->vunit)
        return t[i];
    return r->v0[i] + lcp_dot(r->k, r->V + i, r->m, t, 1);
}

double lcp_red_r(const lcp_reduced *r, int i, const double *t)
{
    return r->r0[i] + lcp_dot(r->k, r->R + i, r->m, t, 1);
}

void lcp_red_z(const lcp_reduced *r, const double *t, double *z)
{
    for (int j = 0; j < r->size; j++)
        z[j] = r->z0[j] + lcp_dot(r->k, r->Z + j, r->size, t, 1);
}

/* 64 eps: the rounding a sum of a few dozen terms can carry, relative to their magnitudes */
#define ROUNDING (64 * 2.220446049250313e-16)

/* Fills R, r0, Z, z0 from x = X t + x0 (X is nx x k). */
static void finish(const lcp_std *s, const double *X, const double *x0, lcp_reduced *r)
{
    int n = s->n, m = s->m, nx = s->nx, k = r->k;
    for (int i = 0; i < m; i++) {
        const double *arow = s->A + n + i;   /* stride nx */
        double c = s->c[n + i];
        for (int l = 0; l < nx; l++)
            c += arow[(size_t)l * nx] * x0[l];
        r->r0[i] = c;
        int constant = 1;
        for (int j = 0; j < k; j++) {
            double v = 0, vterms = 0;
            for (int l = 0; l < nx; l++) {
                v += arow[(size_t)l * nx] * X[l + (size_t)j * nx];
                vterms += fabs(arow[(size_t)l * nx] * X[l + (size_t)j * nx]);
            }
            r->R[i + (size_t)j * m] = v;
            constant &= fabs(v) <= ROUNDING * vterms;
        }
        if (constant)   /* rounding only: the equalities make r_i constant */
            for (int j = 0; j < k; j++)
                r->R[i + (size_t)j * m] = 0;
        if (!r->vunit) {
            r->v0[i] = x0[n + i];
            for (int j = 0; j < k; j++)
                r->V[i + (size_t)j * m] = X[n + i + (size_t)j * nx];
        }
    }
    for (int a = 0; a < s->size; a++) {
        int xi = s->zidx[a];
        r->z0[a] = s->zoff[a] + (xi >= 0 ? s->zsgn[a] * x0[xi] : 0.0);
        for (int j = 0; j < k; j++)
            r->Z[a + (size_t)j * s->size] = xi >= 0 ? s->zsgn[a] * X[xi + (size_t)j * nx] : 0.0;
    }
    double sc = 0;
    for (size_t i = 0; i < (size_t)m * k; i++)
        sc = fmax(sc, fabs(r->R[i]));
    for (int i = 0; i < m; i++)
        sc = fmax(sc, fabs(r->r0[i]));
    r->scale = 1.0 + sc;
    /* A constant row whose value is within the residual tolerance is zero, as a pattern whose
     * rows agree to that tolerance is consistent (piece.c): left at its value, the QPs of every
     * node hold r_i = 0 exactly and find it infeasible. crash-1f14...: q = 0 (z = 0 solves), and
     * a box (-inf, 1] shifts the equalities, whose particular point leaves r0 = 4e-12 on a row
     * the equalities make constant (1.3e-3 of its terms: the equality block's condition, not the
     * sum's rounding); the enumeration listed nothing. */
    for (int i = 0; i < m; i++) {
        int constant = fabs(r->r0[i]) <= NSDAE_TOL_RESIDUAL * r->scale;
        for (int j = 0; j < k && constant; j++)
            constant = r->R[i + (size_t)j * m] == 0;
        if (constant)
            r->r0[i] = 0;
    }
}

/* Two steps of iterative refinement of the general case's particular point x0 (A x0 = b) and of
 * its null basis N (A N = 0, nx x k), each correction the minimal-norm solution of the residual
 * through A's SVD (rank as lcp_lstsq's). Why: the SVD's point and basis are accurate normwise
 * only, relative to the equality block's condition, and every pattern of the enumeration and the
 * branch and bound inherits their error as constants of rows that must vanish exactly.
 * crash-a9ab...: 0 = -2 z1 - 1e-14 z2 + 3 z4 - 1, 0 = -2 z1 + 3e-8 z4, 0 = -2 z1 give z1 = z4 = 0
 * exactly; the SVD left z4 = 1.35e-8 (equilibrated units) where row 4 (w4 = -2 z1 - 3 z4, z4 >= 0)
 * needs z4 = 0 or w4 = 0, so every pattern failed. crash-5984... (q = 0, z = 0 solves): the null
 * directions of the free z3, z4, which enter no row, leaked 1.2e-12 into z1, z2, and x0 held
 * z2 = -3.7e-12, so w1 = 3.1e-12 on a row with no other term. A refinement step multiplies the
 * error by about cond(A) eps; the residual is computed in working precision, so the corrected
 * components are exact to the rounding of the rows that determine them. Only for a block whose
 * kept singular values span more than 1 / REFINE_BELOW: below that the SVD's error is a few
 * hundred ulps of |x0| at most, and a step would only move last bits that later decisions are
 * sensitive to (tests/lcp/test_monotone.c's diode bridge 20, n = 11 equality rows with singular
 * values 3.4 to 0.96, then answered with w14 = -4.9e-12 on a row of terms 4.9e-3, failing its
 * 1e-9; crash-f5f0..., rank 2 of 3 with singular values 6.1 and 1.6, listed a continuum again).
 * O(n nx^2) for the SVD, O(n nx) per vector and step. 0, or -1 on allocation or LAPACK failure. */
#define REFINE_BELOW 1e-3
static int refine_elimination(int n, int nx, const double *A, const double *b, double *x0, double *N, int k)
{
    int mn = n < nx ? n : nx;
    size_t need = (size_t)n * nx + (size_t)n * mn + (size_t)nx * nx + 2 * (size_t)mn + (size_t)n + (size_t)nx;
    double *buf = malloc(sizeof(double) * need);
    if (!buf)
        return -1;
    double *a = buf, *u = a + (size_t)n * nx, *vt = u + (size_t)n * mn, *sv = vt + (size_t)nx * nx;
    double *superb = sv + mn, *r = superb + mn, *c = r + n;
    memcpy(a, A, sizeof(double) * (size_t)n * nx);
    if (LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'S', 'A', n, nx, a, n, sv, u, n, vt, nx, superb) != 0) {
        free(buf);
        return -1;
    }
    int rank = lcp_svd_rank(sv, mn);
    if (rank == 0 || sv[rank - 1] >= REFINE_BELOW * sv[0]) {
        free(buf);
        return 0;
    }
    for (int v = 0; v <= k; v++) {   /* v = 0: x0 against b; then N's columns against 0 */
        double *x = v == 0 ? x0 : N + (size_t)(v - 1) * nx;
        for (int step = 0; step < 2; step++) {
            for (int i = 0; i < n; i++) {
                double ri = v == 0 ? b[i] : 0.0;
                for (int l = 0; l < nx; l++)
                    ri -= A[i + (size_t)l * n] * x[l];
                r[i] = ri;
            }
            for (int j = 0; j < rank; j++)
                c[j] = lcp_dot(n, u + (size_t)j * n, 1, r, 1) / sv[j];
            for (int l = 0; l < nx; l++)
                for (int j = 0; j < rank; j++)
                    x[l] += vt[j + (size_t)l * nx] * c[j];
        }
    }
    free(buf);
    return 0;
}

static int alloc_reduced(lcp_reduced *r, int size, int m, int k, lcp_arena *ar)
{
    r->size = size;
    r->m = m;
    r->k = k;
    r->V = lcp_arena_doubles(ar, (size_t)m * k + 1);
    r->v0 = lcp_arena_doubles(ar, (size_t)m + 1);
    r->R = lcp_arena_doubles(ar, (size_t)m * k + 1);
    r->r0 = lcp_arena_doubles(ar, (size_t)m + 1);
    r->Z = lcp_arena_doubles(ar, (size_t)size * k + 1);
    r->z0 = lcp_arena_doubles(ar, (size_t)size + 1);
    return ar->failed ? -1 : 0;
}

nsdae_status lcp_reduce(const lcp_std *s, lcp_arena *ar, lcp_reduced *r, nsdae_error *err)
{
    int n = s->n, m = s->m, nx = s->nx;
    memset(r, 0, sizeof *r);
    double *X = lcp_arena_doubles(ar, (size_t)nx * nx + 1), *x0 = lcp_arena_doubles(ar, (size_t)nx + 1);
    if (!X || !x0)
        return nsdae_error_set(err, NSDAE_NOMEM, "mlcp: out of memory reducing a problem of size %d", s->size);

    if (n == 0) {
        if (alloc_reduced(r, s->size, m, m, ar))
            return nsdae_error_set(err, NSDAE_NOMEM, "mlcp: out of memory");
        r->vunit = 1;
        r->exact = 1;
        for (int j = 0; j < m; j++)
            X[j + (size_t)j * nx] = 1;
        finish(s, X, x0, r);
        return NSDAE_OK;
    }

    /* Invertible equality block: u = -A_uu^{-1} (A_uv v + c_u), t = v. */
    double *Auu = lcp_arena_doubles(ar, (size_t)n * n), *work = lcp_arena_doubles(ar, (size_t)n * n);
    double *rhs = lcp_arena_doubles(ar, (size_t)n), *sol = lcp_arena_doubles(ar, (size_t)n);
    int *ipiv = lcp_arena_alloc(ar, sizeof(int) * (size_t)n);
    if (ar->failed)
        return nsdae_error_set(err, NSDAE_NOMEM, "mlcp: out of memory");
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            Auu[i + (size_t)j * n] = s->A[i + (size_t)j * nx];
    for (int i = 0; i < n; i++)
        rhs[i] = -s->c[i];
    if (lcp_solve_square(n, Auu, rhs, sol, work, ipiv) == 0) {
        if (alloc_reduced(r, s->size, m, m, ar))
            return nsdae_error_set(err, NSDAE_NOMEM, "mlcp: out of memory");
        r->vunit = 1;
        memcpy(x0, sol, sizeof(double) * (size_t)n);
        for (int j = 0; j < m; j++) {
            for (int i = 0; i < n; i++)
                X[i + (size_t)j * nx] = -s->A[i + (size_t)(n + j) * nx];
            X[n + j + (size_t)j * nx] = 1;
        }
        /* the LU factors of A_uu are still in work */
        if (m > 0 && LAPACKE_dgetrs(LAPACK_COL_MAJOR, 'N', n, m, work, n, ipiv, X, nx) != 0)
            return nsdae_error_set(err, NSDAE_NUMERICAL, "mlcp: back substitution in the equality block failed");
        finish(s, X, x0, r);
        return NSDAE_OK;
    }

    /* General case: x = x_p + N t over the null space of the equality rows. */
    double *Aeq = lcp_arena_doubles(ar, (size_t)n * nx), *N = lcp_arena_doubles(ar, (size_t)nx * nx);
    if (ar->failed)
        return nsdae_error_set(err, NSDAE_NOMEM, "mlcp: out of memory");
    for (int j = 0; j < nx; j++)
        for (int i = 0; i < n; i++)
            Aeq[i + (size_t)j * n] = s->A[i + (size_t)j * nx];
    double resid = 0, bnorm = 0;
    for (int i = 0; i < n; i++)
        bnorm = fmax(bnorm, fabs(rhs[i]));
    int rank = lcp_lstsq(n, nx, Aeq, rhs, x0, &resid, N);
    if (rank < 0)
        return nsdae_error_set(err, NSDAE_NUMERICAL, "mlcp: SVD of the %d equality rows failed", n);
    double anorm = 0;
    for (size_t i = 0; i < (size_t)n * nx; i++)
        anorm = fmax(anorm, fabs(Aeq[i]));
    if (resid > NSDAE_TOL_RESIDUAL * (1 + bnorm + anorm))
        return nsdae_error_set(err, NSDAE_NO_SOLUTION,
                               "mlcp: the equality rows are inconsistent (least-squares residual %.3g)", resid);
    int k = nx - rank;
    if (refine_elimination(n, nx, Aeq, rhs, x0, N, k))
        return nsdae_error_set(err, NSDAE_NUMERICAL, "mlcp: refining the elimination of the %d equality rows failed", n);
    if (alloc_reduced(r, s->size, m, k, ar))
        return nsdae_error_set(err, NSDAE_NOMEM, "mlcp: out of memory");
    r->vunit = 0;
    finish(s, N, x0, r);
    return NSDAE_OK;
}

/* A pair at V0 puts its variable at its end (0, lo, or hi for a box with only an upper end,
 * z = hi - x); of a box's two pairs (x = z - lo, then y with hi - lo - x), x at V0 is "at lo",
 * y's row at R0 "at hi"; everything else is free with w = 0. */
void lcp_caller_sides(const lcp_std *s, const signed char *st, int *side)
{
    for (int i = 0; i < s->size; i++)
        side[i] = s->zidx[i] < 0 ? -1 : 0;   /* a fixed variable (lo = hi) sits at lo */
    for (int c = 0; c < s->m; c++) {
        int i = s->crow[c];
        int second = c > 0 && s->crow[c - 1] == i;   /* a box's y pair */
        if (second) {
            if (st[c] == LCP_R0 && side[i] == 0)
                side[i] = 1;
        } else if (st[c] == LCP_V0) {
            side[i] = s->zsgn[i] < 0 ? 1 : -1;
        }
    }
}
