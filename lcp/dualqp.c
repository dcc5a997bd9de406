/* Node bounds of the branch and bound by a dual active-set method (Goldfarb and Idnani 1983),
 * warm-started from the parent node's active set.
 *
 * Why: a node's relaxation is its parent's plus one equality (r_i = 0 or v_i = 0 for the index
 * branched on). The parent's optimal multipliers stay dual feasible for the child, so a dual
 * method starts there and usually needs a handful of steps; the KKT Lemke (qp.c) starts cold on
 * a system of 2k + 3m rows every node: on Siconos' deltasigma (m = 156) 5 ms a node, 76 % of
 * the time. The dual method also gives what pruning needs at every step, not only at the end:
 * for ANY multipliers lam (>= 0 on the inequalities) the Lagrangian dual value q(lam) is a lower
 * bound of the node's minimum (weak duality), so a node is pruned as soon as q(lam) exceeds the
 * incumbent, and the bound never rests on the active-set bookkeeping being exact: it is
 * evaluated from lam by its formula. Requires H positive definite.
 *
 * In s = L't (H = L L') the objective is 1/2 |s + u|^2 - 1/2 |u|^2 + c0 (u = L^-1 g) and row j,
 * a_j't + b_j, is at_j's + b_j (at_j = L^-1 a_j): the node's minimum is the projection of -u on
 * a polyhedron. With the active rows N = [at_j, j in W], s = -u + N lam and
 *     q(lam) = c0 - 1/2 |u|^2 - 1/2 |N lam|^2 + lam'(N'u - b_W).
 * N'N = R'R is kept as a Cholesky factor, updated when a row enters (one triangular solve) or
 * leaves (Givens rotations): each step costs O(|W| k), not the O(|W|^2 k) of forming N'N. The
 * depth-first search solves a node's first child right after the node: the factor of the node's
 * final active set is then kept as it is; other nodes form it once (BLAS syrk, Cholesky).
 * Tried and dropped: carrying the iterate in t with the columns H^-1 a_j formed once (N'z and
 * the solve t = L^-T s leave each step, about 30 % of it on deltasigma). H's condition there is
 * 1.2e9, H^-1 a_j carries eps cond(H) of it, and the node minima moved by 1e-8 relative: the
 * search reached 14 leaves (369 nodes against 212) and the dual values lost the accuracy that
 * pruning rests on. In s only L's condition, its square root, enters. */
#include "internal.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

enum { DQP_ITER_PER_ROW = 4 };

/* Entry c (of the kept variables) of row j: row 2i v_i, row 2i + 1 r_i */
static double row_entry(const lcp_dqp *d, const lcp_reduced *r, int j, int c)
{
    int i = j / 2, m = r->m, col = d->cols ? d->cols[c] : c;
    return (j & 1) ? r->R[i + (size_t)col * m] : r->vunit ? (double)(col == i) : r->V[i + (size_t)col * m];
}

int lcp_dqp_init(lcp_dqp *d, const lcp_reduced *r, const double *H, const double *g, double c0, lcp_arena *ar)
{
    return lcp_dqp_init_on(d, r, H, g, c0, NULL, r->k, ar);
}

