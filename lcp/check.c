/* Acceptance of an answer: every row against that row's own terms.
 *
 * Why not relative to the largest entry of the problem (what this layer did before): a row whose
 * terms are all small next to another row's is then never checked at all. Fuzzing found
 * w = z + 2 on z in [-1e10, 1] "solved" by z = 0 (|w| = 2 next to the bound 1e10), and on
 * Siconos' BuckConverter MLCP a step answer with w_21 = -8.8e-10 where every term of row 21 is
 * of size 8.9e-10 (relative to the largest entry, 6: 1.5e-10, accepted). Per row, both are
 * violations of size one.
 *
 * A row's terms can also be pure rounding noise (every z_j entering it is a rounded zero): there
 * "relative to the row" means nothing. So only what exceeds the row's rounding level counts. w_i
 * is a dot product: with z_j off by u_j, forward error analysis puts the computed w_i within
 * gamma_N (|q_i| + sum_j |M_ij| (|z_j| + u_j)) of the exact w_i of the exact point, gamma_N ~ N eps.
 * The |q_i| + |M_ij z_j| part is below any tolerance relative to the row's terms; what matters
 * is u_j, the rounding a computed z_j carries. A component off its ends comes from solving the
 * rows its pattern makes active, and that solve is accurate normwise, not per component: the
 * error of z_j is eps times the largest term of those rows over z_j's unit (its column's largest
 * entry), u_j = 64 N eps zs / cmax_j, zs = max |M_kj z_j| over the components off their ends;
 * the floor of row i is sum_j |M_ij| u_j, about 1e-13 of the solution's terms at N = 10, four
 * orders below any tolerance this layer accepts, and scale invariant like the rest. (Per
 * component, u_j = eps |z_j|, 17 tests fail: crash-1024...'s z3 = 5e-9 is computed with a
 * relative error of 2e-8 next to z2 = -1e7, and fails row 2, whose terms are 1e-8.)
 *
 * The rule, then: the point checked is the answer with every component that lies beyond an end
 * (below 0 or lo, above hi) or that its own row forces to an end (w_j clearly of that end's
 * sign), within its rounding of that end, put exactly there (pin_floors); a component exactly at
 * an end carries no rounding, u_j = 0, and its terms do not set zs. Each row must then hold to
 * NSDAE_TOL_RESIDUAL of its own terms above the floor of the components off their ends. In
 * words: the answer is, to the rounding of its free components, an exact solution of a problem
 * whose every row is perturbed by a small fraction of that row's own terms (a componentwise
 * backward error), the components at their ends being those ends. A problem none of whose
 * row-wise perturbations has a solution near the point gets no answer: crash-2abb... (no solution;
 * rows 3 and 4 force z1 = z2 = z3 = 0 for every problem of the same signs) was answered with
 * z2 = -2.1e-17, a "rounded zero" whose allowance (1.9e-14) lifted row 4, 3 z2 + 1e-7 z3 = 0,
 * where z2 = 0 leaves 1e-7 z3 = 3.3e-22, all of that row's terms.
 * That "a component at its end is exact" describes the point checked, not how a solver got there:
 * a pivoting solver leaves its nonbasic variables at exactly 0 where the exact solution has them
 * at 1e-16 (the bead column, N = 100: z6 = 0 against q6 = -8.4e-16, the exact z6 = 4.2e-16). Such
 * an answer fails here by a row's whole terms and its caller repairs it on its own pattern
 * (lcp_accept_or_polish; siconos.c's check_answer), which solves row 6 for w6 = 0; the minimal-norm
 * and enumeration paths re-solve patterns already. Before, zs was the point's largest term, spread
 * over every column: crash-4dc4... answered (0, 0, 0.0016, 0.0016) for an MLCP without solution, row 3
 * (terms 1e-7) under a floor of 1e-2 lifted through column 1 (z1 = 0 forced by w1 = 1.6e11 from
 * 1e14 z3); with forced columns removed it answered (0, -1.3e-7, 1, 1), z3 at its end making the
 * largest term 1e14 and z2 a "rounded zero" of allowance 6e-3. Not the Ruiz-equilibrated units
 * of scale.c: they split a 1e150 column between its row and column and then call the row's
 * whole content noise (M = [6 0; 5 1e150], q = (-4.5625, -6), z2 = 0).
 *
 * That floor grows with the point, so it must not be trusted for a point far larger than its
 * data. The infeasible LCP M = [1 -1 0 -1; -1 2 -1 1; 0 -1 1 0; -1 1 0 1],
 * q = (-0.895, -0.803, 0.533, -0.692) (w1 + w4 = q1 + q4 = -1.59 for every z: no solution) came
 * back from Lemke's re-solve of a singular basis as z ~ 4.5e15 (1, 0.17, 0.17, 0.83), moved along
 * M's null vector (1, 0, 0, 1): every row's terms are 1e16, cancel, and leave |w_i| ~ 2 of
 * rounding: 2e-16 of the terms, "solved" at 0.79 of the data. And fuzzing found a point with
 * z3 = 1.2e30 whose zs lifted the floor of a row z3 does not even enter (row 3 of crash-0a3f...:
 * 1e-7 z2 + 2 = 0, needing z2 < 0). So the point's size is held against the data's,
 * Q = max(|q_i|, |M_ij| * finite |lo_j|, |hi_j|): while zs <= FAR Q the floor is at most
 * 64 N eps FAR Q = N tol Q per unit row weight, i.e. within the tolerance of the data's own
 * scale, and the check above decides alone. A point beyond that (or any nonzero point when
 * Q = 0) is re-verified on its own pattern: the components at a bound fixed there, the rows
 * that must vanish solved for the others by the rank-revealing minimal-norm least squares of
 * linalg.c, whose point has no component along a null direction and so is of the data's size.
 * Both the point and that re-solved point must pass. A solvable pattern re-solves to a point
 * with rounding residuals (the null-space ray z = (t, t) of M = [1 -1; -1 1], q = 0 re-solves to
 * 0); an inconsistent one keeps its residual (the LCP above: w1 = w4 ~ -0.8, rejected). FAR
 * costs nothing on answers of well-conditioned data (their zs is within a few units of Q); an
 * ill-conditioned one pays one SVD of its pattern, O(N^3).
 *
 * Box rows: the distance of z_i to a bound is measured both by its effect on the rows (as for
 * complementarity rows) and in z_i's own units (the finite bounds, the terms of the largest row
 * z_i enters over its largest entry; also the box's width when both ends are finite), and counts
 * as "at the bound" only if small in both: with w1 = 1e-7 z1 + 1e6 on [-1, 0], z1 = -0.5 moves
 * its row by 5e-14 of its terms, yet it is half the box away from either bound, with w1 = 1e6
 * (fuzzing, crash-8718...).
 *
 * Measured on Siconos' test data (validation/siconos_data): every accepted answer there passes
 * with violations below 1e-13, the wrong ones violate by 1e-5 to 1. */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EPS 2.220446049250313e-16
