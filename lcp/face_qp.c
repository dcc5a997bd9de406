/* min 1/2 y'Hy + g'y over { y : G y + h >= 0 }, H positive semidefinite, by its KKT conditions
 * on one set of active rows after another, the smallest sets first.
 *
 * Why: a leaf piece's QP (piece.c) is solved by a KKT Lemke, in t and then in the pattern's
 * null-space coordinates. Where a box row splits into two pairs the reduced variables outnumber
 * z, so H (the norm of z in t) is singular, and in the equilibrated units its entries spanned
 * 6e-5 to 3.6e24: both Lemkes failed and the dual active-set method (dualqp.c) needs H positive
 * definite. That was the largest class of stop 25's fuzz_lcp refusals (166 of its 305 open
 * inputs failed there; with this route and the exact emptiness test of piece.c, 149 pass).
 * A convex QP's minimiser is a KKT point of the set of rows active there, and one whose active
 * rows are independent exists (Caratheodory on the multipliers), so trying every set of at most
 * d rows finds it: each try is one least-squares solve (SVD, rank relative to the largest
 * singular value) of the balanced KKT system, exact pivots or tolerances of no simplex involved.
 * A singular KKT system has solutions that differ only along directions where H is zero, so the
 * objective's value, and z, are the same on each.
 * Only for a few rows (FACE_QP_MAX_ROWS): the tries grow as 2^m. */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { FACE_QP_MAX_ROWS = 12 };

/* Columns and rows balanced to unit largest entry (powers of two: no rounding): variable j by
 * its largest entry in [sqrt(diag H); G], row i of G by its largest entry after that. */
static void balance(int d, int m, const double *H, const double *G, double *sv, double *sr)
{
    for (int j = 0; j < d; j++) {
        double c = sqrt(fabs(H[j + (size_t)j * d]));
        for (int i = 0; i < m; i++)
            c = fmax(c, fabs(G[i + (size_t)j * m]));
        sv[j] = c > 0 && isfinite(c) ? exp2(-round(log2(c))) : 1;
    }
    for (int i = 0; i < m; i++) {
        double c = 0;
        for (int j = 0; j < d; j++)
            c = fmax(c, fabs(G[i + (size_t)j * m] * sv[j]));
        sr[i] = c > 0 && isfinite(c) ? exp2(-round(log2(c))) : 0;   /* 0: a constant row */
    }
}

/* b - A x (rows x cols, lda = rows) summed in long double, into res: the refinements' residual. */
static void residual(int rows, int cols, const double *A, const double *b, const double *x, double *res)
{
    for (int a = 0; a < rows; a++) {
        long double s = b[a];
        for (int c = 0; c < cols; c++)
            s -= (long double)A[a + (size_t)c * rows] * x[c];
        res[a] = (double)s;
    }
}

/* lcp_lstsq, refined twice on the residual: a solution of size 1e12 from a system of condition
 * 1e9 otherwise missed its rows by 1e-9 of their terms. work: rows + cols doubles. Returns the
 * rank, -1 on LAPACK failure. */
static int lstsq_refined(int rows, int cols, const double *A, const double *b, double *x, double *N, double *work)
{
    double resid, *res = work, *dx = work + rows;
    int rank = lcp_lstsq(rows, cols, A, b, x, &resid, N);
    for (int it = 0; it < 2 && rank >= 0; it++) {
        residual(rows, cols, A, b, x, res);
        if (lcp_lstsq(rows, cols, A, res, dx, &resid, NULL) < 0)
            return -1;
        for (int c = 0; c < cols; c++)
            x[c] += dx[c];
    }
    return rank;
}

/* K x = rhs: by LU where K is well conditioned, else the least-squares solution of smallest norm
 * (lstsq_refined), then refined twice on the residual. Either solve is accurate relative to |rhs|
 * as a whole, and a minimiser 1e24 far along a row that multipliers of 500 balance lost those
 * multipliers in it (stationarity residual 505 on terms 505); refined, each row meets its own
 * terms. work: n^2 + 2 n doubles. 0 solved, -1 LAPACK failed. */
static int kkt_solve(int n, const double *K, const double *rhs, double *x, double *work, int *ipiv)
{
    double *res = work + (size_t)n * n, *dx = res + n;
    if (lcp_solve_square(n, K, rhs, x, work, ipiv) != 0)
        return lstsq_refined(n, n, K, rhs, x, NULL, res) < 0 ? -1 : 0;
    for (int it = 0; it < 2; it++) {
        residual(n, n, K, rhs, x, res);
        if (lcp_solve_square(n, K, res, dx, work, ipiv) != 0)
            return -1;
        for (int a = 0; a < n; a++)
            x[a] += dx[a];
    }
    return 0;
}

