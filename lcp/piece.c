/* One full complementarity pattern's piece of the solution set: empty, a point, or a
 * continuum (with its dimension and the objective's minimiser over it); and the merging of
 * pieces into distinct solutions. */
#include "internal.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

nsdae_status lcp_objective_build(const lcp_reduced *r, const nsdae_minnorm_spec *spec, lcp_arena *ar,
                                 lcp_objective *o, nsdae_error *err)
{
    int N = r->size, k = r->k;
    int kp = (spec && spec->k > 0) ? spec->k : N;
    const int *sel = (spec && spec->k > 0) ? spec->select : NULL;
    const double *Q = (spec && spec->k > 0) ? spec->Q : NULL;
    const double *zref = spec ? spec->z_ref : NULL;
    if (spec) {
        if (spec->k < 0 || spec->k > N)
            return nsdae_error_set(err, NSDAE_INVALID_INPUT, "minnorm: k = %d outside [0, %d]", spec->k, N);
        if (spec->k > 0 && !spec->select)
            return nsdae_error_set(err, NSDAE_INVALID_INPUT, "minnorm: k = %d but select is NULL", spec->k);
        if (spec->k == 0 && spec->Q)
            return nsdae_error_set(err, NSDAE_INVALID_INPUT, "minnorm: Q given without select (k = 0)");
    }
    double *PZ = lcp_arena_doubles(ar, (size_t)kp * k + 1), *e = lcp_arena_doubles(ar, (size_t)kp + 1);
    double *QPZ = lcp_arena_doubles(ar, (size_t)kp * k + 1), *Qe = lcp_arena_doubles(ar, (size_t)kp + 1);
    double *H = lcp_arena_doubles(ar, (size_t)k * k + 1), *g = lcp_arena_doubles(ar, (size_t)k + 1);
    double *u = lcp_arena_doubles(ar, (size_t)kp + 1);
    unsigned char *seen = lcp_arena_alloc(ar, (size_t)N + 1);
    double *chol = Q ? lcp_arena_doubles(ar, (size_t)kp * kp) : NULL;
    if (ar->failed)
        return nsdae_error_set(err, NSDAE_NOMEM, "minnorm: out of memory");
    for (int a = 0; a < kp; a++) {
        int j = sel ? sel[a] : a;
        if (j < 0 || j >= N)
            return nsdae_error_set(err, NSDAE_INVALID_INPUT, "minnorm: select[%d] = %d outside [0, %d)", a, j, N);
        if (seen[j])
            return nsdae_error_set(err, NSDAE_INVALID_INPUT, "minnorm: select[%d] = %d repeats an index", a, j);
        seen[j] = 1;
        double ref = zref ? zref[j] : 0.0;
        if (!isfinite(ref))
            return nsdae_error_set(err, NSDAE_INVALID_INPUT, "minnorm: z_ref[%d] = %g is not finite", j, ref);
        for (int c = 0; c < k; c++)
            PZ[(size_t)a * k + c] = r->Z[j + (size_t)c * N];
        e[a] = r->z0[j] - ref;
    }
    if (Q) {
        for (int i = 0; i < kp * kp; i++)
            if (!isfinite(Q[i]))
                return nsdae_error_set(err, NSDAE_INVALID_INPUT, "minnorm: Q entry %d is not finite", i);
        for (int i = 0; i < kp; i++)
            for (int j = 0; j < kp; j++)
                if (fabs(Q[i + (size_t)j * kp] - Q[j + (size_t)i * kp]) >
                    1e-12 * (1 + fabs(Q[i + (size_t)j * kp])))
                    return nsdae_error_set(err, NSDAE_INVALID_INPUT, "minnorm: Q is not symmetric at (%d,%d)", i, j);
        memcpy(chol, Q, sizeof(double) * (size_t)kp * kp);
        if (LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', kp, chol, kp) != 0)
            return nsdae_error_set(err, NSDAE_INVALID_INPUT, "minnorm: Q is not positive definite");
    }
    /* QPZ = Q PZ, Qe = Q e, g = PZ'Qe, H = PZ'Q PZ by BLAS (PZ row-major kp x k is X = PZ'
     * column-major k x kp): the plain triple loops, with Q = I multiplied in, were kp^2 k + k^2 kp
     * = 13 M products on deltasigma, 4 % of its call. H is made exactly symmetric (the loops
     * gave that bitwise for Q = I; dgemm's blocking need not). */
    if (Q) {
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, k, kp, kp, 1.0, PZ, k, Q, kp, 0.0, QPZ, k);
        cblas_dgemv(CblasColMajor, CblasNoTrans, kp, kp, 1.0, Q, kp, e, 1, 0.0, Qe, 1);
    } else if (kp > 0) {
        memcpy(QPZ, PZ, sizeof(double) * (size_t)kp * k);
        memcpy(Qe, e, sizeof(double) * (size_t)kp);
    }
    double c0 = 0;
    for (int a = 0; a < kp; a++)
        c0 += 0.5 * e[a] * Qe[a];
    if (k > 0 && kp > 0) {
        cblas_dgemv(CblasColMajor, CblasNoTrans, k, kp, 1.0, PZ, k, Qe, 1, 0.0, g, 1);
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, k, k, kp, 1.0, PZ, k, QPZ, k, 0.0, H, k);
    }
    for (int i = 0; i < k; i++)
        for (int j = 0; j < i; j++)
            H[i + (size_t)j * k] = H[j + (size_t)i * k] = 0.5 * (H[i + (size_t)j * k] + H[j + (size_t)i * k]);
    o->H = H;
    o->g = g;
    o->c0 = c0;
    o->PZ = PZ;
    o->e = e;
    o->Q = Q;
    o->u = u;
    o->kp = kp;
    o->z_injective = kp == N;
    /* the equilibration makes the identity weight diagonal (scale.c): then u'Q u is kp products,
     * not kp^2 (deltasigma: 49 k strided products, once per node, 4 % of the call) */
    o->q_diag = 1;
    for (int j = 0; j < kp && Q && o->q_diag; j++)
        for (int i = 0; i < kp && o->q_diag; i++)
            o->q_diag = i == j || Q[i + (size_t)j * kp] == 0;
    return NSDAE_OK;
}

