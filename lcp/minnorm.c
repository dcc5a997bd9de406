/* Minimal-norm selection over the whole solution set: depth-first branch and bound over the
 * complementarity indices, with convex-QP relaxations as lower bounds (qp.c). */
#include "internal.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { TIE_CAP = 64, PROBE_CANDIDATES = 12 };

typedef struct bnb {
    const lcp_reduced *r;
    const lcp_objective *o;
    lcp_qp_ws *ws;        /* the KKT Lemke's workspace once made (qp_ws), else NULL */
    lcp_qp_ws ws_store;
    int ws_extra;         /* equality rows beyond the node's it must hold */
    lcp_arena *ar;
    int counting;
    double best;          /* incumbent objective */
    double *z_best;       /* the incumbent's checked point (point_ok's, maybe polished) */
    int ntie;             /* candidates within tolerance of best: ties decide uniqueness */
    double tie_f[TIE_CAP];
    double *tie_z;        /* TIE_CAP x size: the candidates' checked points */
    double flat_f;        /* smallest objective at which the minimiser was flat */
    double *zbuf, *wbuf;
    double *zraw, *wraw;  /* the last checked point before polishing; scratch */
    int polished;         /* point_ok accepted it only once polished (zbuf != zraw) */
    const nsdae_minnorm_spec *spec;   /* the (equilibrated) objective, to value a polished point */
    const nsdae_mlcp *p;  /* the (equilibrated) problem */
    const lcp_origin *orig;   /* where candidates are checked row by row (NULL: on p) */
    lcp_piece_list pieces;
    long nodes, leaves;
    int ball;             /* ball_fix applies: the objective's Hessian in t is positive definite */
    double *vn, *rn;      /* m: sqrt(a'H^-1 a) for the rows a = V_i, R_i */
    lcp_dqp dqp;          /* node bounds by the warm-started dual method (dualqp.c) */
    int dqp_ok;           /* usable: H positive definite, not counting */
    long dqp_fallback;    /* nodes it could not decide (the KKT Lemke then did) */
    signed char *pst, *pact;   /* probing: a child's pattern and active set */
    double *pt;
    int branched;         /* children were pushed: the node being branched is no longer the root */
    int dropped;          /* a leaf's piece was dropped whose dimension needed a clamp retry (qp.c) */
    int exact_empty;      /* a node the KKT Lemke finds empty is confirmed by the exact LP */
    int exact_found;      /* a candidate came from exact_leaf: its leaf is no piece of the count */
    int leaf_found;       /* a leaf gave a candidate (not only the first Lemke incumbent) */
    int bound_pruned;     /* a node was pruned by its bound against the incumbent */
    int exact_unverified; /* exact_patterns found a feasible pattern whose point failed the rows */
    const lcp_std *s;     /* the standard form (its pairs, for a leaf's caller sides) */
    int beyond_spread;    /* the data spread beyond 2^NSDAE_SPREAD_MAX_LOG2 (-1: not asked yet): "no
                           * solution" is refused anyway, so no exact LP is asked (GLPK took 140 ms
                           * an LP on such data) */
    double *pv, *pr;      /* m: v_i(t), r_i(t) at the node's relaxation point (pair_values) */
} bnb;

/* The KKT Lemke's workspace, made on first use: it is O((2k + 3m)^2) doubles (50 MB zeroed on
 * deltasigma, 20 % of its time) and the dual method (dualqp.c) often decides every node without
 * it. NULL when out of memory (the arena then reports it). */
static lcp_qp_ws *qp_ws(bnb *b)
{
    if (!b->ws && !lcp_qp_ws_init(&b->ws_store, b->r, b->ws_extra, b->ar))
        b->ws = &b->ws_store;
    return b->ws;
}

/* v(t) and r(t) of every pair at once, by BLAS: ball_fix, probing and the choice of the branch
 * read them pair by pair, and the strided loops of lcp_red_v/r were 2 % of deltasigma's call. */
static void pair_values(bnb *b, const double *t)
{
    const lcp_reduced *r = b->r;
    int m = r->m, k = r->k;
    if (m == 0)
        return;
    memcpy(b->pr, r->r0, sizeof(double) * (size_t)m);
    if (k > 0)
        cblas_dgemv(CblasColMajor, CblasNoTrans, m, k, 1.0, r->R, m, t, 1, 1.0, b->pr, 1);
    if (r->vunit) {
        memcpy(b->pv, t, sizeof(double) * (size_t)m);
        return;
    }
    memcpy(b->pv, r->v0, sizeof(double) * (size_t)m);
    if (k > 0)
        cblas_dgemv(CblasColMajor, CblasNoTrans, m, k, 1.0, r->V, m, t, 1, 1.0, b->pv, 1);
}

static double ftol(double f)
{
    return NSDAE_TOL_OBJECTIVE * (1 + fabs(f));
}

/* A point that passes the sign tests of its pattern in reduced coordinates can still violate
 * the MLCP row by row when its pattern matrix is nearly singular (Siconos' Buck converter
 * MLCPs: a selected answer off by 99 % of its own row's terms). Only points that pass the
 * per-row check, directly or once polished on their own pattern (polish.c: the reduced
 * coordinates can lose a small answer in a large box offset), are candidates; the workspace
 * polishes the final answer the same way. */
static int point_ok(bnb *b, const double *t)
{
    size_t bytes = sizeof(double) * (size_t)b->r->size;
    lcp_red_z(b->r, t, b->zbuf);
    memcpy(b->zraw, b->zbuf, bytes);
    int ok = lcp_accept_or_polish(b->p, b->orig, b->zbuf, b->wbuf);
    b->polished = ok && memcmp(b->zraw, b->zbuf, bytes) != 0;
    return ok;
}

static int beyond_spread(bnb *b)
{
    if (b->beyond_spread < 0)
        b->beyond_spread = lcp_spread_exceeds(b->p, NSDAE_SPREAD_MAX_LOG2);
    return b->beyond_spread;
}

/* Does the leaf pattern st have a solution on the caller's data (lcp_pattern_feasible_exact)? */
static int leaf_pattern_exact(bnb *b, const signed char *st)
{
    int *side = lcp_arena_alloc(b->ar, sizeof(int) * (size_t)b->r->size);
    if (!side)
        return -1;
    lcp_caller_sides(b->s, st, side);
    return lcp_pattern_feasible_exact(b->orig->p, side, NULL);
}

static void take_checked_point(bnb *b, const double *z);

/* A leaf st whose pattern has a solution on the caller's data (the exact LP): a point of it taken
 * as a candidate (take_checked_point) once it passes the rows; 1 if one was. */