/* beyond FAR times the data's scale the rounding floor could hide a violation of the data's size */
#define FAR (NSDAE_TOL_RESIDUAL / (64 * EPS))

typedef struct rows {
    const nsdae_mlcp *p;
    const double *cmax, *rsum;   /* of M alone (lcp_check_scale_compute) */
    double *s, *fl;          /* per row: terms + floor, floor */
    double *tz, *zloc;       /* per row: sum_j |M_ij z_j|; per column: the largest tz of its rows */
    double *zq, *wq;         /* the point with its pinned components at their ends (pin_floors) */
    double zs, zmax;
    double zcap;             /* the floor's zs at most this (INFINITY: uncapped) */
    int has_box;             /* zloc is measured only for box rows' own units */
    int tz_ready;            /* tz already holds the terms of the point checked next */
} rows;

void lcp_check_scale_compute(const nsdae_mlcp *p, double *cmax, double *rsum)
{
    int N = p->size;
    for (int j = 0; j < N; j++) {
        cmax[j] = 0;
        for (int i = 0; i < N; i++)
            cmax[j] = lcp_keep_max(cmax[j], fabs(p->M[i + (size_t)j * N]));
    }
    for (int i = 0; i < N; i++) {
        double rs = 0;
        for (int j = 0; j < N; j++)
            if (cmax[j] > 0)
                rs += fabs(p->M[i + (size_t)j * N]) / cmax[j];
        rsum[i] = rs;
    }
}

