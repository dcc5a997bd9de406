/* Exact minimal-norm selection for few complementarity rows (m <= LCP_FAST_MAX_M) by enumerating
 * the 2^m complementarity patterns of the whole MLCP.
 *
 * Pattern S (a subset of the complementarity rows): w_i = 0 for i in S, z_i = 0 otherwise, with
 * the equality rows: a square system of size N. Every solution of the MLCP satisfies some
 * pattern's system. When every pattern matrix is nonsingular, each pattern contributes at most
 * one point, so the solution set is finite and is exactly the set of pattern points that pass
 * the sign tests (z_i >= 0 on S, w_i >= 0 off S): the minimum over it and the count are exact.
 * Degenerate solutions (z_i = w_i = 0) come from several patterns and are merged.
 * A pattern matrix of nullity exactly one (clearly: its other singular values well separated) is
 * handled exactly too: its piece is the intersection of a line with the sign conditions, an
 * interval computed in closed form (empty, a point, a segment or a ray), and the objective's
 * minimum over it is a one-dimensional clamp. Circuits produce such patterns (a diode pair off
 * leaves a node potential undetermined). Any other singular or ill-conditioned pattern matrix sends
 * the whole matrix to the branch and bound.
 * The pattern matrices depend on M only, so their factors are computed once per matrix (a
 * time stepper changes only q). */
#include "internal.h"

#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

/* Row i of pattern mask: M's row (w_i = 0) for equality rows and for complementarity rows in
 * the mask, the unit row e_i (z_i = 0) otherwise; and column i of a z_i = 0 row is e_i too.
 * Why the column: z_i = 0 exactly (its right-hand side is 0, and refine resets it), so what M
 * holds there never enters the solution, but it does enter the conditioning. crash-77d5...:
 * w4 = 1e-7 (z1 + z3 + z4) + 1e14 z2 with z2 = 0; M's equilibration divides row 4 by its 1e14,
 * leaving 1e-14 next to 1.4 in a column whose z is 0, and neither M's units nor the pattern's
 * own Ruiz factors (row 4's maximum is that 1.4, so it is "balanced") saw the well-conditioned
 * 3 x 3 block [1 1 0; 0 1 1; 1 1 1] 1e-7 of rows 1, 3, 4: the pattern was read as a line and
 * the unique solution (0, 0, -1, 1) lost. */
static void pattern_matrix(const lcp_fast *f, const double *Ms, unsigned mask, double *A)
{
    int N = f->N;
    memcpy(A, Ms, sizeof(double) * (size_t)N * N);
    for (int c = 0; c < f->m; c++) {
        if (mask >> c & 1u)
            continue;
        int i = f->comp[c];
        for (int j = 0; j < N; j++)
            A[i + (size_t)j * N] = A[j + (size_t)i * N] = i == j;
    }
}

/* Nullity-one pattern matrix A (N x N, in the equilibrated units): pseudo-inverse into pinv,
 * unit null vector and left null vector. 0 when A has exactly one negligible singular value and
 * the others are well conditioned; 1 otherwise (ambiguous rank or larger nullity). */
static int line_pattern(int N, const double *A, double *pinv, double *nul, double *lnul)
{
    double a[LCP_FAST_MAX_N * LCP_FAST_MAX_N], u[LCP_FAST_MAX_N * LCP_FAST_MAX_N];
    double vt[LCP_FAST_MAX_N * LCP_FAST_MAX_N], sv[LCP_FAST_MAX_N], superb[LCP_FAST_MAX_N];
    memcpy(a, A, sizeof(double) * (size_t)N * N);
    if (N < 2 || LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'A', 'A', N, N, a, N, sv, u, N, vt, N, superb) != 0)
        return 1;
    /* sv[0] = 0 (A = 0) has nullity N, not one: both relative tests below pass at 0 <= 0 and the
     * pseudo-inverse would divide by zero (fuzzing: M = 0, q = 0, equality rows gave z = NaN) */
    if (!(sv[0] > 0) || !(sv[N - 1] <= NSDAE_TOL_RANK * sv[0]) || !(sv[N - 2] >= NSDAE_TOL_FAST_RCOND * sv[0]))
        return 1;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) {   /* pinv = V_r S_r^-1 U_r' */
            double v = 0;
            for (int r = 0; r < N - 1; r++)
                v += vt[r + (size_t)i * N] * u[j + (size_t)r * N] / sv[r];
            pinv[i + (size_t)j * N] = v;
        }
    for (int i = 0; i < N; i++) {
        nul[i] = vt[N - 1 + (size_t)i * N];
        lnul[i] = u[i + (size_t)(N - 1) * N];
    }
    return 0;
}