int lcp_dqp_init_on(lcp_dqp *d, const lcp_reduced *r, const double *H, const double *g, double c0, const int *cols,
                    int kk, lcp_arena *ar)
{
    int k = kk, m = r->m, nrow = 2 * m, kf = r->k;
    d->k = k;
    d->kfull = kf;
    d->cols = NULL;
    if (cols) {
        d->cols = lcp_arena_alloc(ar, sizeof(int) * ((size_t)k + 1));
        if (!d->cols)
            return -1;
        memcpy(d->cols, cols, sizeof(int) * (size_t)k);
    }
    d->nrow = nrow;
    d->c0 = c0;
    d->At = lcp_arena_doubles(ar, (size_t)k * nrow + 1);
    d->b = lcp_arena_doubles(ar, (size_t)nrow + 1);
    d->au = lcp_arena_doubles(ar, (size_t)nrow + 1);
    d->u = lcp_arena_doubles(ar, (size_t)k + 1);
    d->L = lcp_arena_doubles(ar, (size_t)k * k + 1);
    d->R = lcp_arena_doubles(ar, (size_t)k * k + 1);
    d->W = lcp_arena_alloc(ar, sizeof(int) * ((size_t)k + 1));
    d->N = lcp_arena_doubles(ar, (size_t)k * (k + 1) + 1);
    d->an = lcp_arena_doubles(ar, (size_t)nrow + 1);
    d->last = lcp_arena_alloc(ar, (size_t)nrow + 1);
    d->kept = 0;
    d->sR = lcp_arena_doubles(ar, (size_t)k * k + 1);
    d->sN = lcp_arena_doubles(ar, (size_t)k * (k + 1) + 1);
    d->sW = lcp_arena_alloc(ar, sizeof(int) * ((size_t)k + 1));
    d->slast = lcp_arena_alloc(ar, (size_t)nrow + 1);
    d->lam = lcp_arena_doubles(ar, (size_t)k + 2);
    d->s = lcp_arena_doubles(ar, (size_t)k + 1);
    d->c = lcp_arena_doubles(ar, (size_t)(nrow > k ? nrow : k) + 2);
    d->x = lcp_arena_doubles(ar, (size_t)k + 1);
    d->y = lcp_arena_doubles(ar, (size_t)k + 1);
    d->z = lcp_arena_doubles(ar, (size_t)k + 1);
    d->t = lcp_arena_doubles(ar, (size_t)k + 1);
    if (ar->failed)
        return -1;
    if (k == 0)
        return 1;
    for (int b = 0; b < k; b++) {
        int cb = cols ? cols[b] : b;
        for (int a = 0; a < k; a++)
            d->L[a + (size_t)b * k] = H[(cols ? cols[a] : a) + (size_t)cb * kf];
        d->u[b] = g[cb];
    }
    if (LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', k, d->L, k) != 0)
        return 1;
    for (int j = 0; j < nrow; j++)
        for (int c = 0; c < k; c++)
            d->At[c + (size_t)j * k] = row_entry(d, r, j, c);
    for (int i = 0; i < m; i++) {
        d->b[2 * i] = r->vunit ? 0.0 : r->v0[i];
        d->b[2 * i + 1] = r->r0[i];
    }
    if (LAPACKE_dtrtrs(LAPACK_COL_MAJOR, 'L', 'N', 'N', k, nrow, d->L, k, d->At, k) != 0 ||
        LAPACKE_dtrtrs(LAPACK_COL_MAJOR, 'L', 'N', 'N', k, 1, d->L, k, d->u, k) != 0)
        return 1;
    for (int j = 0; j < nrow; j++) {
        d->au[j] = lcp_dot(k, d->At + (size_t)j * k, 1, d->u, 1);
        d->an[j] = sqrt(lcp_dot(k, d->At + (size_t)j * k, 1, d->At + (size_t)j * k, 1));
    }
    d->uu = lcp_dot(k, d->u, 1, d->u, 1);
    d->tol = 1e-11 * r->scale;
    return 0;
}

/* Is row j an equality at node st (row 2i: v_i, row 2i + 1: r_i)? */
static int row_eq(const signed char *st, int j)
{
    return st[j / 2] == ((j & 1) ? LCP_R0 : LCP_V0);
}

/* x = (R'R)^-1 y for the nw x nw upper triangular R (leading dimension k) */
static void gram_solve(const lcp_dqp *d, int nw, const double *y, double *x)
{
    if (nw <= 0)
        return;
    memmove(x, y, sizeof(double) * (size_t)nw);
    cblas_dtrsv(CblasColMajor, CblasUpper, CblasTrans, CblasNonUnit, nw, d->R, d->k, x, 1);
    cblas_dtrsv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, nw, d->R, d->k, x, 1);
}

/* Appends row j to the active set: R and N grow by one column, whose part R^-T N'a_j is given
 * (rt, nw values; the step toward row j has just computed it) or NULL (formed here). The new
 * diagonal entry is the norm of a_j's part outside span(W): sqrt(|a_j|^2 - |rt|^2), or, where
 * that difference cancels, sqrt(zz), the squared norm of that part as the step formed it (0: not
 * known). On deltasigma a row 1.8e-7 (relative) from span(W) had |a_j|^2 - |rt|^2 below 1e-20
 * |a_j|^2 by cancellation though its part was 1.9e-13 |a_j|^2: the row was taken as dependent,
 * its node as empty, and the dual ray, of a violation at the tolerance's level, proved nothing:
 * 53 solves ended unproven (1200 steps) and 16 nodes restarted cold (1000 steps). 0 done, 1 row
 * dependent on W. */