static int exact_leaf(bnb *b, const signed char *st)
{
    int N = b->r->size;
    int *side = lcp_arena_alloc(b->ar, sizeof(int) * (size_t)N);
    double *z = lcp_arena_doubles(b->ar, (size_t)N), *zc = lcp_arena_doubles(b->ar, (size_t)N);
    if (!side || !z || !zc || !b->orig)
        return 0;
    lcp_caller_sides(b->s, st, side);
    if (lcp_pattern_feasible_exact(b->p, side, z) != 1)
        return 0;
    /* the objective's minimiser over the pattern's piece (own_piece.c); the pattern's point where
     * its rows determine it; its minimal-norm least-squares point (as leaf_point_ok); else the
     * exact LP's own: crash-cf03... has its unique solution (-3.3e8, -1e8, 0, 0) up to z3, which
     * enters no row, and was answered "no solution" */
    int ok = lcp_piece_minimiser(b->p, b->spec, side, zc, NULL, b->ar) &&
             lcp_origin_accepts(b->orig, b->p, zc, b->wbuf);
    if (!ok)
        ok = lcp_pattern_point_determined(b->p, side, z, zc) == 0 && lcp_origin_accepts(b->orig, b->p, zc, b->wbuf);
    for (int scaled = 0; scaled < 2 && !ok; scaled++)
        ok = lcp_pattern_point_given(b->p, side, z, zc, scaled) == 0 && lcp_origin_accepts(b->orig, b->p, zc, b->wbuf);
    if (!ok) {
        memcpy(zc, z, sizeof(double) * (size_t)N);
        ok = lcp_origin_accepts(b->orig, b->p, zc, b->wbuf);
    }
    if (ok)
        take_checked_point(b, zc);
    return ok;
}

/* point_ok, then at a leaf the point of the leaf's own pattern st (lcp_pattern_point_given, in
 * the caller's units, then equilibrated), as the enumeration re-solves its points: the point's
 * nearest pattern need not be its leaf's, and 59 of the fuzz inputs left open by stop 26 were
 * refused ("a leaf piece ... dropped") where the enumeration, so re-solving, listed a solution. */
static int leaf_point_ok(bnb *b, const double *t, const signed char *st)
{
    if (point_ok(b, t))
        return 1;
    int N = b->r->size;
    int *side = lcp_arena_alloc(b->ar, sizeof(int) * (size_t)N);
    double *zp = lcp_arena_doubles(b->ar, (size_t)N);
    if (!side || !zp)
        return 0;
    lcp_caller_sides(b->s, st, side);
    for (int scaled = 0; scaled < 2; scaled++) {
        if (lcp_pattern_point_given(b->p, side, b->zraw, zp, scaled) == 0 &&
            lcp_origin_accepts(b->orig, b->p, zp, b->wbuf)) {
            memcpy(b->zbuf, zp, sizeof(double) * (size_t)N);
            b->polished = 1;
            return 1;
        }
    }
    return 0;
}


/* The objective of the point point_ok just accepted: f at t, or, when it was accepted only once
 * polished, at the polished point, which is the answer the caller would get (workspace.c polishes
 * the same way). Crediting a polished point with its unpolished objective made a wrong incumbent:
 * fuzzing's crash-bcbf... (two box rows) answered |z|^2 = 0.8994 from a relaxation point valued
 * below the 0.8890 solution that the incumbent then pruned. */
static double checked_objective(bnb *b, double f)
{
    return b->polished ? lcp_objective_at_z(b->spec, b->r->size, b->zbuf, b->wraw) : f;
}

/* A solution that point_ok has just accepted (b->zbuf its checked point), of objective f. Ties
 * are compared on the checked points, the ones their objectives are of: comparing the unpolished
 * z of a point accepted only once polished made deltasigma's minimiser look twice (8e-8 apart,
 * above NSDAE_TOL_SAME_SOLUTION), and the answer non-unique, in a build whose BLAS rounds
 * otherwise (OPENBLAS_CORETYPE=Sandybridge). */
static void candidate(bnb *b, double f, int flat)
{
    int N = b->r->size;
    if (flat)
        b->flat_f = fmin(b->flat_f, f);
    if (f < b->best) {
        b->best = f;
        memcpy(b->z_best, b->zbuf, sizeof(double) * (size_t)N);
        int keep = 0;   /* drop the ties the new incumbent beats */
        for (int i = 0; i < b->ntie; i++)
            if (b->tie_f[i] <= f + ftol(f)) {
                b->tie_f[keep] = b->tie_f[i];
                memmove(b->tie_z + (size_t)keep * N, b->tie_z + (size_t)i * N, sizeof(double) * (size_t)N);
                keep++;
            }
        b->ntie = keep;
    }
    if (f > b->best + ftol(b->best))
        return;
    int slot = b->ntie;
    if (slot == TIE_CAP) {   /* keep the smallest objectives */
        slot = 0;
        for (int i = 1; i < TIE_CAP; i++)
            if (b->tie_f[i] > b->tie_f[slot])
                slot = i;
        if (b->tie_f[slot] <= f)
            return;
    } else {
        b->ntie++;
    }
    b->tie_f[slot] = f;
    memcpy(b->tie_z + (size_t)slot * N, b->zbuf, sizeof(double) * (size_t)N);
}

/* z (N), which passed the caller's rows, as a candidate: a point the exact LP's routes or a
 * leaf's own coordinates gave (exact_leaf, leaf_in_own_coordinates, exact_patterns), valued at
 * itself; no piece of the count, so a count becomes unknown (exact_found). */
static void take_checked_point(bnb *b, const double *z)
{
    int N = b->r->size;
    if (z != b->zbuf)
        memcpy(b->zbuf, z, sizeof(double) * (size_t)N);
    b->polished = 1;
    candidate(b, lcp_objective_at_z(b->spec, N, b->zbuf, b->wraw), 0);
    b->exact_found = b->leaf_found = 1;
}

/* Is the relaxation's minimiser set (node st, objective level at t, and the nex extra equalities
 * Aex t = Aex t, row-major) more than one point in z? */
static int relaxation_flat(bnb *b, const signed char *st, const double *t, int nex, const double *Aex)
{
    const lcp_reduced *r = b->r;
    const lcp_objective *o = b->o;
    int k = r->k, nrow = o->kp + nex;
    if (o->z_injective || k == 0)
        return 0;
    if (!qp_ws(b))
        return 1;
    double *buf = malloc(sizeof(double) * ((size_t)nrow * k + nrow + (size_t)k * k + 1));
    if (!buf)
        return 1;
    double *rows = buf, *rhs = rows + (size_t)nrow * k, *D = rhs + nrow;
    memcpy(rows, o->PZ, sizeof(double) * (size_t)o->kp * k);
    if (nex)
        memcpy(rows + (size_t)o->kp * k, Aex, sizeof(double) * (size_t)nex * k);
    for (int a = 0; a < nrow; a++)
        rhs[a] = lcp_dot(k, rows + (size_t)a * k, 1, t, 1);
    int dim = qp_ws(b) ? lcp_poly_dimension(r, st, nrow, rows, rhs, t, D, b->ws) : -1;
    int flat = dim != 0;
    if (dim > 0) {   /* directions that move only variables invisible in z do not count */
        flat = 0;
        for (int j = 0; j < dim && !flat; j++)
            for (int a = 0; a < r->size && !flat; a++)
                flat = fabs(lcp_dot(k, r->Z + a, r->size, D + (size_t)j * k, 1)) > NSDAE_TOL_RANK * r->scale;
    }
    free(buf);
    return flat;
}

