/* Lemke's complementary pivoting, dense tableau, lexicographic ratio test.
 *
 * Why our own rather than Siconos lcp_lexicolemke for the inner QPs: the branch and bound calls
 * it thousands of times per problem, and here it runs on caller-sized workspace without
 * allocation, setjmp guards or SolverOptions, with our tolerances, and it reports ray
 * termination (the proof of infeasibility for the monotone KKT systems) distinctly. Siconos
 * Lemke stays the independent cross-check in the tests. */
#include "internal.h"

#include <math.h>
#include <string.h>

int lcp_lemke_ws_init(lcp_lemke_ws *ws, int cap, lcp_arena *ar)
{
    /* not zeroed: every solve clears its tableau and writes the rest before reading it */
    ws->cap = cap;
    ws->T = lcp_arena_doubles_uninit(ar, (size_t)cap * (2 * (size_t)cap + 2) + 1);
    ws->basis = lcp_arena_alloc_uninit(ar, sizeof(int) * ((size_t)cap + 1));
    ws->B = lcp_arena_doubles_uninit(ar, (size_t)cap * cap + 1);
    ws->ipiv = lcp_arena_alloc_uninit(ar, sizeof(int) * ((size_t)cap + 1));
    ws->x = lcp_arena_doubles_uninit(ar, (size_t)cap + 1);
    ws->cols = lcp_arena_alloc_uninit(ar, sizeof(int) * (2 * (size_t)cap + 2));
    return ar->failed ? -1 : 0;
}

/* The pivot row's nonzero columns are gathered first: the KKT tableaus of the branch and bound
 * (qp.c) start as an identity beside a sparse constraint block and stay mostly zero, so the
 * elimination touches only those columns (deltasigma's nodes: about a fifth of the row). cols
 * has room for W entries. */
static void pivot(double *T, int N, int W, int r, int s, int *cols)
{
    double *pr = T + (size_t)r * W;
    double inv = 1.0 / pr[s];
    int nc = 0;
    for (int j = 0; j < W; j++)
        if (pr[j] != 0.0) {
            pr[j] *= inv;
            cols[nc++] = j;
        }
    pr[s] = 1.0;
    for (int i = 0; i < N; i++) {
        if (i == r)
            continue;
        double *pi = T + (size_t)i * W;
        double f = pi[s];
        if (f == 0.0)
            continue;
        for (int c = 0; c < nc; c++)
            pi[cols[c]] -= f * pr[cols[c]];
        pi[s] = 0.0;
    }
}

/* Row with the lexicographically smallest (rhs_i, Binv_i) / a_i over a_i > 0; -1 if none.
 * z0's row wins every tie, which is what ends the path. */
/* Pivots must exceed NSDAE_TOL_PIVOT relative to the column's largest entry, except in z0's
 * row, where the threshold is relative to the data: an ill-conditioned basis puts 1e8
 * entries in a column, and a column-relative threshold there rejects the genuine pivot that
 * ends the path (seen as false rays on nearly singular PSD problems), while elsewhere it is
 * what keeps rounding noise from being pivoted on. */
static int ratio_test(const double *T, int N, int W, int s, const int *basis, double ptol_data)
{
    int rhs = W - 1;
    double amax = 0;
    for (int i = 0; i < N; i++)
        amax = fmax(amax, fabs(T[(size_t)i * W + s]));
    double ptol_col = NSDAE_TOL_PIVOT * (amax > 1 ? amax : 1);
    int best = -1;
    double bratio = 0;
    for (int i = 0; i < N; i++) {
        double a = T[(size_t)i * W + s];
        if (a <= (basis[i] == 2 * N ? ptol_data : ptol_col))
            continue;
        double ratio = T[(size_t)i * W + rhs] / a;
        if (best < 0) {
            best = i;
            bratio = ratio;
            continue;
        }
        double tie = NSDAE_TOL_LEX * (1 + fabs(ratio) + fabs(bratio));
        if (ratio < bratio - tie) {
            best = i;
            bratio = ratio;
        } else if (ratio <= bratio + tie) {
            if (basis[best] == 2 * N)
                continue;
            if (basis[i] == 2 * N) {
                best = i;
                bratio = ratio;
                continue;
            }
            double ab = T[(size_t)best * W + s];
            for (int j = 0; j < N; j++) {
                double x = T[(size_t)i * W + j] / a, y = T[(size_t)best * W + j] / ab;
                double tj = NSDAE_TOL_LEX * (1 + fabs(x) + fabs(y));
                if (x < y - tj) {
                    best = i;
                    bratio = ratio;
                    break;
                }
                if (x > y + tj)
                    break;
            }
        }
    }
    return best;
}