static int gram_add(lcp_dqp *d, int nw, int j, const double *rt, double zz)
{
    int k = d->k;
    const double *a = d->At + (size_t)j * k;
    double *col = d->R + (size_t)nw * k;
    d->dirty = nw < d->dirty ? nw : d->dirty;
    if (nw > 0 && rt) {
        memcpy(col, rt, sizeof(double) * (size_t)nw);
    } else if (nw > 0) {
        cblas_dgemv(CblasColMajor, CblasTrans, k, nw, 1.0, d->N, k, a, 1, 0.0, col, 1);
        cblas_dtrsv(CblasColMajor, CblasUpper, CblasTrans, CblasNonUnit, nw, d->R, k, col, 1);
    }
    double aa = d->an[j] * d->an[j], rho2 = aa - lcp_dot(nw, col, 1, col, 1);
    if (!(rho2 > 1e-20 * aa) && zz > 1e-20 * aa)
        rho2 = zz;
    if (!(rho2 > 1e-20 * aa))   /* the new row's part outside span(W), relative: 1e-10 */
        return 1;
    col[nw] = sqrt(rho2);
    d->W[nw] = j;
    memcpy(d->N + (size_t)nw * k, a, sizeof(double) * (size_t)k);
    return 0;
}

/* The active set of the rows flagged by pick(st, act, j), formed at once: N, its Gram matrix by
 * syrk and R by Cholesky; row by row (dropping dependent rows) when the Cholesky fails. */
static int gram_build(lcp_dqp *d, const signed char *st, const signed char *act, int warm)
{
    int k = d->k, nw = 0;
    d->dirty = 0;
    for (int e = 0; e < 2; e++)
        for (int j = 0; j < d->nrow && nw < k; j++)
            if (d->an[j] > 0 && (e == 0 ? row_eq(st, j) : warm && act[j] && !row_eq(st, j))) {
                d->W[nw] = j;
                memcpy(d->N + (size_t)nw * k, d->At + (size_t)j * k, sizeof(double) * (size_t)k);
                nw++;
            }
    if (nw == 0)
        return 0;
    cblas_dsyrk(CblasColMajor, CblasUpper, CblasTrans, nw, k, 1.0, d->N, k, 0.0, d->R, k);
    int ok = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'U', nw, d->R, k) == 0;
    for (int i = 0; i < nw && ok; i++)   /* a pivot at the rounding level: dependent rows */
        ok = d->R[i + (size_t)i * k] > 1e-10 * d->an[d->W[i]];
    if (ok) {
        for (int c = 0; c < nw; c++)   /* dpotrf leaves the strict lower triangle as it was */
            for (int i = c + 1; i < nw; i++)
                d->R[i + (size_t)c * k] = 0;
        return nw;
    }
    int want[k > 0 ? k : 1], n0 = nw;
    memcpy(want, d->W, sizeof(int) * (size_t)n0);
    nw = 0;
    for (int i = 0; i < n0; i++)
        nw += gram_add(d, nw, want[i], NULL, 0) == 0;
    return nw;
}

/* Removes position p from the active set (and lam): Givens rotations restore R's triangle. */
static void gram_drop(lcp_dqp *d, int nw, int p)
{
    int k = d->k;
    d->dirty = p < d->dirty ? p : d->dirty;
    for (int c = p; c < nw - 1; c++) {
        memcpy(d->R + (size_t)c * k, d->R + (size_t)(c + 1) * k, sizeof(double) * (size_t)nw);
        memcpy(d->N + (size_t)c * k, d->N + (size_t)(c + 1) * k, sizeof(double) * (size_t)k);
        d->W[c] = d->W[c + 1];
        d->lam[c] = d->lam[c + 1];
    }
    for (int c = p; c < nw - 1; c++) {   /* R(c+1, c) is the subdiagonal entry to remove */
        double a = d->R[c + (size_t)c * k], b = d->R[c + 1 + (size_t)c * k], h = hypot(a, b);
        double cs = a / h, sn = b / h;
        for (int l = c; l < nw - 1; l++) {
            double x = d->R[c + (size_t)l * k], y = d->R[c + 1 + (size_t)l * k];
            d->R[c + (size_t)l * k] = cs * x + sn * y;
            d->R[c + 1 + (size_t)l * k] = -sn * x + cs * y;
        }
    }
}