/* Fixing by the objective's curvature. t* minimises the convex objective f over the node's
 * polyhedron P, so for every t in P: f(t) - f(t*) >= grad f(t*)'(t - t*) + 1/2 (t - t*)'H(t - t*)
 * >= 1/2 ||t - t*||_H^2 (the first term is >= 0 by optimality). Every point of the subtree that
 * can still beat (or tie) the incumbent lies in the ellipsoid ||t - t*||_H^2 <= 2 gap, gap =
 * best + tol - f(t*), where a linear function a't moves by at most sqrt(2 gap a'H^-1 a) from
 * a't*. Where v_i (resp. r_i) stays positive on that whole ellipsoid, r_i = 0 (resp. v_i = 0) in
 * every such point: the index is fixed without a branch. v(t*), r(t*) are pair_values'. Returns
 * how many indices it fixed. */
static int ball_fix(bnb *b, signed char *st, double f)
{
    const lcp_reduced *r = b->r;
    if (b->counting || !b->ball || !isfinite(b->best))
        return 0;
    double rho = sqrt(2 * fmax(0, b->best + ftol(b->best) - f)), tol = NSDAE_TOL_SIGN * r->scale;
    int fixed = 0;
    for (int i = 0; i < r->m; i++) {
        if (st[i] != LCP_FREE)
            continue;
        if (b->pv[i] - b->vn[i] * rho > tol) {
            st[i] = LCP_R0;
            fixed++;
        } else if (b->pr[i] - b->rn[i] * rho > tol) {
            st[i] = LCP_V0;
            fixed++;
        }
    }
    return fixed;
}

/* sqrt(a'H^-1 a) for a = V_i and R_i (H = L L'; ||L^-1 a||), slightly enlarged for rounding;
 * ball = 0 when H is not positive definite (an objective on part of z). */
static void ball_prepare(bnb *b)
{
    const lcp_reduced *r = b->r;
    int k = r->k, m = r->m;
    b->ball = 0;
    b->vn = lcp_arena_doubles(b->ar, (size_t)m + 1);
    b->rn = lcp_arena_doubles(b->ar, (size_t)m + 1);
    double *L = lcp_arena_doubles(b->ar, (size_t)k * k + 1), *y = lcp_arena_doubles(b->ar, (size_t)k + 1);
    if (b->ar->failed || k == 0)
        return;
    memcpy(L, b->o->H, sizeof(double) * (size_t)k * k);
    if (LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', k, L, k) != 0)
        return;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < k; j++)
                y[j] = pass ? r->R[i + (size_t)j * m] : r->vunit ? (i == j) : r->V[i + (size_t)j * m];
            cblas_dtrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasNonUnit, k, L, k, y, 1);
            (pass ? b->rn : b->vn)[i] = 1.001 * sqrt(lcp_dot(k, y, 1, y, 1));
        }
    b->ball = 1;
}

/* Probing (strong branching) from a node the dual method solved: both children of each of the
 * PROBE_CANDIDATES most violated pairs are bounded, warm from the node's saved factor. A child
 * whose bound exceeds the incumbent fixes its pair to the other state without a branch (the node,
 * solved again, is pruned when the other child is empty too). Otherwise the pair whose weaker child bound is
 * highest is branched on (*bi). On deltasigma2 (12 candidates) the nodes go from 9119 to 287 and
 * the time from 5 s to 1.8 s (2 candidates: 4148 nodes; 24: 173 nodes, but more time a node):
 * the most violated pair is often one whose children both keep the parent's bound. Violation is
 * measured in the objective's metric where ball_fix's norms exist: v_i / sqrt(V_i'H^-1 V_i) is
 * the distance from t to the child's hyperplane v_i = 0, whose square over two is the least rise
 * of the objective there (ball_fix), so the pair with the larger weaker distance is the likelier
 * to prune: on deltasigma2 the dual method's steps go from 26500 to 24300 (deltasigma 17500 to
 * 17000, lcp_tobenna 214000 to 212000).
 * Each candidate's farther child (the larger of those distances) is bounded first, all of them
 * before any nearer one: most probes end in a fix (deltasigma: 98 of 134), and the farther child
 * is the one that exceeds the incumbent, usually in a few steps; the nearer children, solved to
 * their optimum, are the expensive ones and are needed only to score a branch. On deltasigma the
 * probes' dual solves go from 1518 to 1080 (steps 9472 to 8941; the call from 1.56 G to 1.43 G
 * instructions). The farther children are tried farthest first: the child whose hyperplane is
 * farther from t in the objective's metric starts with the higher bound (f(t) + d^2 / 2), and a
 * far child that does not exceed the incumbent is solved to its optimum for nothing until the fix
 * is found (deltasigma: far-child steps 7940 -> 5290, the call 1.30 G -> 0.96 G instructions;
 * deltasigma2 10320 -> 5640, 1.69 G -> 1.08 G). Returns 0 (*bi chosen, -1: no candidate), 1 st
 * narrowed (solve the node again). */
static int probe(bnb *b, signed char *st, const signed char *act, int *bi)
{
    const lcp_reduced *r = b->r;
    int m = r->m, cand[PROBE_CANDIDATES], nc = 0;
    double viol[PROBE_CANDIDATES], ctol = NSDAE_TOL_COMPLEMENTARITY * r->scale, cutoff = b->best + ftol(b->best);
    for (int i = 0; i < m; i++) {   /* the most violated pairs, by insertion */
        if (st[i] != LCP_FREE)
            continue;
        double vi = b->pv[i], ri = b->pr[i];
        if (!(fmin(vi, ri) > ctol))
            continue;
        double v = b->ball ? fmin(vi / b->vn[i], ri / b->rn[i]) : fmin(vi, ri);
        if (nc == PROBE_CANDIDATES && v <= viol[nc - 1])
            continue;
        int p = nc < PROBE_CANDIDATES ? nc++ : nc - 1;
        while (p > 0 && viol[p - 1] < v) {
            viol[p] = viol[p - 1];
            cand[p] = cand[p - 1];
            p--;
        }
        viol[p] = v;
        cand[p] = i;
    }
    *bi = -1;
    if (nc == 0)
        return 0;
    lcp_dqp_save(&b->dqp);
    double best_score = -INFINITY, bound[PROBE_CANDIDATES][2];
    int verdict = 0, strong[PROBE_CANDIDATES], order[PROBE_CANDIDATES];
    double far[PROBE_CANDIDATES];
    for (int c = 0; c < nc; c++) {   /* the farther child: side 1 (v_i = 0) or 0 (r_i = 0) */
        int i = cand[c];
        double dv = b->ball ? b->pv[i] / b->vn[i] : b->pv[i], dr = b->ball ? b->pr[i] / b->rn[i] : b->pr[i];
        strong[c] = dv > dr;
        far[c] = fmax(dv, dr);
        int p = c;
        while (p > 0 && far[order[p - 1]] < far[c]) {
            order[p] = order[p - 1];
            p--;
        }
        order[p] = c;
    }
    for (int pass = 0; pass < 2 && !verdict; pass++)
        for (int oc = 0; oc < nc && !verdict; oc++) {
            int c = pass ? oc : order[oc];
            int side = pass ? !strong[c] : strong[c];
            memcpy(b->pst, st, (size_t)m);
            memcpy(b->pact, act, (size_t)(2 * m));
            b->pst[cand[c]] = side ? LCP_V0 : LCP_R0;
            lcp_dqp_restore(&b->dqp);
            int s = lcp_dqp_solve(&b->dqp, b->pst, b->pact, cutoff, b->pt, &bound[c][side]);
            if (s == 1) {   /* this child is empty above the cutoff: the pair takes the other state */
                st[cand[c]] = side ? LCP_R0 : LCP_V0;
                verdict = 1;
            } else if (s != 0) {
                bound[c][side] = -INFINITY;   /* unknown */
            }
            if (pass && !verdict && fmin(bound[c][0], bound[c][1]) > best_score) {
                best_score = fmin(bound[c][0], bound[c][1]);
                *bi = cand[c];
            }
        }
    lcp_dqp_restore(&b->dqp);   /* the first child pushed starts from the node's factor */
    if (*bi < 0 && !verdict)
        *bi = cand[0];
    return verdict;
}

