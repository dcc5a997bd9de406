/* Convex QPs min 1/2 t'Ht + g't over { G t + h >= 0 } with H only positive SEMIdefinite and G
 * rank deficient, by the proximal point method on the QP's KKT system.
 *
 * Why not Lemke on the KKT LCP (qp.c): with t free it is split t = y+ - y-, which makes the LCP
 * degenerate by construction; on Siconos' diodeBridge20 (gap QP, S with eigenvalues 0 ... 8) the
 * pivoting then hinged on the last bit of the data: right in the gcc build, pivot limit and a
 * Siconos answer with y = 2.8e16 in the sanitizer build (one ulp of OpenBLAS' rounding apart).
 *
 * The KKT system  H t + g - G'lam = 0,  lam >= 0 _|_ G t + h >= 0  is a monotone affine
 * variational inequality in (t, lam). Its proximal point iteration (Rockafellar 1976) solves,
 * with eps, del > 0,
 *     (H + eps I) t + g - eps t_j - G'lam = 0,   lam >= 0 _|_ G t + h + del (lam - lam_j) >= 0,
 * a strongly monotone problem: t eliminated by the Cholesky factor of K = H + eps I (fixed over
 * the iteration), lam is the unique solution of the LCP with the positive DEFINITE matrix
 * W = G K^-1 G' + del I, which Lemke solves without degeneracy trouble. The iterates converge to
 * a KKT point for every eps, del > 0 (linearly on this polyhedral problem: Luque 1984); the
 * caller decides when an iterate is good enough (accept, which may replace it by a nearby exact
 * point), else the iteration stops when it no longer moves.
 *
 * Warm iterations: W is positive definite, so each iteration's LCP has one solution, and it is
 * the solution of W_AA lam_A = -q_A on its own support A whenever the signs hold. Successive
 * iterations barely move, so the previous support is tried first, with its Cholesky factor kept
 * while the support stays; when a sign fails, a few principal pivots from there, and Lemke only
 * when they do not settle it (diodeBridge20's step 2: 17 iterations, one Lemke, the first).
 * Every route gives the same unique point, so the route taken does not change the answer beyond
 * rounding. Cost: one k^3 factorisation and nc^2 k to form W; per iteration nc k + k^2 + nc |A|
 * on a kept support, |A|^3 / 3 per pivot, a Lemke on nc rows at the first iteration. */
#include "internal.h"

#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* PROX_SWITCHES: with the rows scaled (scale_rows) 8 pivots no longer repaired one of
 * diodeBridge20's warm supports: a third Lemke a call, 7.6 M instructions a call; with 16 (the
 * same with 24) two Lemke solves, the first of each QP, and 6.2 M (6.97 M before the scaling) */
enum { PROX_MAX_ITER = 400, PROX_STALL = 20, PROX_SWITCHES = 16 };

/* t = K^-1 (G'lam - gj), K = Lc Lc' (Lc lower, column-major). */
static void primal(int k, int nc, const double *Lc, const double *G, const double *lam, const double *gj, double *t)
{
    for (int j = 0; j < k; j++) {
        double s = -gj[j];
        for (int c = 0; c < nc; c++)
            s += G[(size_t)c * k + j] * lam[c];
        t[j] = s;
    }
    LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'L', k, 1, Lc, k, t, k);
}

/* The support's rows idx from in, and the Cholesky factor of W on them (leading dimension nc). */
static void support_factor(int nc, const double *W, lcp_prox_ws *s)
{
    int na = 0;
    for (int c = 0; c < nc; c++)
        if (s->in[c])
            s->idx[na++] = c;
    for (int a = 0; a < na; a++)
        for (int b = 0; b <= a; b++)
            s->Lw[a + (size_t)b * nc] = W[s->idx[a] + (size_t)s->idx[b] * nc];
    s->na = na > 0 && LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', na, s->Lw, nc) != 0 ? -1 : na;
}

/* lam = the solution of lam >= 0 _|_ W lam + q >= 0 on the support s, if its signs hold: lam_A
 * and the other rows' W lam + q nonnegative to a few ulps of their own terms (an index with
 * lam_i = 0 = w_i, which the iterates of a degenerate QP approach, is not sent to Lemke for
 * its rounding; the tolerance is the accuracy Lemke's own answer has). -1 taken; else the
 * least index whose sign fails (nc: no factor). */
