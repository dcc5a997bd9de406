/* Small dense linear algebra on top of LAPACKE, shared by every solver of the layer. */
#include "internal.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int lcp_same_point(int n, const double *a, const double *b)
{
    double d = 0, s = 0;
    for (int i = 0; i < n; i++) {
        d = lcp_keep_max(d, fabs(a[i] - b[i]));
        s = lcp_keep_max(lcp_keep_max(s, fabs(a[i])), fabs(b[i]));
    }
    return d <= NSDAE_TOL_SAME_SOLUTION * (1 + s);
}

int lcp_svd_rank(const double *s, int mn)
{
    int rank = 0;
    double cut = NSDAE_TOL_RANK * (mn > 0 && s[0] > 0 ? s[0] : 0);
    while (rank < mn && s[rank] > cut && s[rank] > 0)
        rank++;
    return rank;
}

double lcp_dot(int n, const double *a, int inca, const double *b, int incb)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += a[(size_t)i * inca] * b[(size_t)i * incb];
    return s;
}

enum { LSTSQ_SDD_MIN = 64, LSTSQ_STACK = 4096 /* doubles: 32 KB */ };

/* SVD-based rather than QR with pivoting: the rank decision for the degenerate patterns
 * (segments, repeated rows) must be reliable, and these systems are tiny. */
int lcp_lstsq(int rows, int cols, const double *A, const double *b, double *t, double *resid, double *N)
{
    int mn = rows < cols ? rows : cols;
    if (cols == 0) {
        double r = 0;
        for (int i = 0; i < rows; i++)
            r += b[i] * b[i];
        *resid = sqrt(r);
        return 0;
    }
    if (rows == 0) {
        memset(t, 0, sizeof(double) * (size_t)cols);
        *resid = 0;
        if (N) {
            memset(N, 0, sizeof(double) * (size_t)cols * cols);
            for (int j = 0; j < cols; j++)
                N[j + (size_t)j * cols] = 1;
        }
        return 0;
    }
    size_t need = (size_t)rows * cols + (size_t)rows * mn + (size_t)cols * cols + 2 * (size_t)mn + (size_t)rows;
    /* dgesvd's optimal work size, as LAPACKE_dgesvd asks it (the same size gives the same
     * numbers): small systems then take every array from the stack, none allocated per step of
     * the steppers' branch and bound (issue 12) */
    double lq = 0, dummy = 0;
    if (LAPACKE_dgesvd_work(LAPACK_COL_MAJOR, 'S', 'A', rows, cols, &dummy, rows, &dummy, &dummy, rows, &dummy, cols,
                            &lq, -1) != 0)
        return -1;
    lapack_int lwork = (lapack_int)lq;
    double stack[LSTSQ_STACK], *buf = stack;
    if (need + (size_t)lwork > LSTSQ_STACK && !(buf = malloc(sizeof(double) * (need + (size_t)lwork))))
        return -1;
    double *a = buf, *u = a + (size_t)rows * cols, *vt = u + (size_t)rows * mn, *s = vt + (size_t)cols * cols;
    double *utb = s + mn, *work = s + 2 * (size_t)mn + (size_t)rows;   /* utb: rank <= mn entries */
    memcpy(a, A, sizeof(double) * (size_t)rows * cols);
    /* Divide and conquer on the large systems that need no null-space basis (polishing a
     * branch-and-bound answer: deltasigma's 127 x 127 pattern took 47 M instructions by dgesvd,
     * 15 M by dgesdd); dgesvd elsewhere, and where dgesdd does not converge. */
    int info = 1;
    if (!N && mn >= LSTSQ_SDD_MIN) {
        info = LAPACKE_dgesdd(LAPACK_COL_MAJOR, 'S', rows, cols, a, rows, s, u, rows, vt, cols);
        if (info != 0)
            memcpy(a, A, sizeof(double) * (size_t)rows * cols);
    }
    if (info != 0)
        info = LAPACKE_dgesvd_work(LAPACK_COL_MAJOR, 'S', 'A', rows, cols, a, rows, s, u, rows, vt, cols, work, lwork);
    if (info != 0) {
        if (buf != stack)
            free(buf);
        return -1;
    }
    int rank = lcp_svd_rank(s, mn);
    for (int j = 0; j < rank; j++)
        utb[j] = lcp_dot(rows, u + (size_t)j * rows, 1, b, 1) / s[j];
    for (int i = 0; i < cols; i++) {
        double v = 0;
        for (int j = 0; j < rank; j++)
            v += vt[j + (size_t)i * cols] * utb[j];
        t[i] = v;
    }
    double r2 = 0;
    for (int i = 0; i < rows; i++) {
        double v = -b[i];
        for (int j = 0; j < cols; j++)
            v += A[i + (size_t)j * rows] * t[j];
        r2 += v * v;
    }
    *resid = sqrt(r2);
    if (N)
        for (int j = rank; j < cols; j++)
            for (int i = 0; i < cols; i++)
                N[i + (size_t)(j - rank) * cols] = vt[j + (size_t)i * cols];
    if (buf != stack)
        free(buf);
    return rank;
}