/* Factors pattern matrix A as a POINT pattern: 1 when A, or else A equilibrated on its own
 * (Dr A Dc, scale.c's Ruiz factors), has reciprocal condition >= NSDAE_TOL_FAST_RCOND.
 * Why the second try: M's equilibration balances M, not each pattern matrix. The equality row
 * -1e-14 z1 + 3 z2 + 3 z3 + 3 = 0 (column 1 also holding 0.01 and 3 in other rows) keeps its
 * -1e-14 next to 3 in the scaled M, so the pattern z2 = z3 = 0 (rows e2, e3 replace M's) looks
 * singular (rcond ~ 1e-14) and was read as a line with inconsistent right-hand side; it is
 * triangular with the unique point z1 = 3e14, the MLCP's solution (fuzzing, crash-6230...).
 * Scaled by its own columns that pattern matrix is [-1 3 3; 0 1 0; 0 0 1]. */
static int point_factor(lcp_fast *f, unsigned mask, const double *A)
{
    int N = f->N;
    double *LU = f->LU[mask], *dr = f->pdr[mask], *dc = f->pdc[mask];
    for (int i = 0; i < N; i++)
        dr[i] = dc[i] = 1.0;
    f->punit[mask] = 1;
    memcpy(LU, A, sizeof(double) * (size_t)N * N);
    if (!lcp_small_lu(N, LU, f->piv[mask]) &&
        lcp_small_rcond(N, A, LU, f->piv[mask], &f->pbound[mask]) >= NSDAE_TOL_FAST_RCOND)
        return 1;
    f->punit[mask] = 0;
    f->pbound[mask] = INFINITY;
    double As[LCP_FAST_MAX_N * LCP_FAST_MAX_N];
    lcp_scale_factors(N, A, dr, dc);
    lcp_scale_matrix(N, A, dr, dc, As);
    memcpy(LU, As, sizeof(double) * (size_t)N * N);
    if (!lcp_small_lu(N, LU, f->piv[mask]) && lcp_small_rcond(N, As, LU, f->piv[mask], NULL) >= NSDAE_TOL_FAST_RCOND)
        return 1;
    for (int i = 0; i < N; i++)
        dr[i] = dc[i] = 1.0;
    return 0;
}

/* b := A^-1 b for a POINT pattern: A^-1 = Dc (Dr A Dc)^-1 Dr */
static void point_solve(const lcp_fast *f, unsigned mask, double *b)
{
    int N = f->N;
    if (f->punit[mask]) {   /* the common case: two N-loops of products by 1 saved per solve */
        lcp_small_lu_solve(N, f->LU[mask], f->piv[mask], b);
        return;
    }
    for (int i = 0; i < N; i++)
        b[i] *= f->pdr[mask][i];
    lcp_small_lu_solve(N, f->LU[mask], f->piv[mask], b);
    for (int i = 0; i < N; i++)
        b[i] *= f->pdc[mask][i];
}

void lcp_fast_prepare(lcp_fast *f, int N, const double *Ms, const nsdae_row_kind *kind)
{
    f->ok = 0;
    f->N = N;
    f->m = 0;
    if (N > LCP_FAST_MAX_N)
        return;
    for (int i = 0; i < N; i++) {
        nsdae_row_kind k = kind ? kind[i] : NSDAE_ROW_COMPLEMENTARITY;
        if (k == NSDAE_ROW_BOX)
            return;   /* a box row is two complementarity conditions on one variable: not handled here */
        if (k == NSDAE_ROW_COMPLEMENTARITY) {
            if (f->m == LCP_FAST_MAX_M)
                return;
            f->rowabs[f->m] = 0;
            for (int j = 0; j < N; j++)
                f->rowabs[f->m] += fabs(Ms[i + (size_t)j * N]);
            f->comp[f->m++] = i;
        }
    }
    double A[LCP_FAST_MAX_N * LCP_FAST_MAX_N];
    for (unsigned mask = 0; mask < 1u << f->m; mask++) {
        pattern_matrix(f, Ms, mask, A);
        f->type[mask] = LCP_PAT_POINT;
        if (point_factor(f, mask, A))
            continue;
        f->type[mask] = LCP_PAT_LINE;
        if (line_pattern(N, A, f->LU[mask], f->nul[mask], f->lnul[mask]))
            return;
        for (int c = 0; c < f->m; c++)   /* z_i = 0 rows: the line does not move z_i */
            if (!(mask >> c & 1u))
                f->nul[mask][f->comp[c]] = 0;
    }
    f->ok = 1;
}

