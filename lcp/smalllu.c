/* Dense LU for the tiny systems of the fast path (n <= LCP_FAST_MAX_N).
 *
 * Why not LAPACKE: the stepper solves 2^m systems of size n + m <= 12 per step, 10^4..10^6 steps;
 * at that size the LAPACKE wrapper's work-array allocation and the dispatch into OpenBLAS cost more
 * than the arithmetic (measured: several microseconds per call), and a textbook partial-pivoting LU
 * is as accurate as dgetrf for such sizes. */
#include "internal.h"

#include <math.h>

int lcp_small_lu(int n, double *A, int *piv)
{
    for (int k = 0; k < n; k++) {
        int p = k;
        double big = fabs(A[k + (size_t)k * n]);
        for (int i = k + 1; i < n; i++)
            if (fabs(A[i + (size_t)k * n]) > big) {
                big = fabs(A[i + (size_t)k * n]);
                p = i;
            }
        piv[k] = p;
        if (big == 0.0)
            return 1;
        if (p != k)
            for (int j = 0; j < n; j++) {
                double t = A[k + (size_t)j * n];
                A[k + (size_t)j * n] = A[p + (size_t)j * n];
                A[p + (size_t)j * n] = t;
            }
        double inv = 1.0 / A[k + (size_t)k * n];
        for (int i = k + 1; i < n; i++)
            A[i + (size_t)k * n] *= inv;
        for (int j = k + 1; j < n; j++) {
            double akj = A[k + (size_t)j * n];
            if (akj != 0.0)
                for (int i = k + 1; i < n; i++)
                    A[i + (size_t)j * n] -= A[i + (size_t)k * n] * akj;
        }
    }
    return 0;
}

void lcp_small_lu_solve(int n, const double *LU, const int *piv, double *b)
{
    for (int k = 0; k < n; k++) {
        int p = piv[k];
        if (p != k) {
            double t = b[k];
            b[k] = b[p];
            b[p] = t;
        }
    }
    for (int j = 0; j < n; j++) {
        double bj = b[j];
        if (bj != 0.0)
            for (int i = j + 1; i < n; i++)
                b[i] -= LU[i + (size_t)j * n] * bj;
    }
    for (int j = n - 1; j >= 0; j--) {
        b[j] /= LU[j + (size_t)j * n];
        double bj = b[j];
        if (bj != 0.0)
            for (int i = 0; i < j; i++)
                b[i] -= LU[i + (size_t)j * n] * bj;
    }
}

/* ||A^-1||_1 and ||A^-1||_inf from A^-1 built column by column; 0 when an entry is not finite */
static int inverse_norms(int n, const double *LU, const int *piv, double *norm1, double *norminf)
{
    double rows[LCP_FAST_MAX_N] = {0}, col[LCP_FAST_MAX_N];
    *norm1 = *norminf = 0;
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < n; i++)
            col[i] = i == j;
        lcp_small_lu_solve(n, LU, piv, col);
        double s = 0;
        for (int i = 0; i < n; i++) {
            s += fabs(col[i]);
            rows[i] += fabs(col[i]);
        }
        if (!isfinite(s))
            return 0;
        *norm1 = fmax(*norm1, s);
    }
    for (int i = 0; i < n; i++)
        *norminf = fmax(*norminf, rows[i]);
    return 1;
}

/* 2 gamma_3n |||L||U|||_inf ||A^-1||_inf: lcp_small_rcond's bound (internal.h) */
static double bound_of(int n, const double *LU, double inv_inf)
{
    double lu = 0;
    for (int i = 0; i < n; i++) {
        double s = 0;   /* row i of |L||U|: L unit lower (below the diagonal of LU), U upper */
        for (int j = 0; j < n; j++) {
            double e = 0;
            for (int k = 0; k <= (i < j ? i : j); k++)
                e += (k == i ? 1.0 : fabs(LU[i + (size_t)k * n])) * fabs(LU[k + (size_t)j * n]);
            s += e;
        }
        lu = fmax(lu, s);
    }
    double u = 0x1p-53, gamma = 3 * n * u / (1 - 3 * n * u);
    return 2 * gamma * lu * inv_inf;
}

double lcp_small_rcond(int n, const double *A, const double *LU, const int *piv, double *bound)
{
    double anorm = 0, inv1, invinf;
    if (bound)
        *bound = INFINITY;
    if (n > LCP_FAST_MAX_N || !inverse_norms(n, LU, piv, &inv1, &invinf))
        return 0;
    for (int j = 0; j < n; j++) {
        double s = 0;
        for (int i = 0; i < n; i++)
            s += fabs(A[i + (size_t)j * n]);
        anorm = fmax(anorm, s);
    }
    if (bound)
        *bound = bound_of(n, LU, invinf);
    return anorm > 0 && inv1 > 0 ? 1.0 / (anorm * inv1) : 0;
}
