/* Fuzz target: the complementarity layer. Bytes become a small MLCP (size 1..6, row kinds, entries
 * from a short list of values so that ties, zeros and singular blocks are common), which is solved
 * by minimal norm (with solution counting) and enumerated. The layer's contract (lcp.h; README.md
 * here) is checked, by code that shares nothing with the layer:
 *   - statuses: OK or NO_SOLUTION, or NUMERICAL (a refusal) only where the data's spread exceeds
 *     2^SPREAD_MAX_LOG2 (spread_above: the dynamic range of [M | q] in its best units);
 *   - no NO_SOLUTION (or empty list) beside a solution the other call found and this file verifies;
 *   - w = M z + q recomputed; each row's residual within a tolerance relative to that row's own
 *     terms (|q_i| + sum_j |M_ij z_j|) and the rounding z may carry; a component counts as zero
 *     (or at its bound) when it moves no row beyond that row's tolerance (row_tolerances);
 *   - within the spread bound, the minimal-norm answer is no larger in norm than any solution
 *     the enumeration lists, counting only listed points with an exact solution near them
 *     (near_solution: one small change of z meets every row at once), since a point that passes
 *     the rows one by one may solve only a perturbed problem;
 *   - every enumerated piece's point passes the same check, a continuum's representative too
 *     (until stop 27 only isolated points were held to it; 493 of the 739 findings then listed
 *     a continuum whose point solved nothing, crash-4de6...'s (0, 0.5) among them).
 * A violated check aborts: libFuzzer keeps the input. */
#include "exact_existence.h"
#include "fuzz_check.h"

#include <nsdae/lcp.h>

#include <math.h>
#include <string.h>

#define MAX_SIZE 6
/* Relative tolerance of the independent check: the layer's own per-row acceptance is 1e-9-ish
 * relative; an answer off by more than this is wrong, not rounded. */
#define REL_TOL 1e-6
/* Rounding a computed z may carry: each z_j to within ROUND of the unit in which it makes the
 * point's largest term (below). About the layer's own floor (64 N eps, 8.5e-14 at N = 6); at 1e-12
 * it took w3 = 8e-14 on a row whose terms are 1e-13 for rounding (crash-10fd...). */
#define ROUND 1e-13
/* A point this much larger than its data gets no rounding allowance beyond the data's scale: its
 * terms can cancel to anything (a point 1e30 along a null direction of a problem without
 * solution). */
#define FAR 1e6

/* Entries from a list: small integers and a few scales (0 is frequent: degenerate problems). */
static double value_of(uint8_t b)
{
    static const double v[16] = {0, 0, 0, 1, -1, 2, -2, 0.5, -0.5, 3, -3, 1e-3, -1e3, 1e6, -1e-6, 10};
    return v[b & 15] * ((b >> 4) == 15 ? 1e-8 : (b >> 4) == 14 ? 1e8 : 1.0);
}

typedef struct reader {
    const uint8_t *p;
    size_t n;
} reader;

static uint8_t next_byte(reader *r)
{
    if (!r->n) return 0;
    r->n--;
    return *r->p++;
}

static double entry(const nsdae_mlcp *p, int i, int j)
{
    return p->M[i + (size_t)j * p->size];
}

/* Per row i, the tolerance of w_i: REL_TOL of the row's own terms |q_i| + sum_j |M_ij z_j|, plus
 * the rounding z may carry. A row is never judged against another row's size: w_i = 1e-7 on a
 * row whose only term is q_i = 1e-7 is a violation of size one, however small next to 1
 * (crash-8705...: an absolute 1e-6 (1 + terms) accepted it). The rounding of z_j is relative to
 * the unit in which z_j makes the point's largest term W (W / max_k |M_kj|), W capped at FAR
 * times the data's scale. rounding_units gives that unit u_j of each column (0 for a column of
 * zeros). */