static void pattern_rhs(const lcp_fast *f, const nsdae_mlcp *ps, unsigned mask, double *b)
{
    for (int i = 0; i < f->N; i++)
        b[i] = -ps->q[i];
    for (int c = 0; c < f->m; c++)
        if (!(mask >> c & 1u))
            b[f->comp[c]] = 0;
}

/* x += (correction of the residual b - A x), A the pattern matrix of mask: one step of iterative
 * refinement against the data (the factors are reused for every q, so the refinement is what
 * keeps each step's answer at working accuracy). */
static void refine(const lcp_fast *f, const nsdae_mlcp *ps, unsigned mask, const double *b, double *x)
{
    int N = f->N;
    double r[LCP_FAST_MAX_N], d[LCP_FAST_MAX_N];
    memcpy(r, b, sizeof(double) * (size_t)N);
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++)
            r[i] -= ps->M[i + (size_t)j * N] * x[j];
    for (int c = 0; c < f->m; c++)
        if (!(mask >> c & 1u))
            r[f->comp[c]] = -x[f->comp[c]];
    if (f->type[mask] == LCP_PAT_POINT) {
        point_solve(f, mask, r);
        memcpy(d, r, sizeof d);
    } else {
        for (int i = 0; i < N; i++) {
            d[i] = 0;
            for (int j = 0; j < N; j++)
                d[i] += f->LU[mask][i + (size_t)j * N] * r[j];
        }
    }
    for (int i = 0; i < N; i++)
        x[i] += d[i];
    for (int c = 0; c < f->m; c++)
        if (!(mask >> c & 1u))
            x[f->comp[c]] = 0;
}

/* The sign condition of complementarity index c as an affine function g0 + s g1 of x0 + s n
 * (n may be NULL: s = 0). */
static void sign_row(const lcp_fast *f, const nsdae_mlcp *ps, unsigned mask, int c, const double *x0,
                     const double *n, double *g0, double *g1)
{
    int N = f->N, i = f->comp[c];
    if (mask >> c & 1u) {   /* w_i = 0: z_i >= 0 */
        *g0 = x0[i];
        *g1 = n ? n[i] : 0;
        return;
    }
    double a = ps->q[i], b = 0;
    for (int j = 0; j < N; j++) {
        a += ps->M[i + (size_t)j * N] * x0[j];
        if (n)
            b += ps->M[i + (size_t)j * N] * n[j];
    }
    *g0 = a;
    *g1 = b;
}

/* 1 when x, the unrefined solve of POINT pattern mask, breaks a sign condition by more than
 * refinement can move it: then the refined point fails point_piece's sign test too, and its
 * refinement (a residual and a solve, half of a step's work on Rocca's cases) is saved.
 * |x - x*| <= pbound |x| (lcp_small_rcond's bound) moves a w_i = q_i + M_i x by at most
 * sum_j |M_ij| times that; the margin is doubled and takes g0's own rounding. */
static int clearly_infeasible(const lcp_fast *f, const nsdae_mlcp *ps, unsigned mask, const double *x)
{
    int N = f->N;
    double xmax = 0, g0, g1;
    if (!isfinite(f->pbound[mask]))
        return 0;
    for (int i = 0; i < N; i++)
        xmax = fmax(xmax, fabs(x[i]));
    double ex = f->pbound[mask] * xmax, tol = NSDAE_TOL_SIGN * (1 + xmax + ex);
    if (!isfinite(ex))
        return 0;
    for (int c = 0; c < f->m; c++) {
        int i = f->comp[c];
        /* z_i >= 0 moves by ex; w_i by rowabs ex, and rounds at most at its terms' eps level */
        double move = ex, terms = xmax;
        if (!(mask >> c & 1u)) {
            move = f->rowabs[c] * ex;
            terms = fabs(ps->q[i]) + f->rowabs[c] * xmax;
        }
        sign_row(f, ps, mask, c, x, NULL, &g0, &g1);
        if (g0 < -(tol + 2 * move + 2 * (N + 1) * DBL_EPSILON * terms))
            return 1;
    }
    return 0;
}

typedef struct cand {
    double x[LCP_FAST_MAX_N];
    double f;
    int continuum, flat;
} cand;

