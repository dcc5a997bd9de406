/* The fast path's forward-error bound (smalllu.c, lcp_small_rcond's bound): Higham's
 * |x^ - x|_inf <= gamma_3n |||L||U|||_inf ||A^-1||_inf |x^|_inf (Accuracy and Stability of
 * Numerical Algorithms, 2nd ed., Thm 9.4), doubled. The fast path discards a pattern without
 * refining it only when its unrefined point breaks a sign condition by more than this bound
 * (fast.c, clearly_infeasible), so a bound below the true error would drop solutions.
 *
 * The systems have integer data and an integer solution, so b = A x is exact in double and the
 * true error of the computed x^ is known exactly. */
#include <criterion/criterion.h>
#include <math.h>

#include "internal.h"
#include "xorshift.h"

/* an integer in [lo, hi] */
static double rand_int(uint64_t *s, int lo, int hi)
{
    double v = floor(lo + (xorshift_uniform(s) + 1) / 2 * (hi - lo + 1));
    return fmin(v, hi);
}

static double solve_error(int n, const double *A, const double *x, double *bound)
{
    double LU[LCP_FAST_MAX_N * LCP_FAST_MAX_N], b[LCP_FAST_MAX_N], err = 0, xmax = 0;
    int piv[LCP_FAST_MAX_N];
    for (int i = 0; i < n * n; i++)
        LU[i] = A[i];
    cr_assert_eq(lcp_small_lu(n, LU, piv), 0);
    for (int i = 0; i < n; i++) {
        b[i] = 0;
        for (int j = 0; j < n; j++)
            b[i] += A[i + j * n] * x[j];
    }
    lcp_small_lu_solve(n, LU, piv, b);
    for (int i = 0; i < n; i++) {
        err = fmax(err, fabs(b[i] - x[i]));
        xmax = fmax(xmax, fabs(b[i]));
    }
    double beta;
    lcp_small_rcond(n, A, LU, piv, &beta);
    *bound = beta * xmax;
    return err;
}

/* lcm(1..2n-1) / (i + j + 1): the Hilbert matrix times an integer, integer itself (n <= 10) */
static void integer_hilbert(int n, double *A)
{
    long l = 1;
    for (long k = 2; k <= 2 * n - 1; k++) {
        long a = l, c = k;
        while (c) {
            long t = a % c;
            a = c;
            c = t;
        }
        l = l / a * k;
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            A[i + j * n] = (double)(l / (i + j + 1));
}

Test(small_lu, the_bound_of_a_diagonal_matrix_is_the_formula)
{
    /* L = I, U = A: |||L||U|||_inf = 4, ||A^-1||_inf = 1/2, so beta = 2 gamma_6 4 / 2 */
    double LU[4] = {2, 0, 0, 4}, u = 0x1p-53, gamma6 = 6 * u / (1 - 6 * u), beta;
    int piv[2] = {0, 1};
    lcp_small_rcond(2, LU, LU, piv, &beta);   /* A = LU here */
    cr_assert_float_eq(beta, 4 * gamma6, 1e-30);
}

Test(small_lu, the_bound_holds_on_hilbert_matrices)
{
    /* cond_inf(H_10) ~ 3.5e13: the computed x^ is wrong in its leading digits, the bound must
     * still cover it (and stays informative, below 1, up to n = 8) */
    for (int n = 3; n <= 10; n++) {
        double A[LCP_FAST_MAX_N * LCP_FAST_MAX_N], x[LCP_FAST_MAX_N], bound;
        integer_hilbert(n, A);
        for (int i = 0; i < n; i++)
            x[i] = (i % 3) - 1 + (i == 0);
        double err = solve_error(n, A, x, &bound);
        cr_assert(err <= bound, "n = %d: error %g above the bound %g", n, err, bound);
        if (n <= 8)
            cr_assert(bound < 1, "n = %d: bound %g", n, bound);
        if (n >= 8)
            cr_assert(err > 1e-9, "n = %d: the case is meant to be inaccurate (error %g)", n, err);
    }
}

Test(small_lu, the_bound_holds_on_random_integer_systems)
{
    uint64_t s = 0x5eed5eedULL;
    for (int t = 0; t < 2000; t++) {
        int n = (int)rand_int(&s, 1, 12);
        double A[LCP_FAST_MAX_N * LCP_FAST_MAX_N], x[LCP_FAST_MAX_N], bound;
        for (int i = 0; i < n * n; i++)
            A[i] = rand_int(&s, -1000, 1000);
        /* nearly dependent rows now and then: row 0 := row 1 + a unit in one entry */
        if (n > 2 && t % 4 == 0)
            for (int j = 0; j < n; j++)
                A[0 + j * n] = A[1 + j * n] + (j == t % n);
        for (int i = 0; i < n; i++)
            x[i] = rand_int(&s, -100, 100);
        double LU[LCP_FAST_MAX_N * LCP_FAST_MAX_N];
        int piv[LCP_FAST_MAX_N];
        for (int i = 0; i < n * n; i++)
            LU[i] = A[i];
        if (lcp_small_lu(n, LU, piv))
            continue;   /* exactly singular */
        double err = solve_error(n, A, x, &bound);
        cr_assert(err <= bound, "case %d (n = %d): error %g above the bound %g", t, n, err, bound);
    }
}