static void rounding_units(const nsdae_mlcp *p, const double *z, double *u)
{
    int n = p->size;
    double W = 0, D = 0, cmax[MAX_SIZE];
    for (int j = 0; j < n; j++) {
        cmax[j] = 0;
        for (int i = 0; i < n; i++) cmax[j] = fmax(cmax[j], fabs(entry(p, i, j)));
        W = fmax(W, cmax[j] * fabs(z[j]));
        if (p->kind && p->kind[j] == NSDAE_ROW_BOX) {
            if (isfinite(p->lo[j])) D = fmax(D, cmax[j] * fabs(p->lo[j]));
            if (isfinite(p->hi[j])) D = fmax(D, cmax[j] * fabs(p->hi[j]));
        }
    }
    for (int i = 0; i < n; i++) D = fmax(D, fabs(p->q[i]));
    W = fmin(W, FAR * D);
    for (int j = 0; j < n; j++) u[j] = cmax[j] > 0 ? ROUND * W / cmax[j] : 0;
}

static void row_tolerances(const nsdae_mlcp *p, const double *z, const unsigned char *exact, double *tol)
{
    int n = p->size;
    double u[MAX_SIZE];
    rounding_units(p, z, u);
    for (int i = 0; i < n; i++) {
        double terms = fabs(p->q[i]), floor = 0;
        for (int j = 0; j < n; j++) {
            terms += fabs(entry(p, i, j) * z[j]);
            if (!exact[j]) floor += fabs(entry(p, i, j)) * u[j];
        }
        tol[i] = floor + REL_TOL * (terms + floor);
    }
}

/* Is a change d of z_j negligible: within every row's tolerance, and (for a box variable, whose
 * bounds give it a unit of its own) within REL_TOL of its box? w1 = 1e-7 z1 + 1e6 on [-1, 0]
 * answered z1 = -0.5 moves its row by 5e-14 of its terms, yet is half the box from either end. A z_j that enters no row is
 * measured against the point's largest component. */
static int negligible(const nsdae_mlcp *p, const double *z, const double *tol, int j, double d)
{
    int n = p->size, enters = 0;
    double zmax = 0;
    for (int i = 0; i < n; i++) {
        if (fabs(entry(p, i, j) * d) > tol[i]) return 0;
        enters |= entry(p, i, j) != 0;
        zmax = fmax(zmax, fabs(z[i]));
    }
    if (!enters && fabs(d) > REL_TOL * zmax) return 0;
    if (p->kind && p->kind[j] == NSDAE_ROW_BOX) {   /* the box's width, or its finite end's size */
        double lo = p->lo[j], hi = p->hi[j];
        double u = isfinite(hi - lo) ? hi - lo : fabs(isfinite(lo) ? lo : hi);
        if (u > 0 && fabs(d) > REL_TOL * u) return 0;
    }
    return 1;
}

/* One pass of the row check (above) at z, the columns marked exact carrying no rounding. With
 * snap != NULL, also writes the point with every component that its row forces to an end (z_i
 * negligible or at a bound while w_i is not zero) put exactly there, marks those exact and
 * returns 2 if any moved. */
static int rows_hold(const nsdae_mlcp *p, const double *z, unsigned char *exact, double *snap)
{
    int n = p->size, moved = 0;
    double w[MAX_SIZE], tol[MAX_SIZE];
    for (int i = 0; i < n; i++) {
        w[i] = p->q[i];
        for (int j = 0; j < n; j++) w[i] += entry(p, i, j) * z[j];
        if (!isfinite(z[i]) || !isfinite(w[i])) return 0;
    }
    row_tolerances(p, z, exact, tol);
    for (int i = 0; i < n; i++) {
        nsdae_row_kind k = p->kind ? p->kind[i] : NSDAE_ROW_COMPLEMENTARITY;
        int w_zero = fabs(w[i]) <= tol[i];
        double end = z[i];
        if (k == NSDAE_ROW_EQUALITY) {
            if (!w_zero) return 0;
        } else if (k == NSDAE_ROW_COMPLEMENTARITY) {
            int z_zero = negligible(p, z, tol, i, z[i]);
            if ((z[i] < 0 && !z_zero) || w[i] < -tol[i] || (!z_zero && !w_zero)) return 0;
            if (z_zero && (!w_zero || z[i] < 0)) end = 0;
        } else {
            double lo = p->lo[i], hi = p->hi[i];
            int at_lo = isfinite(lo) && negligible(p, z, tol, i, z[i] - lo);
            int at_hi = isfinite(hi) && negligible(p, z, tol, i, hi - z[i]);
            if ((z[i] < lo && !at_lo) || (z[i] > hi && !at_hi)) return 0;
            if (!at_lo && !at_hi && !w_zero) return 0;
            if (at_lo && !at_hi && w[i] < -tol[i]) return 0;
            if (at_hi && !at_lo && w[i] > tol[i]) return 0;
            if (!w_zero && at_lo != at_hi) end = at_lo ? lo : hi;
            if (z[i] < lo || z[i] > hi) end = z[i] < lo ? lo : hi;
        }
        if (snap) {
            snap[i] = end;
            if (end != z[i] || (k != NSDAE_ROW_EQUALITY && !w_zero && !exact[i])) moved = 1;
            if (end != z[i] || (k != NSDAE_ROW_EQUALITY && !w_zero)) exact[i] = 1;
        }
    }
    return snap && moved ? 2 : 1;
}

