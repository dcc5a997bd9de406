/* Polishing an answer on its own pattern, in the caller's rows.
 *
 * Why: the branch and bound works in reduced coordinates (box rows split, offsets lo + x), where
 * a box variable is carried as its distance to a bound. When the bound is large next to the
 * answer, the answer drowns in that offset: on relay_two_states' step from x = (1.1e-19, 0)
 * (equilibrated, the relay bounds become +-2^63 next to q ~ 1) the selected point comes back as
 * z = 0 with w_0 = -1.02, a violation of size one of row 0's own terms (the true answer has
 * lambda_1 = -5.55e-17, which z = lo + x cannot represent). The pattern is right, only the
 * arithmetic of the representation is not: solving the pattern's own equations on the problem's
 * rows gives the answer to rounding (residual 0 there). */
#include "internal.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Scales the rows x cols system A x = b (lda = rows) in place, columns then rows to a largest
 * entry in [1/2, 1) by powers of two (exact); dc receives the column factors (x = dc y, y the
 * scaled system's solution). Why: lcp_lstsq's rank cut is relative to the largest singular value,
 * so in the caller's units the equalities 1e-7 z1 + 1e6 = 0 (twice) next to
 * -0.5 z1 + 1e6 z2 - 1e-6 z3 = 0 lose z1's direction (singular value 1.4e-7 next to 1e6: rank 1)
 * and the far point z = (-1e13, -5e6, 0), the solution, re-solved with a residual of size one
 * and was refused (fuzzing, crash-76a5...). Equilibrated, the rank is 2, that system's. Only a
 * second try (lcp_pattern_point_scaled): in place of the first, a diode bridge step at h = 1e-8
 * (tests/lcp/test_scaling.c) had no solution left. */
static void equilibrate(int rows, int cols, double *A, double *b, double *dc)
{
    for (int c = 0; c < cols; c++) {
        double mx = 0;
        for (int r = 0; r < rows; r++)
            mx = fmax(mx, fabs(A[r + (size_t)c * rows]));
        int e = 0;
        if (mx > 0 && isfinite(mx))
            frexp(mx, &e);
        dc[c] = ldexp(1.0, -e);
        for (int r = 0; r < rows; r++)
            A[r + (size_t)c * rows] *= dc[c];
    }
    for (int r = 0; r < rows; r++) {
        double mx = 0;
        for (int c = 0; c < cols; c++)
            mx = fmax(mx, fabs(A[r + (size_t)c * rows]));
        if (!(mx > 0 && isfinite(mx)))
            continue;
        int e;
        frexp(mx, &e);
        double f = ldexp(1.0, -e);
        for (int c = 0; c < cols; c++)
            A[r + (size_t)c * rows] *= f;
        b[r] *= f;
    }
}

/* The same balance by Ruiz's iteration (each row and column divided by the square root of its
 * largest entry, in powers of two, until both are near 1): the one pass above, columns first,
 * lets a column's large entry in one row make its entries elsewhere noise. crash-0fa6...: the
 * rows 1e-7 z1 - 1e-6 z2 - 3 = 0 and 1e-7 (z1 + z2) = 0 next to -3e8 z2 + 10 z4 = 0 become
 * [1, 3e-14] and [1, 3e-15] once z2's column is divided by its 3e8: rank 2 of 3, and the
 * solution (2.7e6, -2.7e6, 0, -8.2e13) was refused as a far point whose pattern fails.
 * ruiz_step divides n entries (at stride) by the power of two nearest the square root of their
 * largest magnitude and returns that factor (1 for zeros). */
static double ruiz_step(double *v, int n, size_t stride)
{
    double mx = 0;
    for (int i = 0; i < n; i++)
        mx = fmax(mx, fabs(v[(size_t)i * stride]));
    if (!(mx > 0 && isfinite(mx)))
        return 1.0;
    double f = exp2(-round(0.5 * log2(mx)));
    for (int i = 0; i < n; i++)
        v[(size_t)i * stride] *= f;
    return f;
}

void lcp_equilibrate_ruiz(int rows, int cols, double *A, double *b, double *dc)
{
    for (int c = 0; c < cols; c++)
        dc[c] = 1.0;
    for (int sweep = 0, moved = 1; sweep < 32 && moved; sweep++) {
        moved = 0;
        for (int r = 0; r < rows; r++) {
            double f = ruiz_step(A + r, cols, (size_t)rows);
            b[r] *= f;
            moved |= f != 1.0;
        }
        for (int c = 0; c < cols; c++) {
            double f = ruiz_step(A + (size_t)c * rows, rows, 1);
            dc[c] *= f;
            moved |= f != 1.0;
        }
    }
}

/* Is z_i exactly at one of its ends (0, or a box's lo or hi) with w_i within the rounding of its
 * row's terms (64 N eps of |q_i| + sum_j |M_ij z_j|)? */
static int at_corner(const nsdae_mlcp *p, int i, const double *z, double wi)
{
    int N = p->size;
    nsdae_row_kind k = p->kind ? p->kind[i] : NSDAE_ROW_COMPLEMENTARITY;
    int at_end = k == NSDAE_ROW_BOX ? z[i] == p->lo[i] || z[i] == p->hi[i] : z[i] == 0.0;
    if (!at_end)
        return 0;
    double terms = fabs(p->q[i]);
    for (int j = 0; j < N; j++)
        terms += fabs(p->M[i + (size_t)j * N] * z[j]);
    return fabs(wi) <= 64 * N * 2.220446049250313e-16 * terms;
}

void lcp_pattern_sides(const nsdae_mlcp *p, const double *z, const double *w, int *side)
{
    for (int i = 0; i < p->size; i++) {
        side[i] = lcp_active_side(p, i, z[i], w[i]);
        nsdae_row_kind k = p->kind ? p->kind[i] : NSDAE_ROW_COMPLEMENTARITY;
        /* A row at a corner (z_i exactly at an end, w_i zero to the rounding of its terms) keeps
         * both: fixed at its end (side -2 or 2) and among the rows that vanish. Either alone lets
         * the pattern's minimal-norm point go where the point is not: crash-f729... (1e-7 z1 = z2,
         * z2 in [0.5, 1.5] with a zero row, solution (5e6, 0.5, 0, 0)) re-solved with z2 free to
         * z1 = z2 ~ 0, below lo; crash-9352... (z2 = 0 with w2 = 1e-7 (z2 + z4) - 1e-14 = 0,
         * solution z4 = 1e-7) re-solves with z2 fixed alone to z4 = 0, w2 < 0. Which of the two
         * lcp_active_side picks at such a tie depends on the last bit of w_i. */
        if (k != NSDAE_ROW_EQUALITY && at_corner(p, i, z, w[i]))
            side[i] = z[i] == (k == NSDAE_ROW_BOX ? p->lo[i] : 0.0) ? -2 : 2;
    }
}

/* Are the rows A x = b (rows x cols, lda = rows) consistent, decided on the data: for every
 * dependency among the rows (a left null vector y of A, entries at the rank cut taken as zeros),
 * y'b within NSDAE_TOL_RESIDUAL of sum |y_i b_i|, the size of the right-hand sides it combines.
 * Not the least-squares residual against |b| or the terms at its point: crash-499e...'s rows
 * 1e-7 (z1 + z2 + z3) = -1e-7 and = 0 contradict by a residual of size one of their own, hidden
 * next to a row of 1e14. 1 consistent, 0 not, -1 allocation or LAPACK failure. */
static int rows_consistent(int rows, int cols, const double *A, const double *b)
{
    int mn = rows < cols ? rows : cols;
    double *buf = malloc(sizeof(double) * ((size_t)rows * cols + (size_t)rows * rows + 2 * (size_t)mn + 1));
    if (!buf)
        return -1;
    double *a = buf, *u = a + (size_t)rows * cols, *sv = u + (size_t)rows * rows, *superb = sv + mn, vt;
    memcpy(a, A, sizeof(double) * (size_t)rows * cols);
    int ok = -1;
    if (LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'A', 'N', rows, cols, a, rows, sv, u, rows, &vt, 1, superb) == 0) {
        ok = 1;
        for (int c = lcp_svd_rank(sv, mn); c < rows && ok; c++) {
            const double *y = u + (size_t)c * rows;   /* unit norm */
            double yb = 0, size = 0;
            for (int r = 0; r < rows; r++)
                if (fabs(y[r]) > NSDAE_TOL_RANK) {
                    yb += y[r] * b[r];
                    size += fabs(y[r] * b[r]);
                }
            ok = fabs(yb) <= NSDAE_TOL_RESIDUAL * size;
        }
    }
    free(buf);
    return ok;
}