static int support_solve(int nc, const double *W, const double *q, const lcp_prox_ws *s, double *lam)
{
    if (s->na < 0)
        return nc;
    double xmax = 0;
    for (int a = 0; a < s->na; a++)
        s->x[a] = -q[s->idx[a]];
    if (s->na > 0 && LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'L', s->na, 1, s->Lw, nc, s->x, nc) != 0)
        return nc;
    for (int a = 0; a < s->na; a++)
        xmax = fmax(xmax, fabs(s->x[a]));
    for (int c = 0, a = 0; c < nc; c++) {   /* idx is increasing: a follows c */
        if (s->in[c]) {
            if (!(s->x[a++] >= -64 * DBL_EPSILON * xmax))
                return c;
            continue;
        }
        double w = q[c], terms = fabs(q[c]);
        for (int b = 0; b < s->na; b++) {
            double e = W[c + (size_t)s->idx[b] * nc] * s->x[b];
            w += e;
            terms += fabs(e);
        }
        if (!(w >= -64 * DBL_EPSILON * terms))
            return c;
    }
    memset(lam, 0, sizeof(double) * (size_t)nc);
    for (int a = 0; a < s->na; a++)
        lam[s->idx[a]] = fmax(0.0, s->x[a]);
    return -1;
}

/* This iteration's LCP: on the kept support; when a sign fails, Murty's least-index principal
 * pivoting from there (the failing index with the least number enters or leaves the support;
 * finite on a P-matrix, Murty 1974), at most ws->max_switches times, each a refactorisation;
 * Lemke from scratch after that. 0 solved (lam), -1 Lemke failed. */
static int iteration_lcp(int nc, const double *W, const double *q, lcp_prox_ws *ws, double *lam)
{
    int bad = support_solve(nc, W, q, ws, lam);
    for (int sw = 0; bad >= 0 && bad < nc && sw < ws->max_switches; sw++) {
        ws->switches++;
        ws->in[bad] = !ws->in[bad];
        support_factor(nc, W, ws);
        bad = support_solve(nc, W, q, ws, lam);
    }
    if (bad < 0)
        return 0;
    ws->lemke_solves++;
    if (lcp_lemke(nc, W, q, lam, &ws->lemke) != 0)
        return -1;
    for (int c = 0; c < nc; c++)
        ws->in[c] = lam[c] > 0;
    support_factor(nc, W, ws);
    return 0;
}

int lcp_prox_ws_init(lcp_prox_ws *ws, int k, int nc, lcp_arena *ar)
{
    /* not zeroed: each call writes every array before it reads it (in: by its first Lemke) */
    ws->k = k;
    ws->nc = nc;
    ws->Lc = lcp_arena_doubles_uninit(ar, (size_t)k * k + 1);
    ws->X = lcp_arena_doubles_uninit(ar, (size_t)k * nc + 1);
    ws->W = lcp_arena_doubles_uninit(ar, (size_t)nc * nc + 1);
    ws->q = lcp_arena_doubles_uninit(ar, (size_t)nc + 1);
    ws->lam = lcp_arena_doubles_uninit(ar, (size_t)nc + 1);
    ws->lnew = lcp_arena_doubles_uninit(ar, (size_t)nc + 1);
    ws->gj = lcp_arena_doubles_uninit(ar, (size_t)k + 1);
    ws->y = lcp_arena_doubles_uninit(ar, (size_t)k + 1);
    ws->tn = lcp_arena_doubles_uninit(ar, (size_t)k + 1);
    ws->idx = lcp_arena_alloc_uninit(ar, sizeof(int) * ((size_t)nc + 1));
    ws->in = lcp_arena_alloc_uninit(ar, (size_t)nc + 1);
    ws->Lw = lcp_arena_doubles_uninit(ar, (size_t)nc * nc + 1);
    ws->Gs = lcp_arena_doubles_uninit(ar, (size_t)nc * k + 1);
    ws->hs = lcp_arena_doubles_uninit(ar, (size_t)nc + 1);
    ws->x = lcp_arena_doubles_uninit(ar, (size_t)nc + 1);
    ws->max_switches = PROX_SWITCHES;
    return ar->failed || lcp_lemke_ws_init(&ws->lemke, nc, ar) ? -1 : 0;
}

/* Gs = D G, hs = D h with D_c the power of two that brings row c's largest entry into [1, 2)
 * (exact; a zero row is kept): the same feasible set with rows of one size. eps and del are set
 * by the largest row; with a row 1e8 times another's (an LP-like gap QP) del was 1e13, so the
 * small row's multiplier moved by 1e-13 of its violation per iteration and t drifted by 1/eps
 * per iteration at a constant rate, which the stall rule took for the rounding floor: stopped
 * after 41 iterations 4e4 away from the minimiser (tests/lcp/test_prox.c, rows_scaled_1e8). */
static void scale_rows(int k, int nc, const double *G, const double *h, double *Gs, double *hs)
{
    for (int c = 0; c < nc; c++) {
        const double *row = G + (size_t)c * k;
        double rmax = 0;
        for (int j = 0; j < k; j++)
            rmax = fmax(rmax, fabs(row[j]));
        int e = 0;
        if (rmax > 0 && isfinite(rmax))
            frexp(rmax, &e);   /* rmax = f 2^e, f in [1/2, 1) */
        double d = ldexp(1.0, 1 - e);
        for (int j = 0; j < k; j++)
            Gs[(size_t)c * k + j] = d * row[j];
        hs[c] = d * h[c];
    }
}