/* What a row's law imposes on the corrected point of near_solution (below): w_i = 0, z_i at its
 * end, or both (a degenerate corner). */
#define LAW_W 1
#define LAW_Z 2
/* The largest correction, in units of each component's allowance (min ||y||_2 of the change
 * tau y): a few allowances, since the rows one by one each took up to one. */
#define MOVE_MAX 4.0L

/* The point x nearest z (smallest ||y||_2 with x = base + tau y, base being z with the components
 * at an end put there, whose tau is then 0) that meets w_i = 0 on the rows with LAW_W, by
 * Gram-Schmidt on those rows (scaled by tau) in long double. Returns 0 if the equations are
 * inconsistent or need a change beyond MOVE_MAX. Consistency is decided on the data alone (q and
 * the ends, to 1e-9 of their size), not on the residual at z: crash-13c5...'s rows 2 to 4 are
 * 5e7 (z1 + z2 + z3) plus 3 z4 - 1e-14, -1e-6 z4, -3 z4, inconsistent by q2 = -1e-14, while z2 =
 * -z3 = 10.4 gives terms 5e8, whose products long double rounds by 3e-11. */
static int corrected_point(const nsdae_mlcp *p, const double *z, const double *tau, const unsigned char *law,
                           const double *end, long double *x)
{
    int n = p->size, r = 0;
    long double Q[MAX_SIZE][MAX_SIZE], c[MAX_SIZE], cd[MAX_SIZE], cs[MAX_SIZE], t[MAX_SIZE], y[MAX_SIZE] = {0};
    for (int j = 0; j < n; j++) {
        x[j] = (law[j] & LAW_Z) ? end[j] : z[j];
        t[j] = (law[j] & LAW_Z) ? 0 : tau[j];
    }
    for (int i = 0; i < n; i++) {
        if (!(law[i] & LAW_W)) continue;
        /* b: what y must give (the residual at base); bd, bs: the data's right-hand side, its size */
        long double a[MAX_SIZE], b = -(long double)p->q[i], bd = b, bs = fabs(p->q[i]), s = 0, nv = 0;
        for (int j = 0; j < n; j++) {
            a[j] = entry(p, i, j) * t[j];
            b -= entry(p, i, j) * x[j];
            if (!t[j]) bd -= entry(p, i, j) * x[j], bs += fabsl(entry(p, i, j) * x[j]);
            s += fabsl(a[j]);
        }
        for (int pass = 0; pass < 2; pass++)   /* twice: Gram-Schmidt loses orthogonality once */
            for (int l = 0; l < r; l++) {
                long double g = 0;
                for (int j = 0; j < n; j++) g += a[j] * Q[l][j];
                for (int j = 0; j < n; j++) a[j] -= g * Q[l][j];
                b -= g * c[l];
                bd -= g * cd[l];
                bs += fabsl(g * cs[l]);
            }
        for (int j = 0; j < n; j++) nv += a[j] * a[j];
        nv = sqrtl(nv);
        if (nv <= 1e-15L * s) {   /* dependent on the rows before */
            if (fabsl(bd) > 1e-9L * bs) return 0;
            continue;
        }
        for (int j = 0; j < n; j++) Q[r][j] = a[j] / nv;
        c[r] = b / nv, cd[r] = bd / nv, cs[r++] = bs / nv;
    }
    long double norm = 0;
    for (int l = 0; l < r; l++)
        for (int j = 0; j < n; j++) y[j] += c[l] * Q[l][j];
    for (int j = 0; j < n; j++) {
        norm += y[j] * y[j];
        x[j] += t[j] * y[j];
    }
    return norm <= MOVE_MAX * MOVE_MAX;
}