/* Solving on a pattern, shared by polishing and by re-solving a far point: the pattern of (z, w)
 * (w NULL: computed here) or the one given (lcp_active_side's values per row), the fixed components exactly at their ends in zp, the free ones moved
 * by the minimal-norm least-squares solution of the rows that must vanish, starting from z's own
 * values (keep_free) or from 0 (the pattern's minimal-norm point). zp may be z. */
static int pattern_solve(const nsdae_mlcp *p, const double *z, const double *w, const int *given, double *zp,
                         int keep_free, int scaled, int *square)
{
    int N = p->size;
    size_t n = (size_t)N;
    double *buf = malloc(sizeof(double) * (2 * n * n + 3 * n + 1));
    int *side = malloc(sizeof(int) * (3 * n + 1));
    if (!buf || !side) {
        free(buf);
        free(side);
        return -1;
    }
    double *A = buf, *b = A + n * n, *dz = b + n, *wf = dz + n;   /* then n x n: the LU's */
    int *freecol = side + n;

    /* 1. the pattern of the point; the fixed components exactly at their ends */
    if (!w) {
        lcp_caller_w(p, z, wf);
        w = wf;
    }
    int nf = 0, nr = 0;
    if (given)
        memcpy(side, given, sizeof(int) * n);
    else
        lcp_pattern_sides(p, z, w, side);
    for (int i = 0; i < N; i++) {
        nsdae_row_kind k = p->kind ? p->kind[i] : NSDAE_ROW_COMPLEMENTARITY;
        if (side[i] < 0)
            zp[i] = k == NSDAE_ROW_BOX ? p->lo[i] : 0.0;
        else if (side[i] > 0)
            zp[i] = p->hi[i];
        else {
            zp[i] = keep_free ? z[i] : 0.0;
            freecol[nf++] = i;
        }
    }
    /* 2. the rows that must vanish, over the free components: min-norm correction dz */
    lcp_caller_w(p, zp, wf);
    for (int i = 0; i < N; i++) {
        if (side[i] != 0 && abs(side[i]) != 2)
            continue;
        for (int c = 0; c < nf; c++)
            A[nr + (size_t)c * n] = p->M[i + (size_t)freecol[c] * n];
        b[nr++] = -wf[i];
    }
    /* lcp_lstsq reads A with leading dimension nr: compact the columns */
    for (int c = 1; c < nf; c++)
        memmove(A + (size_t)c * nr, A + (size_t)c * n, sizeof(double) * (size_t)nr);
    double *dc = wf;   /* wf is no longer needed */
    for (int c = 0; c < nf; c++)
        dc[c] = 1.0;
    if (scaled >= 2)
        lcp_equilibrate_ruiz(nr, nf, A, b, dc);
    else if (scaled)
        equilibrate(nr, nf, A, b, dc);
    if (scaled == 3) {   /* a continuum whose rows that vanish are consistent (lcp_pattern_continuum) */
        double res;
        int rank = nr > 0 && nf > 0 ? lcp_lstsq(nr, nf, A, b, dz, &res, NULL) : 0;
        int c = rank < 0 ? -1 : rank == nf ? 0 : nr == 0 ? 1 : rows_consistent(nr, nf, A, b);
        *square = c == 1;
        free(buf);
        free(side);
        return c < 0 ? -1 : 0;
    }
    /* A square system of good condition by LU (reciprocal condition above NSDAE_TOL_RCOND, the
     * layer's rule for LU against the SVD path): its least-squares solution is its solution, and
     * the SVD took a third of a small enumeration (bench_lcp, m <= 4, every kept point polished) */
    double resid;
    int rank = nr == nf && nf > 0 && lcp_solve_square(nf, A, b, dz, wf + n, side + 2 * n) == 0
                   ? nf
                   : lcp_lstsq(nr, nf, A, b, dz, &resid, NULL);
    if (square && scaled == 2) {
        /* full rank once zero rows and columns are left out, and square, or overdetermined and
         * consistent (rows_consistent). crash-cf03...: rows 1e-7 z4 = 0 and -1e-6 z4 = 0 both
         * fix z4, and its solution 1e8 out was refused when no other re-solve of its pattern
         * was accurate */
        int used = 0, live = 0;
        for (int c = 0; c < nf; c++) {
            int any = 0;
            for (int r = 0; r < nr; r++)
                any |= A[r + (size_t)c * nr] != 0;
            used += any;
        }
        for (int r = 0; r < nr; r++) {
            int any = 0;
            for (int c = 0; c < nf; c++)
                any |= A[r + (size_t)c * nr] != 0;
            live += any;
        }
        int consistent = live == used || (live > used && rows_consistent(nr, nf, A, b) == 1);
        *square = rank == used && live >= used && consistent ? (used == nf ? 2 : 1) : 0;
    } else if (square) {
        *square = rank == nf && nr == nf;
    }
    if (rank >= 0)
        for (int c = 0; c < nf; c++)
            zp[freecol[c]] += dc[c] * dz[c];
    free(buf);
    free(side);
    return rank < 0 ? -1 : 0;
}