/* Every row of G y + h >= 0 at y, each to tol and to the rounding of its own terms. */
static int rows_hold(int d, int m, const double *G, const double *h, const double *y, double tol)
{
    for (int i = 0; i < m; i++) {
        double v = h[i], terms = fabs(h[i]);
        for (int j = 0; j < d; j++) {
            v += G[i + (size_t)j * m] * y[j];
            terms += fabs(G[i + (size_t)j * m] * y[j]);
        }
        if (!(v >= -tol - NSDAE_TOL_SIGN * terms))
            return 0;
    }
    return 1;
}

/* The KKT point of the active rows act[0..na): 1 found (y), 0 not a KKT point, -1 not decided
 * (the KKT system solved too inaccurately to tell). */
static int try_active(int d, int m, const double *H, const double *g, const double *G, const double *h,
                      const double *sv, const double *sr, const int *act, int na, double tol, double *y,
                      double *K, double *rhs, double *x, double *work, int *ipiv)
{
    int n = d + na;
    memset(K, 0, sizeof(double) * (size_t)n * n);
    for (int a = 0; a < d; a++) {
        for (int b = 0; b < d; b++)
            K[a + (size_t)b * n] = sv[a] * H[a + (size_t)b * d] * sv[b];
        rhs[a] = -sv[a] * g[a];
    }
    for (int c = 0; c < na; c++) {
        int i = act[c];
        for (int j = 0; j < d; j++) {
            double e = sr[i] * G[i + (size_t)j * m] * sv[j];
            K[d + c + (size_t)j * n] = e;
            K[j + (size_t)(d + c) * n] = e;
        }
        rhs[d + c] = -sr[i] * h[i];
    }
    if (kkt_solve(n, K, rhs, x, work, ipiv) != 0)
        return -1;
    for (int j = 0; j < d; j++)
        y[j] = sv[j] * x[j];
    /* stationarity and the active rows, each to its own terms */
    double gsize = 0;
    for (int a = 0; a < n; a++) {
        double s = rhs[a], terms = fabs(rhs[a]);
        for (int b = 0; b < n; b++) {
            s -= K[a + (size_t)b * n] * x[b];
            terms += fabs(K[a + (size_t)b * n] * x[b]);
        }
        if (fabs(s) > NSDAE_TOL_RESIDUAL * terms)
            return -1;
        if (a < d)
            gsize = fmax(gsize, terms);
    }
    /* multipliers: H y + g = -G_A' mu, so mu <= 0 (lambda = -mu >= 0), in the balanced units */
    for (int c = 0; c < na; c++)
        if (x[d + c] > NSDAE_TOL_SIGN * gsize)
            return 0;
    return rows_hold(d, m, G, h, y, tol);
}

/* The same KKT point by the null-space method, where the whole KKT system was solved too
 * inaccurately: y0 the active rows' minimal-norm solution and Z their null space (lcp_lstsq), the
 * objective minimised along Z, then the multipliers from stationarity, each by least squares on a
 * system of G's or H's scale alone. crash-ae3a... (fuzzing): rows -9.8e-10 y1 -/+ 0.707 y2 - 1.9
 * >= 0 fix y1 = -1.95e9 (a point z1 = 1e12 of the caller's), with multipliers 7.6e12 against
 * H11 = 3.8e-6; the KKT matrix mixing those lost stationarity (residual 0.0016 on terms 0.0016),
 * while the two rows alone have condition 1e9. Balanced units as try_active's. 1 found (y), 0 not
 * a KKT point, -1 out of memory or LAPACK failed. */