/* s = -u + N lam and the dual value q(lam), inequality multipliers clamped at zero (any lam >= 0
 * gives a valid bound). */
static double dual_value(lcp_dqp *d, const signed char *st, int nw)
{
    int k = d->k;
    double lin = 0, *l = d->c;   /* scratch: c is recomputed after */
    for (int i = 0; i < nw; i++) {
        l[i] = !row_eq(st, d->W[i]) && d->lam[i] < 0 ? 0.0 : d->lam[i];
        lin += l[i] * (d->au[d->W[i]] - d->b[d->W[i]]);
    }
    memset(d->s, 0, sizeof(double) * (size_t)k);
    if (nw > 0)
        cblas_dgemv(CblasColMajor, CblasNoTrans, k, nw, 1.0, d->N, k, l, 1, 0.0, d->s, 1);
    double nn = lcp_dot(k, d->s, 1, d->s, 1);
    for (int j = 0; j < k; j++)
        d->s[j] -= d->u[j];
    return d->c0 - 0.5 * d->uu - 0.5 * nn + lin;
}

/* lam = the multipliers of the equality-constrained problem on W: (N'N) lam = N'u - b_W */
static void eqp_multipliers(lcp_dqp *d, int nw)
{
    for (int i = 0; i < nw; i++)
        d->y[i] = d->au[d->W[i]] - d->b[d->W[i]];
    gram_solve(d, nw, d->y, d->lam);
}

/* q at the multipliers (lam0 - theta x, lp + theta) on (W, p), p's in its own orientation */
static double ray_value(lcp_dqp *d, const signed char *st, int nw, int p, double sg, const double *lam0, double lp,
                        double theta)
{
    for (int i = 0; i < nw; i++)
        d->lam[i] = (lam0 ? lam0[i] : 0.0) - theta * d->x[i];
    d->lam[nw] = sg * (lp + theta);
    d->W[nw] = p;   /* N has room for one more column */
    d->dirty = nw < d->dirty ? nw : d->dirty;
    memcpy(d->N + (size_t)nw * d->k, d->At + (size_t)p * d->k, sizeof(double) * (size_t)d->k);
    return dual_value(d, st, nw + 1);
}

/* Dual ray of an infeasible node: (lam, lp) + theta (-x, 1) on (W, p) (p's row taken with the
 * sign sg that makes it violated) keeps lam >= 0 for every theta >= 0 and
 * raises q without end. Evaluates q there for growing theta: 1 with *bound > cutoff, 2 not.
 * Then from the origin, theta (-x, 1), where q = q0 + theta l - theta^2 zz / 2 (zz = |z|^2,
 * z = N (-x, 1) the step toward row p; l the linear term), highest at theta = l / zz: a node
 * that is empty only by a nearly dependent row reaches it with multipliers of 1e25 and more
 * (deltasigma2 with OpenBLAS' Sandybridge kernels: 34 nodes, each then the KKT Lemke's, 5 times
 * the call), where q, a difference of terms of their square, is rounding; from zero the rise
 * shows. Both are multipliers >= 0 on the inequalities: any q there is a bound. */
static int ray_bound(lcp_dqp *d, const signed char *st, int nw, int p, double sg, double lp, double zz,
                     double cutoff, double *bound)
{
    if (!isfinite(cutoff))
        return 2;
    double *lam0 = d->z;   /* scratch: x holds the direction on W */
    memcpy(lam0, d->lam, sizeof(double) * (size_t)nw);
    for (double theta = 1; theta < 1e30; theta *= 16) {
        double q = ray_value(d, st, nw, p, sg, lam0, lp, theta);
        if (q > cutoff) {
            *bound = q;
            return 1;
        }
    }
    double l = sg * (d->au[p] - d->b[p]), q0 = d->c0 - 0.5 * d->uu;
    for (int i = 0; i < nw; i++)
        l -= d->x[i] * (d->au[d->W[i]] - d->b[d->W[i]]);
    if (!(l > 0) || !(q0 + 0.5 * l * (l / zz) > cutoff))
        return 2;
    double theta = fmin(l / zz, 1e30), q = ray_value(d, st, nw, p, sg, NULL, 0, theta);
    if (q > cutoff) {
        *bound = q;
        return 1;
    }
    return 2;
}