/* Lc = chol(H + eps I), X = Lc^-1 G' (k x nc), W = X'X + del I. -1: H is not positive
 * semidefinite (not a convex QP) or LAPACK failed. */
static int prox_setup(int k, int nc, const double *H, const double *G, double eps, double del, lcp_prox_ws *ws)
{
    double *Lc = ws->Lc, *X = ws->X, *W = ws->W;
    memcpy(Lc, H, sizeof(double) * (size_t)k * k);
    for (int j = 0; j < k; j++)
        Lc[j + (size_t)j * k] += eps;
    if (LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', k, Lc, k) != 0)
        return -1;
    for (int c = 0; c < nc; c++)
        for (int j = 0; j < k; j++)
            X[j + (size_t)c * k] = G[(size_t)c * k + j];
    if (LAPACKE_dtrtrs(LAPACK_COL_MAJOR, 'L', 'N', 'N', k, nc, Lc, k, X, k) != 0)
        return -1;
    for (int a = 0; a < nc; a++)
        for (int b = 0; b <= a; b++) {
            double s = lcp_dot(k, X + (size_t)a * k, 1, X + (size_t)b * k, 1);
            W[a + (size_t)b * nc] = W[b + (size_t)a * nc] = s + (a == b ? del : 0.0);
        }
    return 0;
}

int lcp_prox_qp(int k, int nc, const double *H, const double *g, const double *G, const double *h, double *t,
                int (*accept)(void *ctx, double *t), void *ctx, lcp_prox_ws *ws)
{
    ws->iterations = ws->lemke_solves = ws->switches = 0;
    if (k > ws->k || nc > ws->nc)
        return -1;
    scale_rows(k, nc, G, h, ws->Gs, ws->hs);
    G = ws->Gs;   /* from here on the scaled rows: the multipliers are theirs, t is the same */
    h = ws->hs;
    /* eps, del relative to the data's size: small enough that a step goes most of the way, large
     * enough that W's condition (about max |G|^2 / (eps del)) leaves Lemke many digits */
    double hmax = 0, gmax = 0, qmax = 0;
    for (size_t i = 0; i < (size_t)k * k; i++)
        hmax = fmax(hmax, fabs(H[i]));
    for (size_t i = 0; i < (size_t)nc * k; i++)
        gmax = fmax(gmax, fabs(G[i]));
    for (int c = 0; c < nc; c++)
        qmax = fmax(qmax, fabs(h[c]));
    double eps = 1e-3 * (1 + hmax), del = 1e-3 * (1 + gmax * gmax / (1 + hmax));
    double *Lc = ws->Lc, *W = ws->W, *q = ws->q, *lam = ws->lam, *lnew = ws->lnew;
    double *gj = ws->gj, *y = ws->y, *tn = ws->tn;
    ws->na = -1;
    if (prox_setup(k, nc, H, G, eps, del, ws))
        return -1;
    memset(t, 0, sizeof(double) * (size_t)k);
    memset(lam, 0, sizeof(double) * (size_t)nc);
    double step_tol = 1e-12 * (1 + qmax + gmax), moved_back = INFINITY;
    for (int it = 0; it < PROX_MAX_ITER; it++) {
        /* q = h - G K^-1 gj - del lam_j */
        for (int j = 0; j < k; j++)
            y[j] = gj[j] = g[j] - eps * t[j];
        LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'L', k, 1, Lc, k, y, k);
        for (int c = 0; c < nc; c++)
            q[c] = h[c] - lcp_dot(k, G + (size_t)c * k, 1, y, 1) - del * lam[c];
        ws->iterations++;
        if (iteration_lcp(nc, W, q, ws, lnew))
            return -1;
        primal(k, nc, Lc, G, lnew, gj, tn);
        double moved = 0, size = 1;
        for (int j = 0; j < k; j++) {
            moved = fmax(moved, fabs(tn[j] - t[j]));
            size = fmax(size, fabs(tn[j]));
        }
        for (int c = 0; c < nc; c++)
            moved = fmax(moved, del * fabs(lnew[c] - lam[c]));
        memcpy(t, tn, sizeof(double) * (size_t)k);
        memcpy(lam, lnew, sizeof(double) * (size_t)nc);
        if ((accept && accept(ctx, t)) || moved <= step_tol * size)
            return 0;
        /* linear convergence halves the step in far fewer than STALL iterations: a step that
         * does not is the rounding floor (or the drift of an empty feasible set): stop there */
        if (it % PROX_STALL == 0) {
            if (moved > 0.5 * moved_back)
                return 0;
            moved_back = moved;
        }
    }
    return 1;
}