/* The sign laws at the corrected point x, to the rounding of long double (x meets its equations
 * exactly but for that): a law x breaks is added to `law` (z_i put at the end it crossed, or
 * w_i = 0 for a z_i at an end) and x is recomputed by the caller. Any rounding the point carried
 * is in tau, the change allowed. Returns how many laws were added. */
static int tighten_laws(const nsdae_mlcp *p, const long double *x, unsigned char *law, double *end)
{
    int n = p->size, added = 0;
    for (int i = 0; i < n; i++) {
        nsdae_row_kind k = p->kind ? p->kind[i] : NSDAE_ROW_COMPLEMENTARITY;
        if (k == NSDAE_ROW_EQUALITY || law[i] == (LAW_W | LAW_Z)) continue;
        double lo = k == NSDAE_ROW_BOX ? p->lo[i] : 0, hi = k == NSDAE_ROW_BOX ? p->hi[i] : INFINITY;
        if (law[i] == LAW_W) {   /* z_i within its bounds */
            if (x[i] < lo) end[i] = lo;
            else if (x[i] > hi) end[i] = hi;
            else continue;
        } else {                 /* z_i at an end: w_i's sign */
            long double w = p->q[i], terms = fabs(p->q[i]);
            for (int j = 0; j < n; j++) {
                w += entry(p, i, j) * x[j];
                terms += fabsl(entry(p, i, j) * x[j]);
            }
            long double t = 1e-15L * terms;
            if (end[i] == lo ? w >= -t : w <= t) continue;
        }
        law[i] = LAW_W | LAW_Z;
        added++;
    }
    return added;
}

/* The laws of near_solution's corrected point as a pattern, decided in rational arithmetic
 * (exact_existence.c): 0 only where that pattern certainly has no solution. The corrected point
 * meets the rows to long double's rounding, which a 1e9 cancellation can exceed: crash-3eb9...'s
 * (0, 0.5, -1 + 5e-10, 0, 0) had z1 at hi with w1 = 1e9 (z3 + 1) - 5e-15 = 0.5 > 0 (terms 1e9), and
 * counted as a solution of norm 1.25 against minimal norm's right answer (-1, 0.5, -1 + 5e-10,
 * 0, 0). A corner (both laws) is put at its end. */
static int pattern_has_exact_point(const nsdae_mlcp *p, const unsigned char *law, const double *end)
{
    int lawx[MAX_SIZE];
    for (int i = 0; i < p->size; i++) {
        nsdae_row_kind k = p->kind ? p->kind[i] : NSDAE_ROW_COMPLEMENTARITY;
        if (k == NSDAE_ROW_EQUALITY || !(law[i] & LAW_Z))
            lawx[i] = FUZZ_LAW_INSIDE;
        else
            lawx[i] = k == NSDAE_ROW_BOX && end[i] == p->hi[i] ? FUZZ_LAW_AT_HI : FUZZ_LAW_AT_LO;
    }
    return fuzz_pattern_feasible_exactly(p, lawx) != 0;
}

/* Is a solution near z: one change of z, component j by at most a few of its allowance
 * tau_j = REL_TOL |z_j| + its rounding, to a point that meets the equations of z's pattern and
 * every sign law? The rows one by one each grant REL_TOL of their own terms, each row its own
 * change of z; where the rows' terms cancel, those changes disagree. crash-0246...: rows 1 and 3
 * are 3 z2 + 3 z3 + 1e-7 z4 plus q = 3 and 0, so w3 = w1 - 3 for every z: row 1 (an equality)
 * and row 3 (z3 in [-1, inf) at lo, w3 >= 0) cannot both hold, yet at z = (-2.6e15, -8.6e7, -1,
 * 2.6e15) each row's terms are 2.6e8 and each row passed on its own. A row at a corner (z_i at
 * an end and w_i = 0, both negligible) is tried both ways. */