/* From the selected components u = P Z t + e themselves, 1/2 u'Q u, not from 1/2 t'Ht + g't + c0:
 * that form cancels at the rounding of c0, and an equality z2 = -2e8 z1 with z1 = -1 + t1 in a
 * box puts 2e16 in c0, so z = (0, 0, -1) was valued 0 like z = 0 (fuzzing's crash-4a99...). */
double lcp_objective_eval(const lcp_objective *o, int k, const double *t)
{
    int kp = o->kp;
    double f = 0;
    /* by BLAS: once per node of the branch and bound, and on deltasigma (kp = 221, k = 156) the
     * plain loop was 4 % of the call */
    if (kp > 0)
        memcpy(o->u, o->e, sizeof(double) * (size_t)kp);
    if (kp > 0 && k > 0)
        cblas_dgemv(CblasRowMajor, CblasNoTrans, kp, k, 1.0, o->PZ, k, t, 1, 1.0, o->u, 1);
    for (int a = 0; a < kp; a++)
        f += 0.5 * o->u[a] *
             (o->Q && !o->q_diag ? lcp_dot(kp, o->Q + a, kp, o->u, 1) : o->Q ? o->Q[a + (size_t)a * kp] * o->u[a] : o->u[a]);
    return f < 0 ? 0 : f;
}

/* Is t in the node's inequalities (the equalities hold by construction)? */
static int signs_ok(const lcp_reduced *r, const signed char *st, const double *t)
{
    double tol = NSDAE_TOL_SIGN * r->scale;
    for (int i = 0; i < r->m; i++) {
        double val = st[i] == LCP_R0 ? lcp_red_v(r, i, t) : lcp_red_r(r, i, t);
        if (val < -tol)
            return 0;
    }
    return 1;
}