static int try_null_space(int d, int m, const double *H, const double *g, const double *G, const double *h,
                          const double *sv, const double *sr, const int *act, int na, double tol, double *y)
{
    size_t dd = (size_t)d * d;
    double *buf = malloc(sizeof(double) * (4 * dd + 2 * (size_t)na * d + 8 * (size_t)d + 4 * (size_t)na));
    if (!buf)
        return -1;
    double *Hb = buf, *Z = Hb + dd, *Hr = Z + dd, *HZ = Hr + dd, *A = HZ + dd, *At = A + (size_t)na * d,
           *yb = At + (size_t)na * d, *gb = yb + d, *r = gb + d, *u = r + d, *gr = u + d, *lam = gr + d,
           *b = lam + na, *work = b + na;
    int out = -1, rank = 0;
    for (int a = 0; a < d; a++) {
        gb[a] = sv[a] * g[a];
        for (int c = 0; c < d; c++)
            Hb[a + (size_t)c * d] = sv[a] * H[a + (size_t)c * d] * sv[c];
    }
    for (int c = 0; c < na; c++) {
        for (int j = 0; j < d; j++)
            A[c + (size_t)j * na] = At[j + (size_t)c * d] = sr[act[c]] * G[act[c] + (size_t)j * m] * sv[j];
        b[c] = -sr[act[c]] * h[act[c]];
    }
    if (na > 0 && (rank = lstsq_refined(na, d, A, b, yb, Z, work)) < 0)
        goto done;
    if (na == 0) {   /* no active row: y0 = 0, Z the identity */
        memset(yb, 0, sizeof(double) * (size_t)d);
        memset(Z, 0, sizeof(double) * dd);
        for (int a = 0; a < d; a++)
            Z[a + (size_t)a * d] = 1;
    }
    int nz = d - rank;
    if (nz > 0) {   /* Z'Hb Z u = -Z'(Hb y0 + gb) */
        for (int a = 0; a < d; a++)
            r[a] = gb[a] + lcp_dot(d, Hb + a, d, yb, 1);
        for (int e = 0; e < nz; e++)
            for (int a = 0; a < d; a++)
                HZ[a + (size_t)e * d] = lcp_dot(d, Hb + a, d, Z + (size_t)e * d, 1);
        for (int e = 0; e < nz; e++) {
            gr[e] = -lcp_dot(d, Z + (size_t)e * d, 1, r, 1);
            for (int f = 0; f < nz; f++)
                Hr[e + (size_t)f * nz] = lcp_dot(d, Z + (size_t)e * d, 1, HZ + (size_t)f * d, 1);
        }
        if (lstsq_refined(nz, nz, Hr, gr, u, NULL, work) < 0)
            goto done;
        for (int a = 0; a < d; a++)
            yb[a] += lcp_dot(nz, Z + a, d, u, 1);
    }
    out = 0;
    /* stationarity Hb yb + gb = Gb_A' lam, lam >= 0, each row to its own terms */
    for (int a = 0; a < d; a++)
        r[a] = gb[a] + lcp_dot(d, Hb + a, d, yb, 1);
    if (na > 0 && lstsq_refined(d, na, At, r, lam, NULL, work) < 0) {
        out = -1;
        goto done;
    }
    double gsize = 0;
    for (int a = 0; a < d; a++) {
        double s = r[a], terms = fabs(gb[a]);
        for (int c = 0; c < d; c++)
            terms += fabs(Hb[a + (size_t)c * d] * yb[c]);
        for (int c = 0; c < na; c++) {
            s -= At[a + (size_t)c * d] * lam[c];
            terms += fabs(At[a + (size_t)c * d] * lam[c]);
        }
        if (fabs(s) > NSDAE_TOL_RESIDUAL * terms)
            goto done;
        gsize = fmax(gsize, terms);
    }
    for (int c = 0; c < na; c++) {   /* the active rows hold as equalities */
        double v = -b[c], terms = fabs(b[c]);
        for (int j = 0; j < d; j++) {
            v += A[c + (size_t)j * na] * yb[j];
            terms += fabs(A[c + (size_t)j * na] * yb[j]);
        }
        if (fabs(v) > NSDAE_TOL_RESIDUAL * terms || lam[c] < -NSDAE_TOL_SIGN * gsize)
            goto done;
    }
    for (int j = 0; j < d; j++)
        y[j] = sv[j] * yb[j];
    out = rows_hold(d, m, G, h, y, tol);
done:
    free(buf);
    return out;
}

int lcp_face_qp(int d, int m, const double *H, const double *g, const double *G, const double *h, double tol,
                double *y, lcp_arena *ar)
{
    if (m > FACE_QP_MAX_ROWS || d < 1)
        return 2;
    int n = d + m;
    size_t nd = 2 * (size_t)n * n + 4 * (size_t)n + (size_t)d + (size_t)m, ni = 2 * (size_t)n + 1;
    double *buf = ar ? lcp_arena_doubles_uninit(ar, nd) : malloc(sizeof(double) * nd);
    int *act = ar ? lcp_arena_alloc_uninit(ar, sizeof(int) * ni) : malloc(sizeof(int) * ni), *ipiv = act + m;
    int st = 2;
    if (!buf || !act) {
        if (!ar) {
            free(buf);
            free(act);
        }
        return -1;
    }
    double *K = buf, *rhs = K + (size_t)n * n, *x = rhs + n, *sv = x + n, *sr = sv + d, *work = sr + m;
    balance(d, m, H, G, sv, sr);
    int maxa = d < m ? d : m;
    for (int na = 0; na <= maxa && st == 2; na++)
        for (unsigned mask = 0; mask < 1u << m && st == 2; mask++) {
            if (__builtin_popcount(mask) != na)
                continue;
            int c = 0, usable = 1;
            for (int i = 0; i < m; i++)
                if (mask >> i & 1) {
                    usable &= sr[i] > 0;
                    act[c++] = i;
                }
            if (!usable)
                continue;
            int found = try_active(d, m, H, g, G, h, sv, sr, act, na, tol, y, K, rhs, x, work, ipiv);
            if (found < 0)
                found = try_null_space(d, m, H, g, G, h, sv, sr, act, na, tol, y);
            if (found > 0)
                st = 0;
        }
    if (!ar) {
        free(buf);
        free(act);
    }
    return st;
}