static int near_solution(const nsdae_mlcp *p, const double *z)
{
    int n = p->size, nd = 0, deg[MAX_SIZE];
    unsigned char none[MAX_SIZE] = {0}, law0[MAX_SIZE];
    double u[MAX_SIZE], tol[MAX_SIZE], tau[MAX_SIZE], end0[MAX_SIZE], zmax = 0;
    rounding_units(p, z, u);
    row_tolerances(p, z, none, tol);
    for (int i = 0; i < n; i++) zmax = fmax(zmax, fabs(z[i]));
    for (int i = 0; i < n; i++) tau[i] = REL_TOL * fabs(z[i]) + u[i] + ROUND * zmax;
    for (int i = 0; i < n; i++) {
        nsdae_row_kind k = p->kind ? p->kind[i] : NSDAE_ROW_COMPLEMENTARITY;
        double w = p->q[i];
        for (int j = 0; j < n; j++) w += entry(p, i, j) * z[j];
        int w_zero = fabs(w) <= tol[i], at_lo, at_hi;
        if (k == NSDAE_ROW_EQUALITY) {
            law0[i] = LAW_W;
            continue;
        }
        if (k == NSDAE_ROW_COMPLEMENTARITY) {
            at_lo = negligible(p, z, tol, i, z[i]), at_hi = 0, end0[i] = 0;
        } else {
            at_lo = isfinite(p->lo[i]) && negligible(p, z, tol, i, z[i] - p->lo[i]);
            at_hi = isfinite(p->hi[i]) && negligible(p, z, tol, i, p->hi[i] - z[i]);
            end0[i] = at_lo ? p->lo[i] : p->hi[i];
        }
        law0[i] = !at_lo && !at_hi ? LAW_W : w_zero ? 0 : LAW_Z;
        if (!law0[i]) deg[nd++] = i;
    }
    for (int mask = 0; mask < 1 << nd; mask++) {
        unsigned char law[MAX_SIZE];
        double end[MAX_SIZE];
        long double x[MAX_SIZE];
        memcpy(law, law0, sizeof law);
        memcpy(end, end0, sizeof end);
        for (int d = 0; d < nd; d++) law[deg[d]] = (mask >> d) & 1 ? LAW_Z : LAW_W;
        int ok;
        do ok = corrected_point(p, z, tau, law, end, x);
        while (ok && tighten_laws(p, x, law, end) > 0);
        if (ok && pattern_has_exact_point(p, law, end)) return 1;
    }
    return 0;
}

/* Returns 1 when (z, w = M z + q) solves p: every row within its own tolerance (above), and
 * again once every component its row forces to an end, or that lies beyond an end within its
 * rounding, is exactly there, with no rounding allowance for that column; a component exactly
 * at an end carries none from the start. The rule (tests/fuzz/open/README.md, end; lcp/check.c
 * states it independently): the point, its components at their ends being those ends, solves
 * to the rounding of its free components a problem whose rows are each perturbed by a small
 * fraction of their own terms. crash-2abb...: z2 = -2.1e-17 with w2 = 0 lifted row 4
 * (3 z2 + 1e-7 z3 = 0) through its allowance; at z2 = 0 that row keeps all of its terms, and
 * the MLCP has no solution. A rounded zero z_j lifts other rows' floors through its column
 * (it could be anything within its rounding), but where w_j is clearly nonzero every solution
 * near the point has z_j exactly at its end. crash-a656...: (-2e-44, 1.6e-37, 0, -1e-21) was
 * accepted with w2 = 1e-7 (so z2 = 0) while z2's column lifted row 1's floor to 5.7e-21 above
 * w1 = 1e-7 z4 = -1e-28, z1 inside its box (-inf, 1]: with z2 = 0 row 1 needs w1 = 0, so no
 * solution is there; the solution (-1e-7, 1e-21, 0, -1e-21) has w2 = 0. */