/* Whether the objective's minimiser over the piece is unique in z (1) or not (0). */
static int flat_at(const lcp_reduced *r, const signed char *st, const lcp_objective *o, const double *t,
                   lcp_qp_ws *ws)
{
    int k = r->k;
    if (o->z_injective)
        return 0;
    double *b = malloc(sizeof(double) * ((size_t)o->kp + 1));
    if (!b)
        return 0;
    for (int a = 0; a < o->kp; a++)
        b[a] = lcp_dot(k, o->PZ + (size_t)a * k, 1, t, 1);
    int d = lcp_poly_dimension(r, st, o->kp, o->PZ, b, t, NULL, ws);
    free(b);
    return d > 0;
}

/* The pattern's equalities: row i is r_i(t) = 0 (R0) or v_i(t) = 0 (V0); A is m x k. */
static void pattern_system(const lcp_reduced *r, const signed char *st, double *A, double *b)
{
    int k = r->k, m = r->m;
    for (int i = 0; i < m; i++) {
        if (st[i] == LCP_R0) {
            for (int j = 0; j < k; j++)
                A[i + (size_t)j * m] = r->R[i + (size_t)j * m];
            b[i] = -r->r0[i];
        } else {
            for (int j = 0; j < k; j++)
                A[i + (size_t)j * m] = r->vunit ? (i == j) : r->V[i + (size_t)j * m];
            b[i] = r->vunit ? 0.0 : -r->v0[i];
        }
    }
}

/* Is the objective level along the unit direction n: does z (its selected components) not move?
 * A rank decision on P Z restricted to n, |P Z n|_Q <= TOL_RANK |P Z|_Q, in squares
 * n'H n <= TOL_RANK^2 max_c H_cc. The curvature is computed from u = P Z n itself (not n'H n, whose
 * rounding is that of H's largest entry), and compared with H's largest diagonal entry squared
 * down by the rank tolerance, not with H's largest entry times it: an equality z2 = -2e8 z1 puts
 * 4e16 in H while a box variable that enters no row has curvature 1 along its own line; read as
 * level, fuzzing's crash-4a99... represented the segment z3 in [-1, 0] by its far end z3 = -1. A
 * null direction's own rounding (an ulp in each component) leaves a curvature of order
 * eps^2 max H_cc: level. The curvature n'H n in *curvature. */
static int level_along(const lcp_objective *o, int k, const double *n, double *curvature)
{
    int kp = o->kp;
    double curv = 0, hmax = 0;
    for (int a = 0; a < kp; a++)
        o->u[a] = lcp_dot(k, o->PZ + (size_t)a * k, 1, n, 1);
    for (int a = 0; a < kp; a++)
        curv += o->u[a] * (o->Q ? lcp_dot(kp, o->Q + a, kp, o->u, 1) : o->u[a]);
    for (int c = 0; c < k; c++)
        hmax = fmax(hmax, o->H[c + (size_t)c * k]);
    *curvature = curv;
    return !(curv > NSDAE_TOL_RANK * NSDAE_TOL_RANK * hmax);
}

/* A pattern whose equations leave one direction n (unit, k) free: the piece is the interval of
 * t0 + s n allowed by the node's inequalities, computed in closed form (the convex QP on such
 * degenerate, nearly parallel constraint sets is where Lemke's final basis is ill conditioned:
 * diode circuits). Returns 1 with t = the objective's minimiser over the piece, *dim (0: a point,
 * 1: a segment or ray) and *flat; 0 when empty. */