int lcp_polish(const nsdae_mlcp *p, double *z)
{
    return pattern_solve(p, z, NULL, NULL, z, 1, 0, NULL);
}

int lcp_polish_scaled(const nsdae_mlcp *p, const double *z, double *zp)
{
    return pattern_solve(p, z, NULL, NULL, zp, 1, 1, NULL);
}

int lcp_pattern_point(const nsdae_mlcp *p, const double *z, const double *w, double *zp)
{
    return pattern_solve(p, z, w, NULL, zp, 0, 0, NULL);
}

int lcp_pattern_point_scaled(const nsdae_mlcp *p, const double *z, const double *w, double *zp)
{
    return pattern_solve(p, z, w, NULL, zp, 0, 1, NULL);
}

int lcp_pattern_point_ruiz(const nsdae_mlcp *p, const double *z, const double *w, double *zp)
{
    int determined = 0;
    return pattern_solve(p, z, w, NULL, zp, 0, 2, &determined) == 0 && determined ? 0 : 1;
}

int lcp_pattern_continuum(const nsdae_mlcp *p, const double *z, const double *w)
{
    int consistent = 0;
    double *zp = malloc(sizeof(double) * ((size_t)p->size + 1));
    int st = zp ? pattern_solve(p, z, w, NULL, zp, 0, 3, &consistent) : -1;
    free(zp);
    return st < 0 ? -1 : consistent;
}