/* How far z_j (or a bound distance d) moves the rows it enters, relative to their terms s_k
 * above their rounding levels fl_k. */
static double component_size(const rows *R, int j, double d)
{
    const nsdae_mlcp *p = R->p;
    int N = p->size;
    double worst = 0, ad = fabs(d);
    for (int k = 0; k < N; k++) {
        double c = fabs(p->M[k + (size_t)j * N]) * ad - R->fl[k];
        if (c > 0)
            worst = lcp_keep_max(worst, c / R->s[k]);
    }
    if (R->cmax[j] > 0)
        return worst;
    /* z_j enters no row: it has no unit; measured against the largest |z_k| */
    double c = fmax(0, fabs(d) - 64 * N * EPS * R->zmax);
    return c > 0 ? c / R->zmax : 0;
}

/* A bound distance d of box row i in z_i's own units (see the header) */
static double own_units(const rows *R, int i, double d)
{
    const nsdae_mlcp *p = R->p;
    double lo = p->lo[i], hi = p->hi[i], rnd = 64 * p->size * EPS;
    double u = R->cmax[i] > 0 ? R->zloc[i] / R->cmax[i] : 0;
    if (isfinite(lo))
        u = fmax(u, fabs(lo));
    if (isfinite(hi))
        u = fmax(u, fabs(hi));
    /* z_i entering no row has its box as its unit, not the point's largest component: z2 = -0.5
     * in [-1, 0] with w2 = 8 was "at lo" next to z1 = -1e9 (fuzzing, crash-2975...) */
    if (!(u > 0))
        u = R->zmax;
    double c = fmax(0, fabs(d) - rnd * u), e = c > 0 ? c / u : 0;
    /* A box with two ends is also measured in its width: with a column of 1e-14 (z1 in [-1, 0],
     * w1 = -1e-14 z1 + z4 - 3) the terms of z1's rows over its entry are 3e14, in which the
     * whole box is rounding; z1 = -1 was "at lo" and "at hi" at once, so w1 = -3 < 0 passed at
     * lo where the solution has z1 = 0 (fuzzing, crash-732c...). The rounding allowed is that
     * of the ends' own size. */
    if (isfinite(hi - lo) && hi > lo) {
        double cw = fmax(0, fabs(d) - rnd * fmax(fabs(lo), fabs(hi)));
        e = fmax(e, cw / (hi - lo));
    } else if (isfinite(lo) != isfinite(hi) && (isfinite(lo) ? lo : hi) != 0) {
        /* one end: its own size is a unit too. z1 in (-inf, 1] entering only w4 = -1e-8 z1 + ...
         * (terms 6) has the unit 6e8 from its row, in which z1 = 1.0098 was "at hi" 1 % beyond
         * it (fuzzing, crash-d78e...) */
        double end = fabs(isfinite(lo) ? lo : hi), ce = fmax(0, fabs(d) - rnd * end);
        e = fmax(e, ce / end);
    }
    return e;
}

static double bound_distance(const rows *R, int i, double d)
{
    return fmax(component_size(R, i, d), own_units(R, i, d));
}

/* tz of z, by columns (M is column-major), each sum in the order of j; with w: also
 * w = M z + q in lcp_caller_w's order of operations (the same numbers), in the same pass. */
static void row_terms(rows *R, const double *z, double *w)
{
    const nsdae_mlcp *p = R->p;
    int N = p->size;
    double *restrict tz = R->tz;
    for (int i = 0; i < N; i++)
        tz[i] = 0;
    if (!w) {
        for (int j = 0; j < N; j++) {
            const double *col = p->M + (size_t)j * N;
            for (int i = 0; i < N; i++)
                tz[i] += fabs(col[i] * z[j]);
        }
        return;
    }
    for (int i = 0; i < N; i++)
        w[i] = p->q[i];
    for (int j = 0; j < N; j++) {
        const double *col = p->M + (size_t)j * N;
        double zj = z[j];
        for (int i = 0; i < N; i++) {
            double t = col[i] * zj;
            tz[i] += fabs(t);
            w[i] += t;
        }
    }
}