static int line_piece(const lcp_reduced *r, const signed char *st, const lcp_objective *o, double *t,
                      const double *n, int *dim, int *flat)
{
    int k = r->k, m = r->m;
    double tol = NSDAE_TOL_SIGN * r->scale, lo = -INFINITY, hi = INFINITY, tlo = -INFINITY, thi = INFINITY;
    double tmax = 0;
    for (int j = 0; j < k; j++)
        tmax = fmax(tmax, fabs(t[j]));
    for (int i = 0; i < m; i++) {
        /* the inequality of index i: v_i >= 0 when r_i = 0 is imposed, r_i >= 0 when v_i = 0 */
        double g0 = st[i] == LCP_R0 ? lcp_red_v(r, i, t) : lcp_red_r(r, i, t), g1 = 0, an = 0;
        for (int j = 0; j < k; j++) {
            double a = st[i] == LCP_R0 ? (r->vunit ? (i == j) : r->V[i + (size_t)j * m]) : r->R[i + (size_t)j * m];
            g1 += a * n[j];
            an = fmax(an, fabs(a));
        }
        if (fabs(g1) <= NSDAE_TOL_RANK * (1 + an)) {   /* constant along the line */
            if (g0 < -tol)
                return 0;
            continue;
        }
        lcp_line_clip(g0, g1, tol, &lo, &hi, &tlo, &thi);
    }
    if (tlo > thi)
        return 0;
    double s;
    *flat = 0;
    if (hi - lo <= NSDAE_TOL_SAME_SOLUTION * (1 + tmax)) {
        s = lo > hi ? 0.5 * (tlo + thi) : 0.5 * (lo + hi);
        if (!isfinite(s))
            s = isfinite(lo) ? lo : hi;
        *dim = 0;
    } else {
        /* objective along the line: f(t + s n) = f(t) + s (H t + g)'n + s^2 n'H n / 2 */
        double slope = 0, curv;
        for (int i = 0; i < k; i++)
            slope += n[i] * (lcp_dot(k, o->H + i, k, t, 1) + o->g[i]);
        int level = level_along(o, k, n, &curv);
        s = level ? 0.0 : -slope / curv;
        s = fmin(fmax(s, lo), hi);
        *dim = 1;
        if (level && !o->z_injective) {   /* flat: the objective is level but z moves along n */
            for (int a = 0; a < r->size && !*flat; a++)
                *flat = fabs(lcp_dot(k, r->Z + a, r->size, n, 1)) > NSDAE_TOL_RANK * r->scale;
        }
    }
    for (int j = 0; j < k; j++)
        t[j] += s * n[j];
    return 1;
}

/* The piece's QP in the coordinates y of its affine space t = t0 + Nn y (t0 the least-squares
 * point, Nn the k x d null basis), where the equalities are gone and only the m sign rows remain:
 * min 1/2 y'Hy y + gy'y subject to G y + h >= 0 (G m x d, column-major). HN: k x d scratch. */
static void null_space_qp_data(const lcp_reduced *r, const signed char *st, const lcp_objective *o, int d,
                               const double *Nn, const double *t0, double *HN, double *Hy, double *gy, double *G,
                               double *h)
{
    int k = r->k, m = r->m;
    for (int i = 0; i < m; i++) {   /* sign row i: a't + b >= 0 */
        h[i] = st[i] == LCP_R0 ? lcp_red_v(r, i, t0) : lcp_red_r(r, i, t0);
        for (int c = 0; c < d; c++) {
            double an = 0;
            for (int j = 0; j < k; j++)
                an += (st[i] == LCP_R0 ? (r->vunit ? (double)(i == j) : r->V[i + (size_t)j * m])
                                       : r->R[i + (size_t)j * m]) * Nn[j + (size_t)c * k];
            G[i + (size_t)c * m] = an;
        }
    }
    for (int c = 0; c < d; c++)
        for (int i = 0; i < k; i++)
            HN[i + (size_t)c * k] = lcp_dot(k, o->H + i, k, Nn + (size_t)c * k, 1);
    for (int a = 0; a < d; a++) {
        for (int b = 0; b < d; b++)
            Hy[a + (size_t)b * d] = lcp_dot(k, Nn + (size_t)a * k, 1, HN + (size_t)b * k, 1);
        double ga = 0;   /* the gradient at t0, H t0 + g, along n_a */
        for (int i = 0; i < k; i++)
            ga += Nn[i + (size_t)a * k] * (lcp_dot(k, o->H + i, k, t0, 1) + o->g[i]);
        gy[a] = ga;
    }
}

/* Is the objective flat along the null directions Nn: each entry of Hy = Nn'H Nn and of gy =
 * Nn'(H t0 + g) within the rounding (64 k eps) of its own terms, sum |N_ia H_ij N_jb| and
 * sum |N_ia| (|g_i| + sum_j |H_ij t0_j|)? Against H's largest entry instead, crash-755f... passed
 * as flat where the objective varies at a scale below it, and minimal norm answered 1e17. */