/* f(x) = 1/2 |(x - zref)_sel|_Q^2; with n: also the slope and curvature along n */
static double objective_line(const nsdae_minnorm_spec *s, const double *x, const double *n, double *g, double *c)
{
    double e[LCP_FAST_MAX_N], d[LCP_FAST_MAX_N], f = 0;
    *g = *c = 0;
    for (int a = 0; a < s->k; a++) {
        e[a] = x[s->select[a]] - s->z_ref[s->select[a]];
        d[a] = n ? n[s->select[a]] : 0;
    }
    for (int a = 0; a < s->k; a++) {
        double qe = 0, qd = 0;
        for (int b = 0; b < s->k; b++) {
            qe += s->Q[a + (size_t)b * s->k] * e[b];
            qd += s->Q[a + (size_t)b * s->k] * d[b];
        }
        f += 0.5 * e[a] * qe;
        *g += d[a] * qe;
        *c += d[a] * qd;
    }
    return f;
}

/* The piece of a nonsingular pattern: 1 and the point in cd, or 0 when empty. */
static int point_piece(const lcp_fast *f, const nsdae_mlcp *ps, const lcp_origin *orig,
                       const nsdae_minnorm_spec *spec, unsigned mask, cand *cd)
{
    int N = f->N;
    double b[LCP_FAST_MAX_N], *x = cd->x, xmax = 0, g0, g1, dum;
    pattern_rhs(f, ps, mask, b);
    memcpy(x, b, sizeof(double) * (size_t)N);
    point_solve(f, mask, x);
    if (clearly_infeasible(f, ps, mask, x))
        return 0;
    refine(f, ps, mask, b, x);
    for (int i = 0; i < N; i++)
        xmax = lcp_keep_max(xmax, fabs(x[i]));
    /* equilibrated data: |q'| <= 1, |M'| entries <= 2, so this is relative */
    double tol = NSDAE_TOL_SIGN * (1 + xmax);
    for (int c = 0; c < f->m; c++) {
        sign_row(f, ps, mask, c, x, NULL, &g0, &g1);
        if (g0 < -tol)
            return 0;
    }
    for (int c = 0; c < f->m; c++)   /* a degenerate point within tolerance: clip to the cone */
        if (mask >> c & 1u)
            x[f->comp[c]] = lcp_keep_max(0.0, x[f->comp[c]]);
    /* The sign tests above are in equilibrated units, where a row dominated by one huge entry is
     * divided by it: M = [6 0; 5 1e150], q = (-4.5625, -6) at z2 = 0 leaves w2 = -2.2, which is
     * -1.3e-100 there. Each caller row against its own terms decides (check.c). */
    double w[LCP_FAST_MAX_N];
    if (!lcp_origin_accepts(orig, ps, x, w))
        return 0;
    cd->f = objective_line(spec, x, NULL, &dum, &dum);
    cd->continuum = cd->flat = 0;
    return 1;
}

/* The piece of a nullity-one pattern: { x0 + s n : s in [lo, hi] }; 1 and the objective's
 * minimiser over it in cd, or 0 when empty. */