/* z_j exactly at an end of its row (0, lo or hi): the end itself, no rounding */
static inline int at_end(const nsdae_mlcp *p, int j, double zj)
{
    nsdae_row_kind k = p->kind ? p->kind[j] : NSDAE_ROW_COMPLEMENTARITY;
    if (k == NSDAE_ROW_COMPLEMENTARITY)
        return zj == 0;
    return k == NSDAE_ROW_BOX && (zj == p->lo[j] || zj == p->hi[j]);
}

/* Terms, floors and the point's size (see the header): 0, or -1 for a NaN/Inf. */
static int rows_measure(rows *R, const double *z, const double *w)
{
    const nsdae_mlcp *p = R->p;
    int N = p->size;
    R->zs = R->zmax = 0;
    /* fl: rsum without the columns of components exactly at an end, O(N) per such column; what
     * the subtraction loses to rounding (eps rsum_i) is far below any row's tolerance */
    for (int i = 0; i < N; i++)
        R->fl[i] = R->rsum[i];
    for (int j = 0; j < N; j++) {
        if (!isfinite(z[j]) || !isfinite(w[j]))
            return -1;
        R->zmax = lcp_keep_max(R->zmax, fabs(z[j]));
        if (!at_end(p, j, z[j])) {
            R->zs = lcp_keep_max(R->zs, R->cmax[j] * fabs(z[j]));
        } else if (R->cmax[j] > 0) {
            const double *col = p->M + (size_t)j * N;
            double a = 1 / R->cmax[j];
            for (int i = 0; i < N; i++)
                R->fl[i] -= fabs(col[i]) * a;
        }
    }
    if (!R->tz_ready)
        row_terms(R, z, NULL);
    if (R->has_box)
        for (int j = 0; j < N; j++) {
            R->zloc[j] = 0;
            for (int i = 0; i < N; i++)
                if (p->M[i + (size_t)j * N] != 0)
                    R->zloc[j] = lcp_keep_max(R->zloc[j], R->tz[i]);
        }
    double c = 64 * N * EPS * fmin(R->zs, R->zcap);
    for (int i = 0; i < N; i++) {
        R->fl[i] = R->fl[i] > 0 ? c * R->fl[i] : 0;
        R->s[i] = fabs(p->q[i]) + R->tz[i] + R->fl[i];
        if (!isfinite(R->s[i]))
            return -1;
    }
    return 0;
}

/* z_j beyond an end of its row (below 0 or lo, above hi): 1 and *end the end it crossed */
static int outside(const nsdae_mlcp *p, int j, double zj, double *end)
{
    nsdae_row_kind k = p->kind ? p->kind[j] : NSDAE_ROW_COMPLEMENTARITY;
    if (k == NSDAE_ROW_EQUALITY)
        return 0;
    double lo = k == NSDAE_ROW_BOX ? p->lo[j] : 0, hi = k == NSDAE_ROW_BOX ? p->hi[j] : INFINITY;
    *end = zj < lo ? lo : hi;
    return zj < lo || zj > hi;
}

/* The end (0, lo or hi) that z_j is put at, with z_j there within its rounding (the floors of
 * rows_measure): 1 and *end set, else 0. Either z_j lies beyond that end (no solution has it
 * there: it is a rounding of the end itself), or row j's own w_j forces it there, w_j clearly of
 * that end's sign, beyond its floor and the tolerance. */
static int pinned_end(const rows *R, int j, double zj, double wj, double *end)
{
    const nsdae_mlcp *p = R->p;
    nsdae_row_kind k = p->kind ? p->kind[j] : NSDAE_ROW_COMPLEMENTARITY;
    double clear = R->fl[j] + NSDAE_TOL_RESIDUAL * R->s[j];
    if (outside(p, j, zj, end))
        return k == NSDAE_ROW_COMPLEMENTARITY ? component_size(R, j, zj) <= NSDAE_TOL_RESIDUAL
                                              : bound_distance(R, j, zj - *end) <= NSDAE_TOL_RESIDUAL;
    if (k == NSDAE_ROW_EQUALITY || !(fabs(wj) > clear))
        return 0;
    if (k == NSDAE_ROW_COMPLEMENTARITY) {
        *end = 0;
        return wj > 0 && (zj == 0 || component_size(R, j, zj) <= NSDAE_TOL_RESIDUAL);
    }
    *end = wj > 0 ? p->lo[j] : p->hi[j];
    return isfinite(*end) && (zj == *end || bound_distance(R, j, zj - *end) <= NSDAE_TOL_RESIDUAL);
}