static int objective_flat(int k, int d, const lcp_objective *o, const double *Nn, const double *Hy, const double *gy,
                          const double *t0)
{
    double tol = 64 * k * 2.220446049250313e-16;
    for (int a = 0; a < d; a++) {
        const double *na = Nn + (size_t)a * k;
        double gterms = 0;
        for (int i = 0; i < k; i++) {
            double gi = fabs(o->g[i]);
            for (int j = 0; j < k; j++)
                gi += fabs(o->H[i + (size_t)j * k] * t0[j]);
            gterms += fabs(na[i]) * gi;
        }
        if (!(fabs(gy[a]) <= tol * gterms))
            return 0;
        for (int b = 0; b < d; b++) {
            const double *nb = Nn + (size_t)b * k;
            double hterms = 0;
            for (int i = 0; i < k; i++)
                for (int j = 0; j < k; j++)
                    hterms += fabs(na[i] * o->H[i + (size_t)j * k] * nb[j]);
            if (!(fabs(Hy[a + (size_t)b * d]) <= tol * hterms))
                return 0;
        }
    }
    return 1;
}

/* The second and third routes for a piece whose QP in t failed, both on the null-space QP above.
 * Second (Siconos' diodeBridge20: a 5-dimensional pattern whose KKT system defeats both Lemkes
 * in t): the KKT Lemke on it, y split as y+ - y-. Third, where that fails too: every set of
 * active rows (face_qp.c; H singular where box rows split, so no dual method). On success t moves
 * to the minimiser. 0 solved (t), 1 empty, 2 failed. */
static int nullspace_qp(const lcp_reduced *r, const signed char *st, const lcp_objective *o, int rank,
                        const double *Nn, double *t, lcp_qp_ws *ws)
{
    int k = r->k, m = r->m, d = k - rank, ny = 2 * d, L = ny + m;
    size_t nbuf = (size_t)k * d + (size_t)d * d + 2 * (size_t)d + (size_t)m * (ny + d) + m + 1;
    double *buf = malloc(sizeof(double) * nbuf);
    if (!buf)
        return 2;
    double *HN = buf, *Hy = HN + (size_t)k * d, *gy = Hy + (size_t)d * d, *G = gy + d, *Gs = G + (size_t)m * d,
           *h = Gs + (size_t)m * ny, *y = h + m;
    null_space_qp_data(r, st, o, d, Nn, t, HN, Hy, gy, G, h);
    for (int i = 0; i < m; i++)   /* row-major, y split */
        for (int c = 0; c < d; c++) {
            Gs[(size_t)i * ny + c] = G[i + (size_t)c * m];
            Gs[(size_t)i * ny + d + c] = -G[i + (size_t)c * m];
        }
    double *LM = ws->LM, *Lq = ws->Lq;
    memset(LM, 0, sizeof(double) * (size_t)L * L);
    for (int p = 0; p < ny; p++) {
        double sp = p < d ? 1 : -1;
        for (int q = 0; q < ny; q++)
            LM[p + (size_t)q * L] = sp * (q < d ? 1 : -1) * Hy[p % d + (size_t)(q % d) * d];
        Lq[p] = sp * gy[p % d];
    }
    for (int c = 0; c < m; c++) {
        for (int p = 0; p < ny; p++) {
            LM[p + (size_t)(ny + c) * L] = -Gs[(size_t)c * ny + p];
            LM[ny + c + (size_t)p * L] = Gs[(size_t)c * ny + p];
        }
        Lq[ny + c] = h[c];
    }
    int s = lcp_lemke(L, LM, Lq, ws->Lz, &ws->lemke);
    if (s == 1)   /* a ray may be the pivot threshold's, on a badly scaled objective (qp.c) */
        s = lcp_kkt_rescaled_lemke(ny, m, L, LM, Lq, Gs, h, ws->Lz, ws);
    if (s == 0 && !lcp_kkt_feasible(ny, m, Gs, h, ws->Lz))
        s = 2;
    if (s == 0)
        for (int c = 0; c < d; c++)
            y[c] = ws->Lz[c] - ws->Lz[d + c];
    if (s == 2)
        s = lcp_face_qp(d, m, Hy, gy, G, h, NSDAE_TOL_SIGN * r->scale, y, NULL) == 0 ? 0 : 2;
    if (s == 2) {   /* no KKT point: is the piece empty? a linear program, decided exactly */
        double val, *a0 = Gs;   /* Gs (m x ny) is free now: the rows row-major, then a = 0 */
        for (int i = 0; i < m; i++)
            for (int c = 0; c < d; c++)
                a0[(size_t)i * d + c] = G[i + (size_t)c * m];
        memset(a0 + (size_t)m * d, 0, sizeof(double) * (size_t)d);
        int lp = lcp_lp_max_exact(d, 0, m, a0, h, a0 + (size_t)m * d, y, &val);
        if (lp == 2)
            s = 1;
        /* Not empty, and the objective flat on the piece to the rounding of its terms (the piece's
         * directions leave z as it is: Hy and gy are noise, Hy not even symmetric), so that every
         * point of it is a minimiser: the LP's point is one. 28 of the open fuzz inputs of stop
         * 26 failed here, d = 2 to 3, Hy ~ 1e-15 beside H ~ 1 */
        else if (lp == 0 && objective_flat(r->k, d, o, Nn, Hy, gy, t))
            s = 0;
    }
    if (s == 0)
        for (int c = 0; c < d; c++)
            for (int i = 0; i < k; i++)
                t[i] += y[c] * Nn[i + (size_t)c * k];
    free(buf);
    return s;
}