/* The pairs that the root fixed to v_i = 0 (decompose.c, ball_fix, probing) stay fixed in the
 * whole tree, and on a vunit problem v_i = t_i: those t_i are zero in every node, and the dual
 * method drops them (lcp_dqp_init_on), so that every factor of the tree is that much smaller (its
 * steps cost O(k |W|)). On deltasigma 38 of its 156 variables go (k = 118, and the 38 equality
 * rows t_i = 0 leave every active set W). Kept as it was when nothing is fixed or the new
 * factorisation fails. */
static void dqp_shrink(bnb *b, const signed char *st)
{
    const lcp_reduced *r = b->r;
    int k = r->k, kk = 0;
    if (!b->dqp_ok || !r->vunit || b->counting)
        return;
    int *cols = lcp_arena_alloc(b->ar, sizeof(int) * ((size_t)k + 1));
    if (!cols)
        return;
    for (int i = 0; i < k; i++)
        if (st[i] != LCP_V0)
            cols[kk++] = i;
    lcp_dqp d2;
    if (kk < k && kk > 0 && lcp_dqp_init_on(&d2, r, b->o->H, b->o->g, b->o->c0, cols, kk, b->ar) == 0)
        b->dqp = d2;
}

/* Both children of the node whose active set is act start from it (slots top, top + 1; act may
 * be slot top itself). */
static void warm_children(signed char *acts, const signed char *act, int top, int len)
{
    signed char *a2 = acts + (size_t)top * len;
    memmove(a2, act, (size_t)len);
    memcpy(a2 + len, a2, (size_t)len);
}

/* A leaf whose piece the reduced coordinates could not minimise (lcp_piece_examine failed): its
 * pattern's piece minimised in the problem's own coordinates (own_piece.c), the point a candidate
 * once it passes the caller's rows; or the leaf dropped where the exact LP finds its pattern
 * empty. 1 decided, 0 not (the caller refuses). In stop 27's fuzzing this failure was 13 of the
 * 15 inputs of a 10-minute run: where box rows split into two pairs, the piece's QP in t has a
 * singular H and constraints 1e-9 apart in scale. */
static int leaf_in_own_coordinates(bnb *b, const signed char *st)
{
    int N = b->r->size;
    int *side = lcp_arena_alloc(b->ar, sizeof(int) * (size_t)N);
    double *zn = lcp_arena_doubles(b->ar, (size_t)N);
    if (!side || !zn || !b->orig)
        return 0;
    lcp_caller_sides(b->s, st, side);
    if (lcp_piece_minimiser(b->p, b->spec, side, zn, NULL, b->ar) &&
        lcp_origin_accepts(b->orig, b->p, zn, b->wbuf)) {
        take_checked_point(b, zn);
        return 1;
    }
    return lcp_pattern_feasible_exact(b->p, side, NULL) == 0;
}