/* q at the multipliers the steps have reached, from s (kept as -u + N lam by the steps
 * themselves: s += theta z) instead of forming N lam: O(k + |W|) against O(k |W|). Drift from
 * rounding is possible, so it only says when to look: a prune or an optimum is decided on the exact
 * value (dual_value). */
static double dual_running(const lcp_dqp *d, int nw)
{
    double lin = 0, nn = 0;
    for (int i = 0; i < nw; i++)
        lin += d->lam[i] * (d->au[d->W[i]] - d->b[d->W[i]]);
    for (int j = 0; j < d->k; j++)
        nn += (d->s[j] + d->u[j]) * (d->s[j] + d->u[j]);
    return d->c0 - 0.5 * d->uu - 0.5 * nn + lin;
}

/* Every row's value at_j's + b_j (= a_j't + b_j) into c: one product with the dense L^-1 a_j.
 * The rows' own nonzeros in t (8 % on deltasigma) after t = L^-T s need a third of the
 * multiplications, but BLAS' triangular solve and the indexed loop take more instructions than
 * the one dgemv (deltasigma: 35 K against 22 K instructions a step, the call 0.95 G -> 0.90 G); t is
 * formed at the optimum only. */
static void row_values(lcp_dqp *d)
{
    int k = d->k;
    memcpy(d->c, d->b, sizeof(double) * (size_t)d->nrow);
    cblas_dgemv(CblasColMajor, CblasTrans, k, d->nrow, 1.0, d->At, k, d->s, 1, 1.0, d->c, 1);
}

/* At an optimum the objective at s (= -u + N lam, as dual_value left it) equals the dual value q
 * up to rounding: their difference is the sum of lam_i times row i's value over the active rows,
 * which the steps hold at zero. A factor that has lost them (a row taken in nearly dependent, its
 * R diagonal from a residual that rounding dominates) answers a point whose objective is far above
 * q: deltasigma had three such nodes 9 to 13 % apart, and the caller prunes on that objective.
 * Then the active set is factored afresh (gram_build: its Cholesky check drops dependent rows) and
 * the steps go on; a second time the solve is not an optimum (2: the caller solves the node cold
 * or by the KKT Lemke). The gaps of sound solves on deltasigma and deltasigma2 stay below 1.2e-6
 * relative. */
static int optimal_consistent(const lcp_dqp *d, double q)
{
    double nn = 0;
    for (int j = 0; j < d->k; j++)
        nn += (d->s[j] + d->u[j]) * (d->s[j] + d->u[j]);
    double f = d->c0 - 0.5 * d->uu + 0.5 * nn;
    return !(f - q > 1e-5 * (1 + fabs(f)));
}

/* The most violated row at s (relative to its norm), -1 none; active rows are skipped. */
static int most_violated(lcp_dqp *d, const signed char *st, int nw)
{
    row_values(d);
    for (int i = 0; i < nw; i++)
        d->c[d->W[i]] = NAN;   /* active: skipped */
    double snorm = sqrt(lcp_dot(d->k, d->s, 1, d->s, 1)), worst = 0;
    int p = -1;
    for (int j = 0; j < d->nrow; j++) {
        if (isnan(d->c[j]))
            continue;
        double v = d->c[j], viol = row_eq(st, j) ? fabs(v) : -v;
        double scale = d->tol * (1 + d->an[j] * (1 + snorm));
        if (viol > scale && viol / scale > worst) {
            worst = viol / scale;
            p = j;
        }
    }
    return p;
}

/* The multipliers of the equality-constrained problem on the first nw rows of W, the most
 * negative inequality one's row dropped (Givens) until none is negative: a dual feasible start.
 * Returns the rows left. */