int lcp_piece_examine(const lcp_reduced *r, const signed char *st, const lcp_objective *o, lcp_piece *pc,
                      lcp_qp_ws *ws, lcp_arena *ar)
{
    int k = r->k, m = r->m;
    enum { STACK_D = 2048, STACK_I = 256 };   /* 16 KB: the steppers' sizes allocate nothing (issue 12) */
    size_t need = (size_t)m * k * 2 + (size_t)m + 2 * (size_t)k + (size_t)k * k + 1;
    size_t needi = 2 * (size_t)k + (size_t)m + 2;
    double dstack[STACK_D];
    int istack[STACK_I];
    double *buf = need <= STACK_D ? dstack : calloc(need, sizeof(double));
    int *ipiv = needi <= STACK_I ? istack : malloc(sizeof(int) * needi), *idx = ipiv + k + 1;
    if (buf == dstack)
        memset(buf, 0, sizeof(double) * need);   /* zeroed: nb = 0 reads an empty right-hand side */
    if (!buf || !ipiv) {
        if (buf != dstack)
            free(buf);
        if (ipiv != istack)
            free(ipiv);
        return -1;
    }
    double *A = buf, *work = A + (size_t)m * k, *b = work + (size_t)m * k, *t = b + m, *N = t + k;
    int dim = 0, found = 0, done = 0, line_flat = -1;
    if (r->vunit) {
        /* t = v: the V0 variables are zero, so only the R0 block R[B,B] t_B = -r0_B is solved */
        int nb = 0;
        for (int i = 0; i < m; i++)
            if (st[i] == LCP_R0)
                idx[nb++] = i;
        double *Bb = A, *bb = b;
        for (int c = 0; c < nb; c++) {
            for (int rr = 0; rr < nb; rr++)
                Bb[rr + (size_t)c * nb] = r->R[idx[rr] + (size_t)idx[c] * m];
            bb[c] = -r->r0[idx[c]];
        }
        double *tb = N;   /* scratch */
        if (lcp_solve_square(nb, Bb, bb, tb, work, ipiv) == 0) {
            memset(t, 0, sizeof(double) * (size_t)k);
            for (int c = 0; c < nb; c++)
                t[idx[c]] = tb[c];
            found = signs_ok(r, st, t);
            done = 1;
        }
    }
    if (!done)
        pattern_system(r, st, A, b);
    if (done) {
        /* point found (or rejected) by the reduced solve */
    } else if (k == m && lcp_solve_square(k, A, b, t, work, ipiv) == 0) {
        found = signs_ok(r, st, t);
    } else {
        double resid;
        int rank = lcp_lstsq(m, k, A, b, t, &resid, N);
        if (rank < 0) {
            found = -1;
        } else if (resid <= NSDAE_TOL_RESIDUAL * r->scale) {
            if (rank == k) {
                found = signs_ok(r, st, t);
            } else if (rank == k - 1) {
                found = line_piece(r, st, o, t, N, &dim, &line_flat);
            } else {
                /* the least-squares point t0 passed the pattern's equalities within the residual
                 * tolerance; the QP in t holds them exactly, so an empty verdict there may be
                 * theirs: in t0's null-space coordinates only the sign rows remain */
                double *t0 = N + (size_t)k * k;
                memcpy(t0, t, sizeof(double) * (size_t)k);
                int s = lcp_qp_solve(r, st, o->H, o->g, 0, NULL, NULL, t, ws);
                if (s == 2 || (s == 1 && resid > 0)) {   /* a failure here keeps the verdict */
                    int s0 = s;
                    memcpy(t, t0, sizeof(double) * (size_t)k);
                    s = nullspace_qp(r, st, o, rank, N, t, ws);
                    s = s == 2 ? s0 : s;
                }
                if (s == 0) {
                    dim = lcp_poly_dimension(r, st, 0, NULL, NULL, t, N, ws);
                    found = dim < 0 ? -1 : 1;
                } else {
                    found = s == 1 ? 0 : -1;
                }
            }
        }
    }
    if (found == 1) {
        pc->st = lcp_arena_alloc(ar, (size_t)m + 1);
        pc->t = lcp_arena_doubles(ar, (size_t)k + 1);
        pc->z = lcp_arena_doubles(ar, (size_t)r->size);
        pc->D = lcp_arena_doubles(ar, (size_t)k * (dim > 0 ? dim : 0) + 1);
        if (ar->failed) {
            found = -1;
        } else {
            memcpy(pc->st, st, (size_t)m);
            memcpy(pc->t, t, sizeof(double) * (size_t)k);
            if (dim > 0)
                memcpy(pc->D, N, sizeof(double) * (size_t)k * dim);
            lcp_red_z(r, t, pc->z);
            pc->dim = dim;
            pc->fval = lcp_objective_eval(o, k, t);
            pc->flat = dim == 0 ? 0 : line_flat >= 0 ? line_flat : flat_at(r, st, o, t, ws);
        }
    }
    if (buf != dstack)
        free(buf);
    if (ipiv != istack)
        free(ipiv);
    return found;
}