static nsdae_status branch_and_bound(bnb *b, nsdae_error *err)
{
    const lcp_reduced *r = b->r;
    int m = r->m, k = r->k;
    int cap = 2 * m + 2;
    signed char *stack = lcp_arena_alloc(b->ar, (size_t)cap * (m + 1));
    signed char *acts = lcp_arena_alloc(b->ar, (size_t)cap * (2 * m + 1));   /* warm active sets */
    double *t = lcp_arena_doubles(b->ar, (size_t)k + 1);
    if (!stack || !acts || !t)
        return nsdae_error_set(err, NSDAE_NOMEM, "minnorm: out of memory");
    /* root: every index free, except those in the same state in every solution (decompose.c) */
    if (lcp_forced_pattern(r, stack, b->ar) < 0)
        return nsdae_error_set(err, NSDAE_NOMEM, "minnorm: out of memory");
    int top = 1;
    double ctol = NSDAE_TOL_COMPLEMENTARITY * r->scale;
    while (top > 0) {
        signed char *st = stack + (size_t)(--top) * (m + 1), *act = acts + (size_t)top * (2 * m + 1);
        b->nodes++;
        int nfree = 0;
        for (int i = 0; i < m; i++)
            nfree += st[i] == LCP_FREE;
        if (nfree == 0) {
            lcp_piece pc;
            b->leaves++;
            if (!qp_ws(b))
                return nsdae_error_set(err, NSDAE_NOMEM, "minnorm: out of memory");
            b->ws->clamp_retried = 0;
            int f = lcp_piece_examine(r, st, b->o, &pc, b->ws, b->ar);
            if (f < 0 && !leaf_in_own_coordinates(b, st))
                return nsdae_error_set(err, NSDAE_NUMERICAL, "minnorm: linear algebra failed on a leaf pattern");
            if (f < 0)
                continue;
            /* an isolated point from a nearly singular pattern may be no solution, and so may a
             * continuum's representative: a pattern whose rows agree only to the residual
             * tolerance in the equilibrated units passes as a continuum (crash-4de6...: a box of
             * width 1 is 3.7e-9 there, and z2 = lo = hi read as consistent gave z2 = 0.5 midway,
             * off by half the box, which then won on norm and failed the caller's rows) */
            if (f == 0) {
                /* the second search (no solution found) asks the exact LP of an empty leaf too:
                 * its sign tests are the equilibrated units' (crash-d981...: q = 0, so z = 0
                 * solves, and every leaf was rejected) */
                if (b->exact_empty)
                    exact_leaf(b, st);
                continue;
            }
            if (!leaf_point_ok(b, pc.t, pc.st)) {
                /* its piece minimised in the problem's own coordinates: crash-eca3... (fuzzing)
                 * dropped here the leaf of the minimum, |z|^2 = 9.28e-15 derived by hand, and
                 * answered another piece's 9.62e-15 */
                if (leaf_in_own_coordinates(b, pc.st))
                    continue;
                /* the second search asks the exact LP here too: crash-cf03... (a box row and three
                 * equalities, the solution 1e8 out) had its one feasible leaf's point fail the
                 * caller's rows and was answered "no solution" */
                if (b->exact_empty && exact_leaf(b, pc.st))
                    continue;
                /* uncertain only if the leaf's pattern has a solution on the caller's own data,
                 * decided exactly: crash-5990... (no solution) was refused here as "not certain" */
                if (b->ws->clamp_retried)
                    b->dropped |= beyond_spread(b) || !b->orig || leaf_pattern_exact(b, pc.st) != 0;
                continue;
            }
            candidate(b, checked_objective(b, pc.fval), pc.flat);
            b->leaf_found = 1;
            if (b->counting && lcp_piece_list_push(&b->pieces, &pc))
                return nsdae_error_set(err, NSDAE_NOMEM, "minnorm: out of memory");
            continue;
        }
        int s = 2;
        if (b->dqp_ok) {
            double bound;
            s = lcp_dqp_solve(&b->dqp, st, act, b->best + ftol(b->best), t, &bound);
            /* A warm start can lead the active set through nearly dependent rows that the dual
             * method cannot take (dualqp.c: it then stops unproven); from the node's equalities
             * alone it takes another path. On deltasigma the one node that went to the KKT Lemke
             * is so solved, and that Lemke's workspace (O((2k + 3m)^2) doubles, 10 MB faulted in)
             * and solve were a sixth of the call. */
            if (s == 2) {
                memset(act, 0, (size_t)(2 * m));
                s = lcp_dqp_solve(&b->dqp, st, act, b->best + ftol(b->best), t, &bound);
            }
            if (s == 1) {   /* a proven lower bound above the incumbent */
                b->bound_pruned = 1;
                continue;
            }
            b->dqp_fallback += s != 0;
        }
        int s_dqp = s == 0;
        if (s != 0 && !qp_ws(b))
            return nsdae_error_set(err, NSDAE_NOMEM, "minnorm: out of memory");
        if (s != 0)
            s = lcp_qp_solve(r, st, b->o->H, b->o->g, 0, NULL, NULL, t, b->ws);
        if (s == 1 && b->exact_empty && lcp_node_feasible_exact(r, st) == 1)
            s = 2;
        if (s == 1)
            continue;
        if (s != 0) {
            /* No trustworthy bound (pivot limit, or an ill-conditioned final basis on a degenerate
             * relaxation): nothing may be pruned, so split on the first free index. The leaves
             * are decided exactly by lcp_piece_examine, so this costs time, never correctness. */
            int bi = 0;
            while (st[bi] != LCP_FREE)
                bi++;
            if (top + 2 > cap)
                return nsdae_error_set(err, NSDAE_LIMIT, "minnorm: node stack overflow");
            signed char *c2 = stack + (size_t)top * (m + 1), *c1 = c2 + (m + 1);
            memmove(c2, st, (size_t)m);
            memcpy(c1, c2, (size_t)m);
            warm_children(acts, act, top, 2 * m + 1);
            c2[bi] = LCP_V0;
            c1[bi] = LCP_R0;
            top += 2;
            b->branched = 1;
            continue;
        }
        double f = lcp_objective_eval(b->o, k, t);
        if (!b->counting && f > b->best + ftol(b->best)) {
            b->bound_pruned = 1;
            continue;
        }
        pair_values(b, t);
        if (ball_fix(b, st, f)) {   /* the same node, narrowed: solved again */
            top++;
            continue;
        }
        int bi = -1;
        if (s_dqp && isfinite(b->best)) {
            if (probe(b, st, act, &bi)) {   /* narrowed: solved again */
                top++;
                continue;
            }
        }
        double worst = ctol;
        for (int i = 0, chosen = bi >= 0; i < m && !chosen; i++) {
            if (st[i] != LCP_FREE)
                continue;
            double vi = b->pv[i], ri = b->pr[i], viol = fmin(vi, ri);
            if (viol > worst) {
                worst = viol;
                bi = i;
            }
        }
        if (bi < 0) {
            /* complementary: a solution, and the best of this subtree if it passes the rows as it
             * is (a point that passes only once polished is another point, and the subtree may
             * hold better ones: branching goes on) */
            int ok = point_ok(b, t);
            if (ok)
                candidate(b, checked_objective(b, f), 0);
            if (ok && !b->polished && !b->counting && !relaxation_flat(b, st, t, 0, NULL))
                continue;
            for (int i = 0; i < m && bi < 0; i++)   /* keep branching only to see ties or count */
                if (st[i] == LCP_FREE)
                    bi = i;
        }
        double vb = b->pv[bi], rb = b->pr[bi];
        signed char first = vb >= rb ? LCP_R0 : LCP_V0, second = first == LCP_R0 ? LCP_V0 : LCP_R0;
        if (top + 2 > cap)
            return nsdae_error_set(err, NSDAE_LIMIT, "minnorm: node stack overflow");
        if (!b->branched)   /* the root, with every fix it will get */
            dqp_shrink(b, st);
        b->branched = 1;
        signed char *c2 = stack + (size_t)top * (m + 1), *c1 = c2 + (m + 1);
        /* st may alias c2's slot: copy it before overwriting */
        memmove(c2, st, (size_t)m);
        memcpy(c1, c2, (size_t)m);
        warm_children(acts, act, top, 2 * m + 1);
        c2[bi] = second;
        c1[bi] = first;
        top += 2;
    }
    return NSDAE_OK;
}

/* 1/2 ||P (z - z_ref)||_Q^2 straight from z (the equilibrated spec: select, Q and z_ref given, or
 * NULL for all of z against the origin); buf holds k doubles. */
double lcp_objective_at_z(const nsdae_minnorm_spec *spec, int N, const double *z, double *buf)
{
    int k = spec && spec->k > 0 ? spec->k : N;
    for (int a = 0; a < k; a++) {
        int j = spec && spec->k > 0 ? spec->select[a] : a;
        buf[a] = z[j] - (spec && spec->z_ref ? spec->z_ref[j] : 0.0);
    }
    double f = 0;
    for (int a = 0; a < k; a++) {
        double qe = buf[a];
        if (spec && spec->Q) {
            qe = 0;
            for (int c = 0; c < k; c++)
                qe += spec->Q[a + (size_t)c * k] * buf[c];
        }
        f += 0.5 * buf[a] * qe;
    }
    return f;
}

/* A P-matrix (structure.c): one Lemke solve is the answer, without building the objective.
 * 1 answered, 0 not (Lemke failed, or its answer does not pass the rows: the caller goes on). */
static int unique_solve(bnb *b, const nsdae_minnorm_spec *spec, double *t, double *z, nsdae_minnorm_result *res)
{
    const lcp_reduced *r = b->r;
    lcp_lemke_ws lw;
    if (lcp_lemke_ws_init(&lw, r->m, b->ar) || lcp_lemke(r->m, r->R, r->r0, t, &lw) != 0 || !point_ok(b, t))
        return 0;
    memcpy(z, b->zbuf, sizeof(double) * (size_t)r->size);   /* the checked (maybe polished) point */
    double *buf = lcp_arena_doubles(b->ar, (size_t)r->size);
    if (!buf)
        return 0;
    res->objective = lcp_objective_at_z(spec, r->size, z, buf);
    res->unique = 1;
    res->nsol = 1;
    res->nodes = 1;
    return 1;
}

/* The iterate moved onto its own pattern: for each pair the smaller of v_i, r_i set to zero
 * exactly, by the least-norm correction (SVD, lcp_lstsq). Near a solution the pattern is the
 * solution's, and this point no longer carries the proximal iteration's rounding floor (about
 * cond(W) eps, with W's condition set by the regularisation). 0 done (tp), -1 LAPACK failed. */