static int solves(const nsdae_mlcp *p, const double *z)
{
    unsigned char exact[MAX_SIZE] = {0};
    double snapped[MAX_SIZE];
    for (int j = 0; j < p->size; j++) {
        nsdae_row_kind k = p->kind ? p->kind[j] : NSDAE_ROW_COMPLEMENTARITY;
        exact[j] = k == NSDAE_ROW_COMPLEMENTARITY ? z[j] == 0 : k == NSDAE_ROW_BOX && (z[j] == p->lo[j] || z[j] == p->hi[j]);
    }
    int r = rows_hold(p, z, exact, snapped);
    return r == 2 ? rows_hold(p, snapped, exact, NULL) : r;
}

/* ---- conditioning: when a refusal is acceptable ---------------------------------------- */
/* Refusals (NSDAE_NUMERICAL) are accepted only where the data's scales are mixed beyond
 * SPREAD_MAX, measured in a way no choice of units can change: the spread of an MLCP is the
 * smallest dynamic range (largest over smallest nonzero magnitude) of D_r [M | q] D_c over every
 * positive diagonal D_r (n) and D_c (n + 1): a row or a variable in other units, or q in other
 * units than M z, has the same spread. The layer decides signs at 1e-10 and rank at 1e-11 of
 * its equilibrated terms (NSDAE_TOL_SIGN, NSDAE_TOL_RANK); with entries within 2^26 (6.7e7) of
 * each other in the best units, one elimination step makes terms within 2^52 = 1/eps of each
 * other, at the edge of what double keeps; above it, a pattern's consistency or a sign can hinge
 * on an entry below the rounding of another, and no check can tell. Below it a refusal is a
 * failure. The entries' list (value_of) spans 1e-14 to 1e14, so both sides are frequent. */
#define SPREAD_MAX_LOG2 26.0

/* Is log2 of the spread above b: with l_ij = log2 |a_ij| and u_i = log2 of D_r's i-th entry,
 * v_j = -log2 of D_c's, the scaled entries lie in [1, 2^b] iff v_j - u_i <= l_ij and
 * u_i - v_j <= b - l_ij for every nonzero a_ij: a system of difference constraints, feasible iff
 * the graph with those edges has no negative cycle (Bellman-Ford from 0 everywhere). */
static int spread_above(const nsdae_mlcp *p, double b)
{
    int n = p->size, nv = 2 * n + 1, ne = 0;
    int from[2 * MAX_SIZE * (MAX_SIZE + 1)], to[2 * MAX_SIZE * (MAX_SIZE + 1)];
    double len[2 * MAX_SIZE * (MAX_SIZE + 1)], d[2 * MAX_SIZE + 1] = {0};
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= n; j++) {
            double a = j < n ? entry(p, i, j) : p->q[i];
            if (a == 0) continue;
            double l = log2(fabs(a));
            from[ne] = i, to[ne] = n + j, len[ne++] = l;         /* v_j <= u_i + l */
            from[ne] = n + j, to[ne] = i, len[ne++] = b - l;     /* u_i <= v_j + b - l */
        }
    for (int pass = 0; pass < nv; pass++) {
        int changed = 0;
        for (int e = 0; e < ne; e++)
            if (d[from[e]] + len[e] < d[to[e]] - 1e-9) d[to[e]] = d[from[e]] + len[e], changed = 1;
        if (!changed) return 0;
    }
    return 1;
}