static int dual_feasible(lcp_dqp *d, const signed char *st, int nw)
{
    for (;;) {
        eqp_multipliers(d, nw);
        int neg = -1;
        for (int i = 0; i < nw; i++)
            if (!row_eq(st, d->W[i]) && d->lam[i] < -d->tol && (neg < 0 || d->lam[i] < d->lam[neg]))
                neg = i;
        if (neg < 0)
            return nw;
        gram_drop(d, nw, neg);
        nw--;
    }
}

int lcp_dqp_solve(lcp_dqp *d, const signed char *st, signed char *act, double cutoff, double *t, double *bound)
{
    int k = d->k, nrow = d->nrow, nw = 0;
    /* 1. start: the node's first child comes right after it (depth first) and inherits its
     * final active set, whose factor is still here; otherwise the equalities and the warm rows
     * are factored. Dual feasible once no inequality multiplier is negative: the most negative
     * one's row leaves (a Givens drop) until none is (the equalities' multipliers are free).
     * Restarting cold from the equalities instead took about 60 steps to rebuild the set: on
     * deltasigma the 22 second children it hit cost 741 steps, now 179. */
    int reuse = d->kept && memcmp(act, d->last, (size_t)nrow) == 0;
    d->kept = 0;
    nw = dual_feasible(d, st, reuse ? d->nw : gram_build(d, st, act, 1));
    int maxit = DQP_ITER_PER_ROW * (nrow + 1), exact = 1, refactored = 0;
    double q = dual_value(d, st, nw);
    for (int it = 0; it < maxit; it++) {
        if (q > cutoff && !exact) {
            q = dual_value(d, st, nw);
            exact = 1;
        }
        if (q > cutoff) {
            *bound = q;
            return 1;
        }
        /* 2. the most violated row; none: optimal, once seen at the exact s */
        int p = most_violated(d, st, nw);
        if (p < 0 && !exact) {
            q = dual_value(d, st, nw);
            exact = 1;
            continue;
        }
        if (p < 0 && !optimal_consistent(d, q)) {   /* once: the set factored afresh */
            if (refactored++)
                return 2;
            memset(d->last, 0, (size_t)nrow);   /* scratch: kept = 0 */
            for (int i = 0; i < nw; i++)
                d->last[d->W[i]] = 1;
            nw = dual_feasible(d, st, gram_build(d, st, d->last, 1));
            q = dual_value(d, st, nw);
            exact = 1;
            continue;
        }
        if (p < 0) {
            memset(act, 0, (size_t)nrow);
            for (int i = 0; i < nw; i++)
                act[d->W[i]] = 1;
            memcpy(d->last, act, (size_t)nrow);
            d->nw = nw;
            d->kept = 1;
            memcpy(d->t, d->s, sizeof(double) * (size_t)k);
            cblas_dtrsv(CblasColMajor, CblasLower, CblasTrans, CblasNonUnit, k, d->L, k, d->t, 1);
            if (d->cols) {
                memset(t, 0, sizeof(double) * (size_t)d->kfull);
                for (int c = 0; c < k; c++)
                    t[d->cols[c]] = d->t[c];
            } else {
                memcpy(t, d->t, sizeof(double) * (size_t)k);
            }
            *bound = q;
            return 0;
        }
        /* 3. move toward row p (its sign flipped when an equality is violated from above),
         * dropping the inequality rows whose multipliers reach zero on the way. The multipliers
         * and s follow the steps (Goldfarb and Idnani's updates); every solve starts from exact
         * ones (eqp_multipliers, dual_value). */
        double sg = d->c[p] > 0 ? -1.0 : 1.0, val = sg * d->c[p], lp = 0;
        const double *a = d->At + (size_t)p * k;
        for (;;) {
            if (++it > maxit)
                return 2;
            for (int j = 0; j < k; j++)
                d->z[j] = sg * a[j];
            if (nw > 0) {   /* y = R^-T N'z, x = R^-1 y: N x is z's part in span(W) */
                cblas_dgemv(CblasColMajor, CblasTrans, k, nw, 1.0, d->N, k, d->z, 1, 0.0, d->y, 1);
                cblas_dtrsv(CblasColMajor, CblasUpper, CblasTrans, CblasNonUnit, nw, d->R, k, d->y, 1);
                memcpy(d->x, d->y, sizeof(double) * (size_t)nw);
                cblas_dtrsv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, nw, d->R, k, d->x, 1);
                cblas_dgemv(CblasColMajor, CblasNoTrans, k, nw, -1.0, d->N, k, d->x, 1, 1.0, d->z, 1);
            }
            /* Row p is dependent on W when its part outside span(W) is at the rounding level, or
             * when gram_add cannot factor it in (its rho^2 is a difference that cancels, or W is
             * already k rows): then no primal step reaches it and only the multipliers move
             * (Goldfarb and Idnani's z = 0 case), and row p's value does not move either (its
             * z is rounding). Giving up there left lcp_tobenna 5 nodes for the KKT Lemke, whose
             * workspace alone costs more than the rest of the call. */
            double zz = lcp_dot(k, d->z, 1, d->z, 1), aa = d->an[p] * d->an[p];
            int dep = nw == k || !(zz > 1e-20 * aa);
            double full = dep ? INFINITY : -val / zz, part = INFINITY;
            int blk = -1;
            for (int i = 0; i < nw; i++)
                if (!row_eq(st, d->W[i]) && d->x[i] > 0 && d->lam[i] / d->x[i] < part) {
                    part = fmax(0, d->lam[i]) / d->x[i];
                    blk = i;
                }
            if (!dep && full <= part) {   /* R^-T N'a_p = sg y: the new column of R */
                for (int i = 0; i < nw; i++)
                    d->y[i] *= sg;
                if (gram_add(d, nw, p, d->y, zz) != 0)
                    full = INFINITY;   /* dependent after all (gram_add wrote only slot nw) */
            }
            if (!isfinite(full) && blk < 0)   /* no multipliers can reach row p: infeasible */
                return ray_bound(d, st, nw, p, sg, lp, zz, cutoff, bound);
            double th = fmin(full, part);
            for (int i = 0; i < nw; i++)
                d->lam[i] -= th * d->x[i];
            lp += th;
            exact = 0;
            cblas_daxpy(k, th, d->z, 1, d->s, 1);   /* s = -u + N lam + lp a_p moves by th z */
            if (isfinite(full))
                val += th * zz;
            if (th == full) {   /* row p joins W (gram_add above) */
                d->lam[nw] = sg * lp;
                nw++;
                break;
            }
            gram_drop(d, nw, blk);
            nw--;
        }
        q = dual_running(d, nw);
    }
    return 2;
}