static int pattern_projection(const lcp_reduced *r, const double *t, double *tp, double *A, double *rhs)
{
    int k = r->k, m = r->m;
    for (int i = 0; i < m; i++) {
        double vi = lcp_red_v(r, i, t), ri = lcp_red_r(r, i, t);
        int use_v = vi <= ri;
        for (int j = 0; j < k; j++)
            A[i + (size_t)j * m] = use_v ? (r->vunit ? (i == j) : r->V[i + (size_t)j * m]) : r->R[i + (size_t)j * m];
        rhs[i] = -(use_v ? vi : ri);
    }
    double resid;
    if (lcp_lstsq(m, k, A, rhs, tp, &resid, NULL) < 0)
        return -1;
    for (int j = 0; j < k; j++)
        tp[j] += t[j];
    return 0;
}

typedef struct gap_accept {
    bnb *b;
    double *tp, *A, *rhs;   /* k, m x k, m */
} gap_accept;

/* t, or its pattern projection, passes the rows itself (step 2's equalities are taken at t: a point
 * that passes only once polished is another point) */
static int accept_point(void *ctx, double *t)
{
    gap_accept *g = ctx;
    bnb *b = g->b;
    if (point_ok(b, t) && !b->polished)
        return 1;
    if (pattern_projection(b->r, t, g->tp, g->A, g->rhs) || !point_ok(b, g->tp) || b->polished)
        return 0;
    memcpy(t, g->tp, sizeof(double) * (size_t)b->r->k);
    return 1;
}

/* The rows G t + h >= 0 (row-major) of F = { v(t) >= 0, r(t) >= 0 }: 2m rows. */
static void feasible_rows(const lcp_reduced *r, double *G, double *h)
{
    int k = r->k, m = r->m;
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < k; j++) {
            G[(size_t)i * k + j] = r->vunit ? (i == j) : r->V[i + (size_t)j * m];
            G[(size_t)(m + i) * k + j] = r->R[i + (size_t)j * m];
        }
        h[i] = r->vunit ? 0.0 : r->v0[i];
        h[m + i] = r->r0[i];
    }
}

/* A first solution of a monotone problem: the minimiser of the gap 1/2 t'Ht + g't (zero there) over
 * F by proximal point iterations (prox.c), stopped at the first iterate that passes the rows. 1
 * found (t), 0 not. */
static int gap_prox(bnb *b, const double *H, const double *g, double *t, lcp_prox_ws *pw)
{
    const lcp_reduced *r = b->r;
    int k = r->k, m = r->m, nc = 2 * m;
    double *G = lcp_arena_doubles(b->ar, (size_t)nc * k + 1), *h = lcp_arena_doubles(b->ar, (size_t)nc + 1);
    gap_accept ga = {b, lcp_arena_doubles(b->ar, (size_t)k + 1), lcp_arena_doubles(b->ar, (size_t)m * k + 1),
                     lcp_arena_doubles(b->ar, (size_t)m + 1)};
    if (b->ar->failed)
        return 0;
    feasible_rows(r, G, h);
    return lcp_prox_qp(k, nc, H, g, G, h, t, accept_point, &ga, pw) == 0 && accept_point(&ga, t);
}

/* Step 2 by proximal point iterations: the objective over F and A t = A t* (the nex rows of Aex),
 * these as pairs of inequalities. Every row is relaxed by its violation at t* plus 1e-12 of its
 * own terms there: t* passed the rows to their tolerance, not exactly, and over an empty set the
 * iteration would drift (diodeBridge20: a constant step of 3e-12 for 400 iterations);
 * the accepted answer is polished on its pattern (point_ok), which removes what the relaxation
 * moved. 1 answered (t; b->zbuf the checked point), 0 not. */
static int solution_set_prox(bnb *b, int nex, const double *Aex, double *t, lcp_prox_ws *pw)
{
    const lcp_reduced *r = b->r;
    int k = r->k, m = r->m, nc = 2 * m + 2 * nex;
    double *G = lcp_arena_doubles(b->ar, (size_t)nc * k + 1), *h = lcp_arena_doubles(b->ar, (size_t)nc + 1);
    if (b->ar->failed)
        return 0;
    feasible_rows(r, G, h);
    for (int a = 0; a < nex; a++)
        for (int j = 0; j < k; j++) {
            G[(size_t)(2 * m + 2 * a) * k + j] = Aex[(size_t)a * k + j];
            G[(size_t)(2 * m + 2 * a + 1) * k + j] = -Aex[(size_t)a * k + j];
        }
    for (int c = 0; c < nc; c++) {
        double v = c < 2 * m ? h[c] : 0.0, terms = fabs(v);
        for (int j = 0; j < k; j++) {
            v += G[(size_t)c * k + j] * t[j];
            terms += fabs(G[(size_t)c * k + j] * t[j]);
        }
        if (c >= 2 * m) {
            h[c] = -v;   /* the row vanishes at t* */
            v = 0;
        }
        h[c] += fmax(0, -v) + 1e-12 * terms;
    }
    return lcp_prox_qp(k, nc, b->o->H, b->o->g, G, h, t, NULL, NULL, pw) == 0 && point_ok(b, t);
}

/* A monotone problem (structure.c): one solution t*, then the minimal objective over
 * F and { L t = L t*, b't = b't* }, the whole (convex) solution set: two convex QPs, or a Lemke
 * solve and one QP. The QPs by proximal point iterations first (prox.c: every step a positive
 * definite LCP, so the answer does not hinge on the last bit of the data as the split-variable KKT
 * Lemke did on diodeBridge20), that Lemke second. 1 answered, 0 not (a QP failed or an answer
 * fails the rows: the caller falls back to the branch and bound, which is exact). */