/* The floors again, the columns of pinned components (pinned_end) carrying no rounding allowance,
 * and the point checked with them exactly at their ends (R->zq, R->wq; 1 if any). The pins
 * are decided on the floors before any is removed (the harness, tests/fuzz/fuzz_lcp.c, holds
 * points to the same rule). crash-a656...: (-2e-44, 1.6e-37, 0, -1e-21) had z2 = 1.6e-37, forced
 * to 0 by w2 = 1e-7, lift row 1 (terms 1e-28, z1 inside its box) to a floor of 5.7e-21. O(N) per
 * pinned column; a solver's answer has its ends exact (at_end) and pins only what lies beyond. */
static int pin_floors(rows *R, const double *z, const double *w)
{
    const nsdae_mlcp *p = R->p;
    int N = p->size, any = 0;
    double zf = fmin(R->zs, R->zcap), end;
    if (!(zf > 0))
        return 0;
    /* every pin decided on the floors as they are, then the floors changed */
    for (int j = 0; j < N; j++) {
        if (!(R->cmax[j] > 0) || (!(fabs(w[j]) > R->fl[j]) && !outside(p, j, z[j], &end)))
            continue;
        if (!pinned_end(R, j, z[j], w[j], &end) || z[j] == end)
            continue;
        if (!any)
            memcpy(R->zq, z, sizeof(double) * (size_t)N);
        R->zq[j] = end;
        any = 1;
    }
    if (!any)
        return 0;
    for (int i = 0; i < N; i++) {
        R->wq[i] = w[i];
        R->s[i] = fabs(p->q[i]) + R->tz[i];
    }
    for (int j = 0; j < N; j++) {
        if (R->zq[j] == z[j])
            continue;
        const double *col = p->M + (size_t)j * N;
        double a = 64 * N * EPS * zf / R->cmax[j], d = z[j] - R->zq[j];
        for (int i = 0; i < N; i++) {
            R->fl[i] = fmax(R->fl[i] - fabs(col[i]) * a, 0);
            R->wq[i] -= col[i] * d;
            R->s[i] += fabs(col[i] * R->zq[j]) - fabs(col[i] * z[j]);
        }
    }
    for (int i = 0; i < N; i++)
        R->s[i] = fmax(R->s[i], 0) + R->fl[i];
    return 1;
}

/* The worst row of (z, w) with the floors of z itself. */
static double rows_violation(rows *R, const double *z, const double *w)
{
    const nsdae_mlcp *p = R->p;
    int N = p->size;
    double worst = 0;
    if (rows_measure(R, z, w))
        return INFINITY;
    if (pin_floors(R, z, w)) {
        z = R->zq;
        w = R->wq;
    }
    for (int i = 0; i < N; i++) {
        nsdae_row_kind k = p->kind ? p->kind[i] : NSDAE_ROW_COMPLEMENTARITY;
        /* s_i = 0: row i has no terms at all, w_i = 0 exactly */
        double above = fabs(w[i]) - R->fl[i];
        double wr = R->s[i] > 0 ? copysign(above > 0 ? above : 0, w[i]) / R->s[i] : 0, e;
        if (k == NSDAE_ROW_EQUALITY) {
            e = fabs(wr);
        } else if (k == NSDAE_ROW_COMPLEMENTARITY) {
            /* component_size is 0 at z_i = 0 and only matters when z_i < 0 or w_i is off 0 */
            double awr = fabs(wr), zsz = z[i] != 0 && (z[i] < 0 || awr > 0) ? component_size(R, i, z[i]) : 0;
            e = lcp_keep_max(lcp_keep_max(-wr, z[i] < 0 ? zsz : 0), awr < zsz ? awr : zsz);
        } else {   /* box: inside [lo, hi]; w > 0 only at lo, w < 0 only at hi */
            double lo = p->lo[i], hi = p->hi[i];
            double dlo = isinf(lo) ? INFINITY : bound_distance(R, i, z[i] - lo);
            double dhi = isinf(hi) ? INFINITY : bound_distance(R, i, hi - z[i]);
            e = fmax(z[i] < lo ? dlo : 0, z[i] > hi ? dhi : 0);
            e = fmax(e, fmin(fmax(wr, 0), dlo));
            e = fmax(e, fmin(fmax(-wr, 0), dhi));
        }
        if (!(e <= worst))
            worst = e;
    }
    return worst;
}