int lcp_lemke(int N, const double *M, const double *q, double *z, lcp_lemke_ws *ws)
{
    if (N == 0)
        return 0;
    int W = 2 * N + 2, rhs = W - 1, z0 = 2 * N;
    double *T = ws->T;
    int *basis = ws->basis;
    int r = 0;
    for (int i = 1; i < N; i++)
        if (q[i] < q[r])
            r = i;
    memset(z, 0, sizeof(double) * (size_t)N);
    if (q[r] >= 0)
        return 0;
    memset(T, 0, sizeof(double) * (size_t)N * W);
    for (int i = 0; i < N; i++) {
        double *row = T + (size_t)i * W;
        row[i] = 1;
        for (int j = 0; j < N; j++)
            row[N + j] = -M[i + (size_t)j * N];
        row[z0] = -1;
        row[rhs] = q[i];
        basis[i] = i;
    }
    int leaving = basis[r];
    pivot(T, N, W, r, z0, ws->cols);
    basis[r] = z0;
    int status = 2;
    long maxpiv = (long)NSDAE_LEMKE_MAX_PIVOTS_FACTOR * N + 1000;
    double qmax = 0;
    for (int i = 0; i < N; i++)
        qmax = fmax(qmax, fabs(q[i]));
    double z0tol = NSDAE_TOL_LEX * (1 + qmax), mmax = 0;
    for (size_t i = 0; i < (size_t)N * N; i++)
        mmax = fmax(mmax, fabs(M[i]));
    double ptol = NSDAE_TOL_PIVOT * (1 + mmax);
    for (long it = 0; it < maxpiv; it++) {
        /* z0 down to rounding level: the basis already solves the LCP. In exact arithmetic
         * z0 would have left on a degenerate tie, rounding can keep it in at 1e-15. */
        int zr = -1;
        double bmax = 0;
        for (int i = 0; i < N; i++) {
            if (basis[i] == z0)
                zr = i;
            bmax = fmax(bmax, fabs(T[(size_t)i * W + rhs]));
        }
        if (zr >= 0 && T[(size_t)zr * W + rhs] <= z0tol + NSDAE_TOL_LEX * bmax) {
            status = 0;
            break;
        }
        int s = leaving < N ? leaving + N : leaving - N;
        r = ratio_test(T, N, W, s, basis, ptol);
        if (r < 0) {
            status = 1;
            break;
        }
        leaving = basis[r];
        pivot(T, N, W, r, s, ws->cols);
        basis[r] = s;
        if (leaving == z0) {
            status = 0;
            break;
        }
    }
    if (status != 0)
        return status;
    for (int i = 0; i < N; i++)
        if (basis[i] >= N && basis[i] < 2 * N)
            z[basis[i] - N] = fmax(0.0, T[(size_t)i * W + rhs]);
    /* Re-solve the final basis from the data: removes the round-off the pivots accumulated. */
    double *B = ws->B;
    for (int i = 0; i < N; i++) {
        int b = basis[i];
        for (int j = 0; j < N; j++)
            B[j + (size_t)i * N] = b < N ? (j == b) : b < 2 * N ? -M[j + (size_t)(b - N) * N] : -1.0;
    }
    /* the tableau is spent: its first N^2 entries take the LU, the next 4N (N^2 + 2N + 1 are
     * left) and cols (2N + 2 ints) LAPACK's condition estimate, so no call allocates */
    if (lcp_solve_square_buf(N, B, q, ws->x, ws->T, ws->ipiv, ws->T + (size_t)N * N, ws->cols) == 0) {
        double worst = 0;
        for (int i = 0; i < N; i++)
            worst = fmin(worst, ws->x[i]);
        if (worst >= -NSDAE_TOL_SIGN * (1 + qmax)) {
            memset(z, 0, sizeof(double) * (size_t)N);
            for (int i = 0; i < N; i++)
                if (basis[i] >= N && basis[i] < 2 * N)
                    z[basis[i] - N] = fmax(0.0, ws->x[i]);
        }
    }
    return 0;
}