static int line_piece(const lcp_fast *f, const nsdae_mlcp *ps, const lcp_origin *orig,
                      const nsdae_minnorm_spec *spec, unsigned mask, cand *cd)
{
    int N = f->N;
    const double *n = f->nul[mask];
    double b[LCP_FAST_MAX_N], x0[LCP_FAST_MAX_N], bmax = 0, xmax = 0, u = 0;
    pattern_rhs(f, ps, mask, b);
    for (int i = 0; i < N; i++) {
        x0[i] = 0;
        for (int j = 0; j < N; j++)
            x0[i] += f->LU[mask][i + (size_t)j * N] * b[j];
        bmax = lcp_keep_max(bmax, fabs(b[i]));
        u += f->lnul[mask][i] * b[i];
    }
    refine(f, ps, mask, b, x0);
    for (int i = 0; i < N; i++)
        xmax = lcp_keep_max(xmax, fabs(x0[i]));
    if (fabs(u) > NSDAE_TOL_RESIDUAL * (bmax + xmax))
        return 0;   /* the pattern's equations are inconsistent */
    double tol = NSDAE_TOL_SIGN * (1 + xmax), lo = -INFINITY, hi = INFINITY, tlo = -INFINITY, thi = INFINITY;
    for (int c = 0; c < f->m; c++) {
        double g0, g1;
        sign_row(f, ps, mask, c, x0, n, &g0, &g1);
        if (fabs(g1) <= NSDAE_TOL_RANK) {   /* n is a unit vector and |M'| <= 2: constant along the line */
            if (g0 < -tol)
                return 0;
            continue;
        }
        lcp_line_clip(g0, g1, tol, &lo, &hi, &tlo, &thi);
    }
    if (tlo > thi)
        return 0;
    double g, c, s;
    objective_line(spec, x0, n, &g, &c);
    /* n is a unit vector and Q' is normalised to a largest weight of about 1: |Q'^(1/2) n_sel| is
     * the relative rate at which the objective's argument moves along the line */
    int flat = sqrt(fmax(c, 0.0)) <= NSDAE_TOL_SLACK;
    if (hi - lo <= NSDAE_TOL_SAME_SOLUTION * (1 + xmax)) {   /* a point (within tolerance) */
        s = lo > hi ? 0.5 * (tlo + thi) : 0.5 * (lo + hi);
        if (!isfinite(s))
            s = isfinite(lo) ? lo : hi;
        cd->continuum = cd->flat = 0;
    } else {
        s = flat ? 0.0 : -g / c;
        s = fmin(fmax(s, lo), hi);
        cd->continuum = 1;
        cd->flat = flat;
    }
    double dum;
    for (int i = 0; i < N; i++)
        cd->x[i] = x0[i] + s * n[i];
    for (int k = 0; k < f->m; k++)
        if (mask >> k & 1u)
            cd->x[f->comp[k]] = fmax(cd->x[f->comp[k]], 0.0);
    /* Like a point piece's, the representative competes only once the caller's rows accept it
     * (check.c), polished on its own pattern if need be (polish.c): unchecked, a line through
     * z1 = -1e-14 (in a row whose other terms are 1e-13, within the sign tolerance of the
     * equilibrated units) was selected and then failed the final check by 0.28 while another
     * pattern held a solution (fuzzing, crash-3171...). */
    double w[LCP_FAST_MAX_N];
    if (!lcp_accept_or_polish(ps, orig, cd->x, w))
        return 0;
    cd->f = objective_line(spec, cd->x, NULL, &dum, &dum);
    return 1;
}

nsdae_status lcp_fast_minnorm(const lcp_fast *f, const nsdae_mlcp *ps, const lcp_origin *orig,
                              const nsdae_minnorm_spec *spec, double *z, nsdae_minnorm_result *res, nsdae_error *err)
{
    enum { CAP = 1 << LCP_FAST_MAX_M };
    int N = f->N, count = 0, best = -1, continuum = 0;
    cand cs[CAP];
    for (unsigned mask = 0; mask < 1u << f->m; mask++) {
        cand *cd = &cs[count];
        int found = f->type[mask] == LCP_PAT_POINT ? point_piece(f, ps, orig, spec, mask, cd)
                                                   : line_piece(f, ps, orig, spec, mask, cd);
        if (!found)
            continue;
        continuum |= cd->continuum;
        int dup = -1;
        for (int p = 0; p < count && dup < 0; p++)
            if (lcp_same_point(N, cs[p].x, cd->x))
                dup = p;
        if (dup >= 0) {   /* the same point seen from two patterns */
            /* "the same" to a tolerance of (1 + |x|) in the equilibrated units: the one of lower
             * objective stands for both. crash-209b... (fuzzing): (0, 3.9e-10, 0) and the line's
             * minimiser (0, 1.95e-10, 1.95e-10) merged, and the first, of twice the norm, was
             * answered */
            if (cd->f < cs[dup].f) {
                int flat = cs[dup].flat | cd->flat;
                cs[dup] = *cd;
                cs[dup].flat = flat;
                if (cs[dup].f < cs[best].f)
                    best = dup;
            } else {
                cs[dup].flat |= cd->flat;
            }
            continue;
        }
        if (best < 0 || cd->f < cs[best].f)
            best = count;
        count++;
    }
    res->nodes = 1;
    res->leaves = 1L << f->m;
    if (count == 0 && f->m == 0)
        return nsdae_error_set(err, NSDAE_NO_SOLUTION, "minnorm: the equality rows are inconsistent");
    if (count == 0)
        return nsdae_error_set(err, NSDAE_NO_SOLUTION,
                               "minnorm: the MLCP has no solution (each of the %d patterns is inconsistent or "
                               "violates a sign condition)", 1 << f->m);
    memcpy(z, cs[best].x, sizeof(double) * (size_t)N);
    double fb = cs[best].f, ftol = NSDAE_TOL_OBJECTIVE * (1 + fabs(fb));
    res->objective = fb;
    res->unique = 1;
    for (int p = 0; p < count; p++)
        if (cs[p].f <= fb + ftol && (p != best || cs[p].flat))
            res->unique = 0;
    if (spec->count_solutions)
        res->nsol = continuum ? -1 : count;
    else
        res->nsol = count == 1 && !continuum;
    return NSDAE_OK;
}