static int monotone_solve(bnb *b, const lcp_structure *cs, double *t, double *z, nsdae_minnorm_result *res)
{
    const lcp_reduced *r = b->r;
    int k = r->k, m = r->m, nL = cs->nL, nex = nL + 1;
    signed char *root = lcp_arena_alloc(b->ar, (size_t)m + 1);   /* every index free */
    double *Aex = lcp_arena_doubles(b->ar, (size_t)nex * k), *bex = lcp_arena_doubles(b->ar, (size_t)nex);
    double *H = lcp_arena_doubles(b->ar, (size_t)k * k), *gb = Aex + (size_t)nL * k;
    lcp_prox_ws pw;   /* both QPs' (step 2 has the more rows) */
    if (b->ar->failed || lcp_prox_ws_init(&pw, k, 2 * m + 2 * nex, b->ar))
        return 0;
    memcpy(Aex, cs->L, sizeof(double) * (size_t)nL * k);
    /* b = V'C r0 + R'C v0: the weighted gap's linear term */
    for (int j = 0; j < k; j++) {
        double s = 0;
        for (int i = 0; i < m && !r->vunit; i++)
            s += cs->cw[i] * (r->V[i + (size_t)j * m] * r->r0[i] + r->R[i + (size_t)j * m] * r->v0[i]);
        gb[j] = r->vunit ? cs->cw[j] * r->r0[j] : s;
    }
    /* 1. one solution: Lemke on a pure LCP, else the minimiser of the gap (H = 2 L'L) over F */
    lcp_lemke_ws lw;
    int have = r->vunit && !lcp_lemke_ws_init(&lw, m, b->ar) && lcp_lemke(m, r->R, r->r0, t, &lw) == 0 &&
               point_ok(b, t);
    if (!have) {
        for (int i = 0; i < k; i++)
            for (int j = 0; j < k; j++) {
                double s = 0;
                for (int a = 0; a < nL; a++)
                    s += cs->L[(size_t)a * k + i] * cs->L[(size_t)a * k + j];
                H[i + (size_t)j * k] = 2 * s;
            }
        have = gap_prox(b, H, gb, t, &pw);
        if (!have && qp_ws(b)) {   /* the split-variable KKT Lemke, the second route */
            b->ws->ray_second_route = 1;   /* the gap is bounded below: a ray here is a numerical failure */
            have = lcp_qp_solve(r, root, H, gb, 0, NULL, NULL, t, b->ws) == 0 && point_ok(b, t);
            b->ws->ray_second_route = 0;
        }
    }
    if (!have)
        return 0;
    /* 2. the minimal objective over the solution set: proximal point iterations, else the
     * split-variable KKT Lemke from the same t* */
    for (int a = 0; a < nex; a++)
        bex[a] = lcp_dot(k, Aex + (size_t)a * k, 1, t, 1);
    memcpy(H, t, sizeof(double) * (size_t)k);   /* H is free again: it keeps t* */
    int ok = solution_set_prox(b, nex, Aex, t, &pw);
    if (!ok && qp_ws(b)) {
        memcpy(t, H, sizeof(double) * (size_t)k);
        b->ws->ray_second_route = 1;   /* t* is feasible: a ray is a numerical failure here too */
        ok = lcp_qp_solve(r, root, b->o->H, b->o->g, nex, Aex, bex, t, b->ws) == 0 && point_ok(b, t);
        b->ws->ray_second_route = 0;
    }
    if (!ok)
        return 0;
    memcpy(z, b->zbuf, sizeof(double) * (size_t)r->size);
    res->objective = checked_objective(b, lcp_objective_eval(b->o, k, t));
    res->nodes = 2;
    res->unique = !relaxation_flat(b, root, t, nex, Aex);
    res->nsol = nL == k;   /* L t = L t* pins t when L has full rank: then the solution is unique */
    return 1;
}

/* Where even the exact LP's search found nothing: every full pattern decided on the problem's own
 * data, not the reduced one (the elimination's rounding is in the reduced rows, and the exact LP
 * of a node decides those exactly): a feasible pattern's piece minimised in its own coordinates
 * (own_piece.c) and taken once it passes the caller's rows, as the enumeration's exact_points.
 * crash-cfa7... (fuzzing): the solution (-1, 0, 5e6, 0, 5e6) and every node of the reduced
 * problem empty, the root included. Up to EXACT_PATTERNS_MAX_M pairs (2^m exact LPs, a tenth of a
 * millisecond each on small data). -1 on out of memory. */
#define EXACT_PATTERNS_MAX_M 10
static int exact_patterns(bnb *b)
{
    int N = b->r->size, m = b->r->m;
    signed char *st = lcp_arena_alloc(b->ar, (size_t)m + 1);
    int *side = lcp_arena_alloc(b->ar, sizeof(int) * (size_t)N);
    double *zn = lcp_arena_doubles(b->ar, (size_t)N);
    if (!st || !side || !zn)
        return -1;
    for (unsigned long mask = 0; mask < 1UL << m && b->orig; mask++) {
        for (int i = 0; i < m; i++)
            st[i] = (mask >> i) & 1 ? LCP_V0 : LCP_R0;
        lcp_caller_sides(b->s, st, side);
        if (lcp_pattern_feasible_exact(b->p, side, NULL) != 1)
            continue;
        if (!lcp_piece_minimiser(b->p, b->spec, side, zn, NULL, b->ar) || !lcp_origin_accepts(b->orig, b->p, zn, b->wbuf)) {
            b->exact_unverified = 1;   /* a solution exists; none of its points passed here */
            continue;
        }
        take_checked_point(b, zn);
    }
    return 0;
}

/* Steps: reduce; the matrix's structure (cached); a P-matrix is one solve, a monotone problem
 * two convex QPs; the rest (and any of these whose route fails) the branch and bound. */