int lcp_pattern_point_determined(const nsdae_mlcp *p, const int *side, const double *z, double *zp)
{
    int determined = 0;
    return pattern_solve(p, z, NULL, side, zp, 0, 2, &determined) == 0 && determined == 2 ? 0 : 1;
}

int lcp_pattern_point_given(const nsdae_mlcp *p, const int *side, const double *z, double *zp, int scaled)
{
    return pattern_solve(p, z, NULL, side, zp, 0, scaled, NULL);
}

int lcp_origin_accepts(const lcp_origin *o, const nsdae_mlcp *ps, const double *zs, double *w)
{
    if (!o) {
        lcp_caller_w(ps, zs, w);
        return lcp_scaled_violation(ps, NULL, NULL, zs, w) <= NSDAE_TOL_RESIDUAL;
    }
    lcp_scale_z_to_caller(o->p->size, o->dc, o->alpha, zs, o->z);
    return lcp_checked_violation_w(o->p, o->cmax, o->rsum, o->z, o->w) <= NSDAE_TOL_RESIDUAL;
}

int lcp_accept_or_polish(const nsdae_mlcp *ps, const lcp_origin *o, double *z, double *w)
{
    const int N = ps->size;
    if (lcp_origin_accepts(o, ps, z, w))
        return 1;
    double *keep = malloc(sizeof(double) * (size_t)N);
    if (!keep)
        return 0;
    memcpy(keep, z, sizeof(double) * (size_t)N);
    int ok = lcp_polish(ps, z) == 0 && lcp_origin_accepts(o, ps, z, w);
    /* Last: the pattern's own minimal-norm point (check.c). A branch-and-bound representative of
     * a continuum through 0 with q = 0 came back as rounding noise (z1 = 1.6e-15 next to an entry
     * 1e9: w1 = 1.6e-6 inside a box, fuzzing crash-93d4...) that no correction of the free
     * components removes; its pattern's minimal-norm point is 0, the answer. */
    if (!ok) {
        memcpy(z, keep, sizeof(double) * (size_t)N);
        lcp_caller_w(ps, z, w);
        double *zp = malloc(sizeof(double) * (size_t)N);
        ok = zp && lcp_pattern_point(ps, z, w, zp) == 0 && lcp_origin_accepts(o, ps, zp, w);
        if (ok)
            memcpy(z, zp, sizeof(double) * (size_t)N);
        free(zp);
    }
    /* Then the polish again on the pattern's system equilibrated on its own (powers of two, the
     * second try of check.c's far points): ps is M's equilibration, which balances M, not each
     * pattern. crash-f28b...: z3's column is 1.42 in the box row 1 (M_13 = 1e14, z1 at lo) and
     * 7.6e-13, 1.5e-12 in the rows that vanish, whose block over z2, z3, z4 then has singular
     * values 2.1, 0.5, 5e-13: rank 2 at NSDAE_TOL_RANK, so z3 = 25002741 (1e-4 off, from the
     * reduced coordinates) stayed, and every leaf was refused (NO_SOLUTION). Last, so that no
     * answer accepted before changes; and only where the rows that vanish determine the free
     * components (square, full rank), so that the point is the pattern's exact one: as a least
     * squares compromise of an overdetermined pattern (a corner row among them) it passed the
     * check's floor for MLCPs without solution (fuzzing: crash-54e9..., crash-6885...). */
    if (!ok) {
        memcpy(z, keep, sizeof(double) * (size_t)N);
        int square = 0;
        ok = pattern_solve(ps, keep, NULL, NULL, z, 1, 1, &square) == 0 && square && lcp_origin_accepts(o, ps, z, w);
        /* once more from there: the correction that cancels a component carries that
         * component's rounding (crash-07a4...: z3 = -1.2e-4 in M's units came back as 2.7e-20,
         * which in the caller's units leaves w2 = 1e14 z3 = 4e-11 beside z2 = 2.5e-10 > 0) */
        if (!ok && square)
            ok = pattern_solve(ps, z, NULL, NULL, z, 1, 1, &square) == 0 && square && lcp_origin_accepts(o, ps, z, w);
    }
    if (!ok)
        memcpy(z, keep, sizeof(double) * (size_t)N);
    free(keep);
    return ok;
}

int lcp_snap_to_ends(const nsdae_mlcp *p, const double *cmax, const double *rsum, double *z, double *w, double *zs,
                     double *ws)
{
    int N = p->size, moved = 0;
    for (int i = 0; i < N; i++) {
        nsdae_row_kind k = p->kind ? p->kind[i] : NSDAE_ROW_COMPLEMENTARITY;
        int side = lcp_active_side(p, i, z[i], w[i]);
        double end = side < 0 ? (k == NSDAE_ROW_BOX ? p->lo[i] : 0.0) : side > 0 ? p->hi[i] : z[i];
        zs[i] = end;
        moved |= end != z[i];
    }
    if (!moved || !(lcp_checked_violation_w(p, cmax, rsum, zs, ws) <= NSDAE_TOL_RESIDUAL))
        return 0;
    memcpy(z, zs, sizeof(double) * (size_t)N);
    memcpy(w, ws, sizeof(double) * (size_t)N);
    return 1;
}