static double norm2(const double *z, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += z[i] * z[i];
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader r = {data, size};
    int n = 1 + next_byte(&r) % MAX_SIZE;
    double M[MAX_SIZE * MAX_SIZE], q[MAX_SIZE], lo[MAX_SIZE], hi[MAX_SIZE], z[MAX_SIZE], w[MAX_SIZE];
    nsdae_row_kind kind[MAX_SIZE];
    for (int i = 0; i < n; i++) {
        uint8_t b = next_byte(&r);
        kind[i] = b % 5 == 0 ? NSDAE_ROW_EQUALITY : b % 5 == 4 ? NSDAE_ROW_BOX : NSDAE_ROW_COMPLEMENTARITY;
        lo[i] = (b & 0x20) ? -INFINITY : -1.0 + (b >> 6) * 0.5;
        hi[i] = (b & 0x10) && !(b & 0x20) ? INFINITY : lo[i] + 1.0 + ((b >> 3) & 1);
        if (!isfinite(lo[i])) hi[i] = 1.0;
    }
    for (int k = 0; k < n * n; k++) M[k] = value_of(next_byte(&r));
    for (int i = 0; i < n; i++) q[i] = value_of(next_byte(&r));
    nsdae_mlcp p = {n, M, q, kind, lo, hi};
    nsdae_error err = {0};
    nsdae_status st = nsdae_mlcp_validate(&p, &err);
    FUZZ_CHECK_STATUS(st, err);
    if (st != NSDAE_OK) return 0;

    /* the contract (include/nsdae/lcp.h): OK, NO_SOLUTION, or NUMERICAL where the spread is
     * beyond SPREAD_MAX_LOG2; anything else, or a refusal of well-spread data, is a failure */
    int may_refuse = spread_above(&p, SPREAD_MAX_LOG2);
    nsdae_minnorm_spec spec = {NULL, NULL, 0, NULL, 1};
    nsdae_minnorm_result res;
    nsdae_status mst = nsdae_lcp_minnorm(&p, &spec, z, w, &res, &err);
    FUZZ_CHECK_STATUS(mst, err);
    FUZZ_CHECK(mst == NSDAE_OK || mst == NSDAE_NO_SOLUTION || (mst == NSDAE_NUMERICAL && may_refuse));
    if (mst == NSDAE_OK) FUZZ_CHECK(solves(&p, z));

    nsdae_lcp_solution_set *set = NULL;
    nsdae_status est = nsdae_lcp_enumerate(&p, &set, &err);
    FUZZ_CHECK_STATUS(est, err);
    FUZZ_CHECK(est == NSDAE_OK || (est == NSDAE_NUMERICAL && may_refuse));
    if (est == NSDAE_OK) {
        double best = INFINITY;
        for (int k = 0; k < set->count; k++) {
            FUZZ_CHECK(solves(&p, set->pieces[k].z));
            /* existence is demanded only where a solution is near: crash-0246..., crash-13c5...,
             * crash-3666..., crash-4007..., crash-499e..., crash-7632..., crash-a807...,
             * crash-f5f0... have none (tests/fuzz/open/README.md) */
            if (solves(&p, set->pieces[k].z) && near_solution(&p, set->pieces[k].z))
                best = fmin(best, norm2(set->pieces[k].z, n));
        }
        /* a solution verified here exists: minimal norm may not say there is none, and its answer
         * is no larger. An accepted point may sit REL_TOL (in its own units) beside the solution
         * it stands for (crash-3795...: z4 = -1.6e-6 where the solution has 0, |z|^2 = 0.999998
         * next to 1), so the norms are compared with 20 REL_TOL; the minimality findings were off
         * by 1 %. A point of norm 1e-13 next to 0 is rounding (crash-1dae...: z1 = 2.8e-14 at
         * hi = 0). */
        /* A point that passes every row may still solve only a perturbed problem: where the
         * calls disagree on existence, the exact decision (exact_existence.c) settles it. */
        if (isfinite(best)) {
            FUZZ_CHECK(mst != NSDAE_NO_SOLUTION || fuzz_mlcp_has_solution_exactly(&p) == 0);
            /* beyond the spread bound the branch and bound's rejections are not certain and the
             * contract does not promise minimality (lcp.h): refusing there instead would refuse
             * stepper steps the tests take (108 branch-and-bound answers of ctest, N up to 300) */
            if (mst == NSDAE_OK && !may_refuse) FUZZ_CHECK(norm2(z, n) <= best * (1 + 20 * REL_TOL) + 1e-26);
        }
        /* the minimal-norm answer (verified) means the enumeration cannot be empty; and within
         * the spread bound an empty list is checked exactly whatever minimal norm said
         * (crash-6e08...: minimal norm refused, the list was empty, and (2.5e9, 5e12 + 2, -1,
         * 2.5, 1e16 + ...) solves) */
        if (mst == NSDAE_OK || !may_refuse) FUZZ_CHECK(set->count > 0 || fuzz_mlcp_has_solution_exactly(&p) == 0);
    }
    nsdae_lcp_solution_set_free(set);
    return 0;
}