int lcp_solve_square_buf(int n, const double *A, const double *b, double *x, double *work_nn, int *ipiv,
                         double *work4, int *iwork)
{
    if (n == 0)
        return 0;
    memcpy(work_nn, A, sizeof(double) * (size_t)n * n);
    double anorm = 0;
    for (int j = 0; j < n; j++) {
        double s = 0;
        for (int i = 0; i < n; i++)
            s += fabs(A[i + (size_t)j * n]);
        anorm = fmax(anorm, s);
    }
    if (LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, work_nn, n, ipiv) != 0)
        return 1;
    /* Small systems: the exact 1-norm condition from the same factors first (smalllu.c). dgecon's
     * estimate of ||A^-1||_1 is a lower bound, so its rcond is at least the exact one: where the
     * exact one passes, dgecon would pass too and is not called (its dlatrs was a third of a small
     * enumeration: bench_lcp family (c), m = 1, 55 K -> 93 K instructions a call); elsewhere it
     * decides as it always did. The solution is dgetrs' either way. */
    int exact_passes = 0;
    if (n <= LCP_FAST_MAX_N) {
        int piv0[LCP_FAST_MAX_N];
        for (int k = 0; k < n; k++)
            piv0[k] = ipiv[k] - 1;
        exact_passes = lcp_small_rcond(n, A, work_nn, piv0, NULL) >= NSDAE_TOL_RCOND;
    }
    double rcond = 0;
    /* a NaN in A gives a NaN rcond, refused like an ill-conditioned one */
    if (!exact_passes && (LAPACKE_dgecon_work(LAPACK_COL_MAJOR, '1', n, work_nn, n, anorm, &rcond, work4, iwork) != 0 ||
                          !(rcond >= NSDAE_TOL_RCOND)))
        return 1;
    memcpy(x, b, sizeof(double) * (size_t)n);
    if (LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'N', n, 1, work_nn, n, ipiv, x, n) != 0)
        return 1;
    return 0;
}

int lcp_solve_square(int n, const double *A, const double *b, double *x, double *work_nn, int *ipiv)
{
    enum { STACK_N = 64 };   /* the steppers' sizes: no allocation per step (issue 12) */
    if (n == 0)
        return 0;
    if (n <= STACK_N) {
        double work4[4 * STACK_N];
        int iwork[STACK_N];
        return lcp_solve_square_buf(n, A, b, x, work_nn, ipiv, work4, iwork);
    }
    double *work4 = malloc(sizeof(double) * 4 * (size_t)n);
    int *iwork = malloc(sizeof(int) * (size_t)n);
    int r = work4 && iwork ? lcp_solve_square_buf(n, A, b, x, work_nn, ipiv, work4, iwork) : 1;
    free(work4);
    free(iwork);
    return r;
}

int lcp_sym_part_pd(int n, const double *A, double *work_nn)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            work_nn[i + (size_t)j * n] = 0.5 * (A[i + (size_t)j * n] + A[j + (size_t)i * n]);
    if (LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, work_nn, n) != 0)
        return 0;
    /* A barely positive pivot would make "unique" a rounding accident. */
    double dmax = 0, dmin = INFINITY;
    for (int i = 0; i < n; i++) {
        double d = work_nn[i + (size_t)i * n];
        dmax = fmax(dmax, d);
        dmin = fmin(dmin, d);
    }
    return dmin > NSDAE_TOL_PD_PIVOT * dmax;
}