nsdae_status lcp_minnorm_bnb(const nsdae_mlcp *p, const lcp_origin *orig, const nsdae_minnorm_spec *spec,
                             lcp_structure *cache, lcp_arena *keep, double *z, double *w,
                             nsdae_minnorm_result *result, double *weight_spread, nsdae_error *err)
{
    nsdae_status st = NSDAE_OK;
    nsdae_minnorm_result res = {0};
    lcp_arena ar = keep ? *keep : (lcp_arena){0};   /* the caller's blocks, given back at the end */
    lcp_std s;
    lcp_reduced r;
    lcp_objective o;
    bnb b = {0};
    int counting = spec && spec->count_solutions;
    if ((st = lcp_std_build(p, &ar, &s, err)))
        goto done;
    if ((st = lcp_reduce(&s, &ar, &r, err))) {
        /* "inconsistent equalities" rests on a rank decision (enumerate.c, crash-daa2...) */
        if (st == NSDAE_NO_SOLUTION && lcp_equalities_feasible_exact(p) != 0)
            st = nsdae_error_set(err, NSDAE_NUMERICAL,
                                 "minnorm: the equality rows read as inconsistent at the rank tolerance, but the "
                                 "exact LP finds them consistent");
        goto done;
    }
    if ((st = lcp_structure_get(cache, p, orig, &s, &r, err)))
        goto done;
    int k = r.k, m = r.m, N = p->size;
    counting = counting && m <= NSDAE_LCP_COUNT_MAX_M;   /* counting never makes a call exponential */
    double *t = lcp_arena_doubles(&ar, (size_t)k + 1);
    b.r = &r;
    b.s = &s;
    b.beyond_spread = -1;   /* asked when needed (spread.c allocates: not on a stepper's path) */
    b.ar = &ar;
    b.pieces.ar = &ar;   /* counting every step of a stepper: nothing allocated once warm */
    b.counting = counting;
    b.best = INFINITY;
    b.flat_f = INFINITY;
    b.p = p;
    b.orig = orig;
    b.zbuf = lcp_arena_doubles(&ar, (size_t)N);
    b.wbuf = lcp_arena_doubles(&ar, (size_t)N);
    b.zraw = lcp_arena_doubles(&ar, (size_t)N);
    b.wraw = lcp_arena_doubles(&ar, (size_t)N);
    b.spec = spec;
    if (ar.failed) {
        st = nsdae_error_set(err, NSDAE_NOMEM, "minnorm: out of memory");
        goto done;
    }
    if (cache->kind == LCP_STRUCT_UNIQUE && unique_solve(&b, spec, t, z, &res))
        goto finish;
    if ((st = lcp_objective_build(&r, spec, &ar, &o, err)))
        goto done;
    b.o = &o;
    if (weight_spread) {   /* the largest over the smallest nonzero weight H_jj */
        double lo = INFINITY, hi = 0;
        for (int j = 0; j < k; j++) {
            double hj = fabs(o.H[j + (size_t)j * k]);
            if (hj > 0)
                lo = fmin(lo, hj), hi = fmax(hi, hj);
        }
        *weight_spread = hi > 0 ? hi / lo : 1;
    }
    /* the QP workspace only when used (qp_ws): the P-matrix path never needs it */
    b.ws_extra = (o.z_injective ? 0 : o.kp) + (cache->kind != LCP_STRUCT_NONCONVEX ? cache->nL + 1 : 0);
    /* counting a monotone problem's solutions needs the solution polyhedron's dimension, which
     * lcp_poly_dimension got wrong on a unique diode-bridge step (a continuum): the branch and
     * bound counts those, as before */
    int monotone = cache->kind != LCP_STRUCT_NONCONVEX && (!counting || cache->nL == k);
    if (monotone && m > 0 && monotone_solve(&b, cache, t, z, &res))
        goto finish;
    b.tie_z = lcp_arena_doubles(&ar, (size_t)TIE_CAP * N);
    b.z_best = lcp_arena_doubles(&ar, (size_t)N);
    if (ar.failed) {
        st = nsdae_error_set(err, NSDAE_NOMEM, "minnorm: out of memory");
        goto done;
    }
    /* A first incumbent from one Lemke solve of the reduced LCP (t >= 0 _|_ R t + r0 >= 0):
     * every relaxation above it is pruned from the start. */
    if (r.vunit && m > 0) {
        lcp_lemke_ws lw;
        if (!lcp_lemke_ws_init(&lw, m, &ar) && lcp_lemke(m, r.R, r.r0, t, &lw) == 0 && point_ok(&b, t))
            candidate(&b, checked_objective(&b, lcp_objective_eval(&o, k, t)), 0);
    }
    ball_prepare(&b);
    int dq = counting ? 1 : lcp_dqp_init(&b.dqp, &r, o.H, o.g, o.c0, &ar);
    if (dq < 0) {
        st = nsdae_error_set(err, NSDAE_NOMEM, "minnorm: out of memory");
        goto done;
    }
    b.dqp_ok = dq == 0;
    b.pst = lcp_arena_alloc(&ar, (size_t)m + 1);
    b.pact = lcp_arena_alloc(&ar, (size_t)(2 * m) + 1);
    b.pt = lcp_arena_doubles(&ar, (size_t)k + 1);
    b.pv = lcp_arena_doubles(&ar, (size_t)m + 1);
    b.pr = lcp_arena_doubles(&ar, (size_t)m + 1);
    if (ar.failed) {
        st = nsdae_error_set(err, NSDAE_NOMEM, "minnorm: out of memory");
        goto done;
    }
    if ((st = branch_and_bound(&b, err)))
        goto done;
    /* "No solution" rests on every pruned node being empty, which the KKT Lemke decides with
     * pivot tolerances: on a problem of few pairs the search runs again with each such verdict
     * confirmed by the exact LP (lp_exact.c; a node that is not empty is split with no bound).
     * Only then: GLPK's rational simplex at every node would cost the steppers' searches that
     * find a solution, and allocate. crash-9a01...: (-1e8, 0, 0, 0, 0, 0) solves, 1e8 beyond
     * the data's scale, and the root was pruned as empty. */
    /* also where only the first Lemke incumbent was found and no node was pruned by its bound:
     * every leaf found empty beside a solution means some of those verdicts were wrong
     * (crash-12e4...: all 8 leaves empty, and the incumbent |z|^2 = 1 answered where
     * (0, -0.5, -0.5, 0), of 0.5, solves) */
    if ((!isfinite(b.best) || (!b.leaf_found && !b.bound_pruned)) && !b.dropped && m <= LCP_EXACT_EMPTY_MAX_M && !beyond_spread(&b)) {
        b.exact_empty = 1;
        if ((st = branch_and_bound(&b, err)))
            goto done;
        if (!isfinite(b.best) && m <= EXACT_PATTERNS_MAX_M && exact_patterns(&b) < 0) {
            st = nsdae_error_set(err, NSDAE_NOMEM, "minnorm: out of memory");
            goto done;
        }
    }
    /* a dropped leaf makes "no solution" uncertain: the problem's own patterns may settle it
     * (crash-6e08...: (2.5e9, 5e12 + 2, -1, 2.5, 1e16 + ...) solves) */
    if (!isfinite(b.best) && b.dropped && m <= EXACT_PATTERNS_MAX_M && !beyond_spread(&b) && exact_patterns(&b) < 0) {
        st = nsdae_error_set(err, NSDAE_NOMEM, "minnorm: out of memory");
        goto done;
    }
    res.nodes = b.nodes;
    res.leaves = b.leaves;
    if (!isfinite(b.best) && b.dropped) {
        /* a piece whose dimension rested on the clamp retry, and whose representative then
         * failed the rows: another of its points may solve (crash-8c9b...: the solution
         * (-1e-5, -1e-12, 0) exists), so "no solution" would be a guess */
        st = nsdae_error_set(err, NSDAE_NUMERICAL,
                             "minnorm: no solution found, but a leaf piece decided at the edge of the "
                             "equilibrated units' tolerance was dropped: not certain");
        goto done;
    }
    if (!isfinite(b.best) && b.exact_unverified) {
        /* crash-6e08...: the solution (2.5e9, 5e12 + 2, -1, 2.5, 1e16 + 7000), of a pattern
         * whose rows are singular to 1e-9 of their size, fails the far-point test's re-solves */
        st = nsdae_error_set(err, NSDAE_NUMERICAL,
                             "minnorm: a pattern has a solution in exact arithmetic, but no point of it passes the "
                             "rows' check: too ill-conditioned");
        goto done;
    }
    if (!isfinite(b.best)) {
        st = nsdae_error_set(err, NSDAE_NO_SOLUTION, "minnorm: the MLCP has no solution (%ld nodes explored)", b.nodes);
        goto done;
    }
    /* the checked point (polished, or its leaf pattern's point: leaf_point_ok), not t's image */
    memcpy(z, b.z_best, sizeof(double) * (size_t)N);
    res.objective = b.best;
    res.unique = b.flat_f > b.best + ftol(b.best);
    for (int i = 0; i < b.ntie && res.unique; i++)
        if (b.tie_f[i] <= b.best + ftol(b.best) && !lcp_same_point(N, b.tie_z + (size_t)i * N, b.z_best))
            res.unique = 0;
    if (counting) {
        if (!qp_ws(&b)) {
            st = nsdae_error_set(err, NSDAE_NOMEM, "minnorm: out of memory");
            goto done;
        }
        lcp_piece_list_merge(&r, &b.pieces, b.ws);
        res.nsol = b.pieces.n;
        for (int i = 0; i < b.pieces.n; i++)
            if (b.pieces.v[i].dim > 0)
                res.nsol = -1;
        if (b.exact_found)   /* leaves the pieces missed were decided by the exact LP: unknown */
            res.nsol = 0;
    }
finish:   /* the caller's wrapper (workspace.c) checks the answer on the original data */
    lcp_caller_w(p, z, w);
done:
    if (!st && ar.failed)
        st = nsdae_error_set(err, NSDAE_NOMEM, "minnorm: out of memory");
    if (result)
        *result = res;
    lcp_piece_list_free(&b.pieces);
    if (keep) {
        lcp_arena_reset(&ar);
        *keep = ar;
    } else {
        lcp_arena_free(&ar);
    }
    return st;
}