/* The data's scale Q (see the header) */
static double data_scale(const rows *R)
{
    const nsdae_mlcp *p = R->p;
    double Q = 0;
    for (int i = 0; i < p->size; i++) {
        Q = lcp_keep_max(Q, fabs(p->q[i]));
        if (p->kind && p->kind[i] == NSDAE_ROW_BOX) {
            if (isfinite(p->lo[i]))
                Q = fmax(Q, R->cmax[i] * fabs(p->lo[i]));
            if (isfinite(p->hi[i]))
                Q = fmax(Q, R->cmax[i] * fabs(p->hi[i]));
        }
    }
    return Q;
}

/* Which end of row i (z_i, w_i) is nearest to: -1 z_i at its lower end (0 or lo), +1 at hi,
 * 0 free with w_i = 0. */
int lcp_active_side(const nsdae_mlcp *p, int i, double zi, double wi)
{
    nsdae_row_kind k = p->kind ? p->kind[i] : NSDAE_ROW_COMPLEMENTARITY;
    if (k == NSDAE_ROW_EQUALITY)
        return 0;
    /* An end whose sign law the point breaks is no candidate while another is: a point with
     * w1 = 0 and z1 = -1e-7 next to w1's terms 1e-7 (a pattern within the sign tolerance of the
     * equilibrated units) is re-solved at z1 = 0, not on w1 = 0 again (fuzzing, crash-3192...). */
    if (k == NSDAE_ROW_COMPLEMENTARITY) {
        if ((wi >= 0) != (zi >= 0))
            return wi >= 0 ? -1 : 0;
        return fabs(zi) < fabs(wi) ? -1 : 0;
    }
    double dlo = isinf(p->lo[i]) ? INFINITY : fabs(zi - p->lo[i]);
    double dhi = isinf(p->hi[i]) ? INFINITY : fabs(p->hi[i] - zi);
    double dw = fabs(wi);
    if (dlo <= dhi && dlo < dw)
        return -1;
    if (dhi < dlo && dhi < dw)
        return 1;
    return 0;
}

/* The check with M's column maxima and row sums given (cached per matrix by the caller); with
 * wout, w is not given but computed into wout (= lcp_caller_w) in the pass that measures the
 * rows' terms. */