/* Copies of the kept factor: a node's children are tried one after the other from it (probing). */
void lcp_dqp_save(lcp_dqp *d)
{
    int k = d->k, nw = d->nw;
    d->skept = d->kept;
    if (!d->kept)
        return;
    d->snw = nw;
    for (int c = 0; c < nw; c++)
        memcpy(d->sR + (size_t)c * k, d->R + (size_t)c * k, sizeof(double) * (size_t)(c + 1));
    memcpy(d->sN, d->N, sizeof(double) * (size_t)k * nw);
    memcpy(d->sW, d->W, sizeof(int) * (size_t)nw);
    memcpy(d->slast, d->last, (size_t)d->nrow);
    d->dirty = nw;
}

/* Only the columns from the first one a solve changed (dirty) are copied back: a child usually
 * adds a row or two and drops few, and copying the whole factor (k |W| + |W|^2 / 2 doubles) before
 * each probed child was 9 % of deltasigma's time. */
void lcp_dqp_restore(lcp_dqp *d)
{
    int k = d->k, nw = d->snw, from = d->dirty < nw ? d->dirty : nw;
    d->kept = d->skept;
    if (!d->kept)
        return;
    d->nw = nw;
    for (int c = from; c < nw; c++)
        memcpy(d->R + (size_t)c * k, d->sR + (size_t)c * k, sizeof(double) * (size_t)(c + 1));
    memcpy(d->N + (size_t)from * k, d->sN + (size_t)from * k, sizeof(double) * (size_t)k * (nw - from));
    memcpy(d->W + from, d->sW + from, sizeof(int) * (size_t)(nw - from));
    memcpy(d->last, d->slast, (size_t)d->nrow);
    d->dirty = nw;
}