int lcp_piece_list_push(lcp_piece_list *l, const lcp_piece *pc)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 16;
        lcp_piece *v;
        if (l->ar) {   /* the old array stays in the arena until the call ends: at most the new one's size */
            v = lcp_arena_alloc_uninit(l->ar, sizeof *v * (size_t)cap);
            if (v && l->n)
                memcpy(v, l->v, sizeof *v * (size_t)l->n);
        } else {
            v = realloc(l->v, sizeof *v * (size_t)cap);
        }
        if (!v)
            return -1;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = *pc;
    return 0;
}

void lcp_piece_list_free(lcp_piece_list *l)
{
    if (!l->ar)
        free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
}

void lcp_piece_list_merge(const lcp_reduced *r, lcp_piece_list *l, lcp_qp_ws *ws)
{
    /* largest pieces first: a piece can only be inside one at least as large */
    for (int i = 1; i < l->n; i++) {
        lcp_piece x = l->v[i];
        int j = i - 1;
        while (j >= 0 && l->v[j].dim < x.dim) {
            l->v[j + 1] = l->v[j];
            j--;
        }
        l->v[j + 1] = x;
    }
    int kept = 0;
    for (int i = 0; i < l->n; i++) {
        lcp_piece *p = &l->v[i];
        int dup = 0;
        for (int j = 0; j < kept && !dup; j++) {
            lcp_piece *q = &l->v[j];
            if (p->dim == 0 && q->dim == 0) {
                dup = lcp_same_point(r->size, p->z, q->z);
            } else {
                dup = lcp_piece_contained(r, p->st, p->t, p->dim, p->D, q->st, ws);
            }
            if (dup && p->fval < q->fval) {
                /* same set seen from two patterns: keep the better representative */
                q->fval = p->fval;
                q->t = p->t;
                q->z = p->z;
                q->flat |= p->flat;
            }
        }
        if (!dup)
            l->v[kept++] = *p;
    }
    l->n = kept;
}