static double violation(const nsdae_mlcp *p, const double *cmax, const double *rsum, double *buf,
                        const double *z, const double *w, double *wout)
{
    int N = p->size, has_box = 0;
    for (int i = 0; p->kind && i < N; i++)
        has_box |= p->kind[i] == NSDAE_ROW_BOX;
    /* buf: 8 N doubles (s, fl, tz, zloc, the re-solved zp and wp, the pinned zq and wq) */
    rows R = {p, cmax, rsum, buf, buf + N, buf + 2 * N, buf + 3 * N, buf + 6 * N,
              buf + 7 * N, 0, 0, INFINITY, has_box, 0};
    if (wout) {
        row_terms(&R, z, wout);
        w = wout;
        R.tz_ready = 1;
    }
    double worst = rows_violation(&R, z, w);
    double Q = data_scale(&R);
    if (worst <= NSDAE_TOL_RESIDUAL && R.zs > FAR * Q) {
        /* the point itself too: crash-1b3a... (z3 = 2499717.69 where 2.5e6 solves rows 3 and 4
         * of terms ~2, residual 8e-5) passed under a floor lifted by M_13 z3 = 2.5e20 */
        R.zcap = FAR * Q;
        worst = rows_violation(&R, z, w);
        R.tz_ready = 0;
        /* far larger than the data: re-verified on its own pattern (header), whose point has
         * its fixed components exactly at their ends and so needs no floor beyond the data's
         * scale. Uncapped, a single huge entry lifts every row's floor again: fuzzing's
         * crash-e3aa... (M_31 = 1e14, z1 = 1/3) re-solved to z2 = -3.3e-5 on a row whose terms
         * are 1, under a floor of 4e-3 (the solution has z2 = 1, z3 = 1000). */
        double *zp = buf + 4 * N, *wp = buf + 5 * N, vp = INFINITY;
        if (lcp_pattern_point(p, z, w, zp) == 0) {
            lcp_caller_w(p, zp, wp);
            vp = rows_violation(&R, zp, wp);
        }
        /* its rank decided in the system's own units: 1e-7 z1 + 1e6 = 0 next to a row with
         * 1e6 z2 lost z1 to the rank cut (polish.c); either re-solved point proves the pattern */
        if (!(vp <= NSDAE_TOL_RESIDUAL) && lcp_pattern_point_scaled(p, z, w, zp) == 0) {
            lcp_caller_w(p, zp, wp);
            vp = fmin(vp, rows_violation(&R, zp, wp));
        }
        if (!(vp <= NSDAE_TOL_RESIDUAL) && lcp_pattern_point_ruiz(p, z, w, zp) == 0) {
            lcp_caller_w(p, zp, wp);
            vp = fmin(vp, rows_violation(&R, zp, wp));
        }
        /* a continuum's point: the minimal-norm point of its pattern's equations can leave the
         * piece (a sign law broken), where the point itself keeps them. Its equations proven
         * consistent on the data instead (polish.c, rows_consistent; not a residual at a point,
         * which a far point's terms hide: crash-499e... stays refused); a determined pattern's
         * re-solved point decides alone. crash-fec7...: the line
         * z1 + z3 = 5e6 of minimum (2.5e6, 0.025, 2.5e6, -2.5e-7) re-solved to z2 < 0 and was
         * rejected, and the answer was (5e6, 0, 1, 0) at twice the norm */
        if (!(vp <= NSDAE_TOL_RESIDUAL) && lcp_pattern_continuum(p, z, w) == 1)
            vp = 0;
        worst = fmax(worst, vp);
    }
    return worst;
}

/* Both entries: buf on the stack for the fast path's sizes (it checks every candidate pattern
 * per step), cmax and rsum computed when not given. */
static double checked(const nsdae_mlcp *p, const double *cmax, const double *rsum, const double *z,
                      const double *w, double *wout)
{
    int N = p->size;
    double small[10 * LCP_FAST_MAX_N];
    double *buf = N <= LCP_FAST_MAX_N ? small : malloc(sizeof(double) * 10 * (size_t)N);
    if (!buf)
        return INFINITY;
    if (!cmax || !rsum) {
        lcp_check_scale_compute(p, buf + 8 * N, buf + 9 * N);
        cmax = buf + 8 * N;
        rsum = buf + 9 * N;
    }
    double worst = violation(p, cmax, rsum, buf, z, w, wout);
    if (buf != small)
        free(buf);
    return worst;
}

double lcp_checked_violation(const nsdae_mlcp *p, const double *cmax, const double *rsum, const double *z,
                             const double *w)
{
    return checked(p, cmax, rsum, z, w, NULL);
}

double lcp_checked_violation_w(const nsdae_mlcp *p, const double *cmax, const double *rsum, const double *z,
                               double *w)
{
    return checked(p, cmax, rsum, z, NULL, w);
}

double lcp_checked_violation_buf(const nsdae_mlcp *p, const double *cmax, const double *rsum, double *buf,
                                 const double *z, const double *w)
{
    return violation(p, cmax, rsum, buf, z, w, NULL);
}

double lcp_scaled_violation(const nsdae_mlcp *p, const double *dr, const double *dc, const double *z,
                            const double *w)
{
    (void)dr;
    (void)dc;
    return checked(p, NULL, NULL, z, w, NULL);
}
