/* Convex QPs over a node of the pattern tree, and the polyhedral questions built on them
 * (dimension of a piece, containment of one piece in another).
 *
 * Method: the QP's KKT system is a monotone LCP ([H -G'; G 0] is positive semidefinite), which
 * Lemke's method solves exactly by pivoting or proves infeasible by ray termination. This was
 * preferred to a primal active-set method because the Hessian is only semidefinite (P selects
 * a subset of z, box rows add variables absent from the objective) and the feasible sets are
 * degenerate by construction (continua, repeated rows): a primal active-set method needs a
 * phase-1 and anti-cycling care for exactly these cases, Lemke's lexicographic rule has both. */
#include "internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int lcp_qp_ws_init(lcp_qp_ws *ws, const lcp_reduced *r, int extra_eq, lcp_arena *ar)
{
    int k = r->k, m = r->m;
    int ny = 2 * k, nc = 3 * m + 2 * extra_eq, L = ny + nc;
    if (lcp_lemke_ws_init(&ws->lemke, L, ar))
        return -1;
    ws->ray_second_route = 0;
    ws->clamp_retried = 0;
    ws->siconos_aborted = 0;
    ws->L = L;
    ws->ar = ar;
    ws->rescale = NULL;
    ws->LM = lcp_arena_doubles(ar, (size_t)L * L + 1);
    ws->Lq = lcp_arena_doubles(ar, (size_t)L + 1);
    ws->Lz = lcp_arena_doubles(ar, (size_t)L + 1);
    ws->G = lcp_arena_doubles(ar, (size_t)nc * ny + 1);
    ws->h = lcp_arena_doubles(ar, (size_t)nc + 1);
    ws->yvar = lcp_arena_alloc(ar, sizeof(int) * ((size_t)ny + 1));
    ws->ysgn = lcp_arena_doubles(ar, (size_t)ny + 1);
    ws->Hy = lcp_arena_doubles(ar, (size_t)ny * ny + 1);
    ws->gy = lcp_arena_doubles(ar, (size_t)ny + 1);
    ws->rows = lcp_arena_doubles(ar, (size_t)(nc + 1) * (k + 1));
    ws->rhs = lcp_arena_doubles(ar, (size_t)nc + 1);
    return ar->failed ? -1 : 0;
}

/* Constraint rows a't + b (row-major, k wide) of a node: equalities first (neq), then
 * inequalities. With unit_rows == 0 the rows v_i = t_i of a vunit problem are left out
 * (they become variable bounds). */
static void node_rows(const lcp_reduced *r, const signed char *st, int unit_rows, int nex, const double *Aex,
                      const double *bex, double *rows, double *b, int *neq, int *nin)
{
    int k = r->k, m = r->m, c = 0;
    /* two passes: equalities, then inequalities */
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < m; i++) {
            int s = st[i];
            int r_is = (s == LCP_R0) ? 0 : 1;      /* 0: equality, 1: inequality */
            int v_is = (s == LCP_V0) ? 0 : 1;
            if (r_is == pass) {
                for (int j = 0; j < k; j++)
                    rows[(size_t)c * k + j] = r->R[i + (size_t)j * m];
                b[c++] = r->r0[i];
            }
            if (v_is == pass && (unit_rows || !r->vunit)) {
                for (int j = 0; j < k; j++)
                    rows[(size_t)c * k + j] = r->vunit ? (j == i) : r->V[i + (size_t)j * m];
                b[c++] = r->vunit ? 0.0 : r->v0[i];
            }
        }
        if (pass == 0) {
            for (int e = 0; e < nex; e++) {
                memcpy(rows + (size_t)c * k, Aex + (size_t)e * k, sizeof(double) * (size_t)k);
                b[c++] = -bex[e];
            }
            *neq = c;
        }
    }
    *nin = c - *neq;
}

/* A basis too ill conditioned to re-solve leaves the tableau's values: refuse them when they are
 * not even feasible, rather than let a wrong bound prune a subtree. Each row is held to the data's
 * scale plus the rounding its own terms carry; a tolerance growing with max |G| max |y| accepted
 * Siconos' Lemke answers of diodeBridge20 with y = 2.8e16 on split pairs y+ - y- (no digit of t
 * left) and a row violated by 4.5, or y = 1.2e7 and a row violated by 1.03 (the sanitizer build's
 * alignment changed OpenBLAS' rounding enough to take that path). A row whose sum cannot be known
 * to the data's tolerance, its rounding alone being larger, is refused too. */
int lcp_kkt_feasible(int ny, int nc, const double *G, const double *h, const double *y)
{
    double hmax = 0;
    for (int c = 0; c < nc; c++)
        hmax = fmax(hmax, fabs(h[c]));
    double base = 1e3 * NSDAE_TOL_RESIDUAL * (1 + hmax);
    for (int c = 0; c < nc; c++) {
        double v = h[c], terms = fabs(h[c]);
        for (int p = 0; p < ny; p++) {
            v += G[(size_t)c * ny + p] * y[p];
            terms += fabs(G[(size_t)c * ny + p] * y[p]);
        }
        if (!isfinite(v) || 16.0 * (ny + 1) * DBL_EPSILON * terms > base)
            return 0;
        if (v < -(base + NSDAE_TOL_RESIDUAL * terms))
            return 0;
    }
    return 1;
}

/* Every constraint row G y + h >= 0 (nc rows of ny, row-major) to NSDAE_TOL_RESIDUAL of that
 * row's own terms, plus rounding: a few ulps of the largest |y| and of the largest |h| (a row
 * v = y_4 >= 0 read -1.1e-16 next to y_1 = 1 on crash-0d44...; a null-space row a'N of size 2e-18
 * is rounding of a zero row). No allowance at an absolute scale (lcp_kkt_feasible's 1e-6 at data
 * of size one), which at data of size 1e-6 is a violation of size one. */
static int rows_hold(int ny, int nc, const double *G, const double *h, const double *y)
{
    double ymax = 0, hmax = 0;
    for (int p = 0; p < ny; p++)
        ymax = fmax(ymax, fabs(y[p]));
    for (int c = 0; c < nc; c++)
        hmax = fmax(hmax, fabs(h[c]));
    for (int c = 0; c < nc; c++) {
        double v = h[c], terms = fabs(h[c]), gsum = 0;
        for (int p = 0; p < ny; p++) {
            v += G[(size_t)c * ny + p] * y[p];
            terms += fabs(G[(size_t)c * ny + p] * y[p]);
            gsum += fabs(G[(size_t)c * ny + p]);
        }
        if (!(v >= -(NSDAE_TOL_RESIDUAL * terms + 16.0 * (ny + 1) * DBL_EPSILON * (gsum * ymax + hmax))))
            return 0;
    }
    return 1;
}

/* Lemke's path is invariant, in exact arithmetic, under a positive diagonal scaling of the LCP
 * (z = D z', M' = D M D, q' = D q); its pivot threshold (1e-11 of the column) is not. In a KKT
 * system [H -G'; G 0] a column holds H's entries beside the constraint rows', and the objective
 * in the caller's units (minimal norm of z, equilibrated by powers of two) can put 2^-38 on H's
 * diagonal next to constraint entries 1 (fuzzing's crash-c141...: a column of M whose only entry
 * is -1e-6 is scaled by 2^19): every genuine pivot was refused and the path ended in a ray on a
 * node that holds the point t3 = 2^-19. D, powers of two: for the QP's variables H_pp^(-1/2)
 * (1 where H_pp = 0), then for each constraint row the inverse of its largest scaled entry, so
 * that H' has a unit diagonal and G' unit rows (|H'_pq| <= 1 since H is semidefinite). Lemke on
 * the scaled system; Lz (L = ny + nc entries) in the original units. The scaling moves q's
 * entries against Lemke's absolute floors (its z0 test is 1e-12 (1 + max |q|)): on crash-c141...
 * it shrank a constraint violated by 1e-6 to 2e-12 and stopped there, which lcp_kkt_feasible's
 * absolute allowance (1e-6 at data of size one) let through. So the answer is taken only when
 * every constraint row G y + h >= 0 holds to NSDAE_TOL_RESIDUAL of that row's own terms. 0 solved
 * (Lz), 1 ray, 2 anything else. */
int lcp_kkt_rescaled_lemke(int ny, int nc, int L, const double *LM, const double *Lq, const double *G,
                           const double *h, double *Lz, lcp_qp_ws *ws)
{
    /* from the call's arena, once per workspace: the retry runs on many nodes of a stepper's
     * every step (Rocca's crossing: 3 a step), which allocated nothing else (issue 12) */
    if (!ws->rescale)
        ws->rescale = lcp_arena_doubles_uninit(ws->ar, (size_t)ws->L * ws->L + 2 * (size_t)ws->L + 1);
    double *buf = ws->rescale;
    if (!buf || L > ws->L)
        return 2;
    double *Ms = buf, *qs = Ms + (size_t)L * L, *d = qs + L;
    for (int p = 0; p < L; p++) {
        double h = p < ny ? LM[p + (size_t)p * L] : 0.0;
        d[p] = h > 0 ? ldexp(1.0, -(int)lround(0.5 * log2(h))) : 1.0;
    }
    for (int c = ny; c < L; c++) {
        double mx = 0;
        for (int p = 0; p < ny; p++)
            mx = fmax(mx, fabs(LM[c + (size_t)p * L]) * d[p]);
        d[c] = mx > 0 ? ldexp(1.0, -(int)lround(log2(mx))) : 1.0;
    }
    for (int j = 0; j < L; j++)
        for (int i = 0; i < L; i++)
            Ms[i + (size_t)j * L] = d[i] * LM[i + (size_t)j * L] * d[j];
    for (int i = 0; i < L; i++)
        qs[i] = d[i] * Lq[i];
    int status = lcp_lemke(L, Ms, qs, Lz, &ws->lemke);
    for (int i = 0; i < L; i++)
        Lz[i] *= d[i];
    return status == 0 && !rows_hold(ny, nc, G, h, Lz) ? 2 : status;
}

/* Is a ray of the KKT LCP (ws->LM, ws->Lq, L = ny + nc) a proof that the node is empty, after the
 * rescaled retry above also ended in one? The same constraints with no objective (H = 0, g = 0:
 * the KKT LCP of a pure feasibility problem) have no objective entries to be badly scaled; when
 * that LCP finds a point that passes the rows (rows_hold), the rays were rounding: 1 confirmed, 0 not (the
 * caller gets no bound, not a pruned subtree). Overwrites the KKT system (used up). */
static int ray_confirmed(int ny, int nc, int L, const double *G, const double *h, lcp_qp_ws *ws)
{
    for (int q = 0; q < ny; q++)
        for (int p = 0; p < ny; p++)
            ws->LM[p + (size_t)q * L] = 0.0;
    for (int p = 0; p < ny; p++)
        ws->Lq[p] = 0.0;
    return lcp_lemke(L, ws->LM, ws->Lq, ws->Lz, &ws->lemke) != 0 || !rows_hold(ny, nc, G, h, ws->Lz);
}

int lcp_qp_solve(const lcp_reduced *r, const signed char *st, const double *H, const double *g, int nex,
                 const double *Aex, const double *bex, double *t, lcp_qp_ws *ws)
{
    int k = r->k, neq, nin;
    node_rows(r, st, 0, nex, Aex, bex, ws->rows, ws->rhs, &neq, &nin);
    int ny = 0;
    for (int j = 0; j < k; j++) {
        if (r->vunit) {
            if (st[j] == LCP_V0)
                continue;   /* fixed at zero: not a variable of the QP */
            ws->yvar[ny] = j;
            ws->ysgn[ny++] = 1;
        } else {   /* free: t_j = y+ - y- */
            ws->yvar[ny] = j;
            ws->ysgn[ny++] = 1;
            ws->yvar[ny] = j;
            ws->ysgn[ny++] = -1;
        }
    }
    int nc = 2 * neq + nin, L = ny + nc;
    double *G = ws->G, *h = ws->h;
    for (int c = 0, out = 0; c < neq + nin; c++) {
        const double *a = ws->rows + (size_t)c * k;
        int copies = c < neq ? 2 : 1;
        for (int s = 0; s < copies; s++, out++) {
            double sg = s ? -1.0 : 1.0;
            for (int p = 0; p < ny; p++)
                G[(size_t)out * ny + p] = sg * a[ws->yvar[p]] * ws->ysgn[p];
            h[out] = sg * ws->rhs[c];
        }
    }
    double *LM = ws->LM, *Lq = ws->Lq;
    memset(LM, 0, sizeof(double) * (size_t)L * L);
    for (int p = 0; p < ny; p++) {
        for (int q = 0; q < ny; q++)
            LM[p + (size_t)q * L] = ws->ysgn[p] * ws->ysgn[q] * H[ws->yvar[p] + (size_t)ws->yvar[q] * k];
        Lq[p] = ws->ysgn[p] * g[ws->yvar[p]];
    }
    for (int c = 0; c < nc; c++) {
        for (int p = 0; p < ny; p++) {
            double v = G[(size_t)c * ny + p];
            LM[p + (size_t)(ny + c) * L] = -v;
            LM[ny + c + (size_t)p * L] = v;
        }
        Lq[ny + c] = h[c];
    }
    int status = lcp_lemke(L, LM, Lq, ws->Lz, &ws->lemke);
    /* each row held to its own terms too (rows_hold): lcp_kkt_feasible's allowance at the scale
     * of the largest |h| accepts a point that violates a small row by all of its terms
     * (crash-9a61...: an answer of norm 0.5 where 0 solves; crash-7092...: a row of size 0.75
     * next to |h| = 3.6e6, lost, then "no solution"); such an answer takes the second route
     * below, as a failed one does */
    if (status == 0 && (!lcp_kkt_feasible(ny, nc, G, h, ws->Lz) || !rows_hold(ny, nc, G, h, ws->Lz)))
        status = 2;
    /* Our pivot limit, or a final basis too ill conditioned to trust, on a degenerate node (a
     * rank-deficient pattern of Siconos' diodeBridge20 made the whole call give up): Siconos'
     * Lemke, with its own tie-breaking, is the second route, judged by the same test. */
    int second = (status == 2 || (status == 1 && ws->ray_second_route)) && !ws->siconos_aborted;
    int sic = second ? lcp_siconos_lemke_raw(L, LM, Lq, ws->Lz) : 2;
    ws->siconos_aborted |= sic == 3;
    if (second && (sic != 0 || !lcp_kkt_feasible(ny, nc, G, h, ws->Lz)))
        return status;
    if (second)
        status = 0;
    if (status == 1 && lcp_kkt_rescaled_lemke(ny, nc, L, LM, Lq, G, h, ws->Lz, ws) == 0)
        status = 0;
    if (status == 1 && !ray_confirmed(ny, nc, L, G, h, ws))
        return 2;
    if (status != 0)
        return status;
    memset(t, 0, sizeof(double) * (size_t)k);
    for (int p = 0; p < ny; p++)
        t[ws->yvar[p]] += ws->ysgn[p] * ws->Lz[p];
    return 0;
}

static double row_norm(int k, const double *a)
{
    return sqrt(lcp_dot(k, a, 1, a, 1));
}

/* max_j |a' D_j| */
static double along(int k, int dim, const double *a, const double *D)
{
    double mx = 0;
    for (int j = 0; j < dim; j++)
        mx = fmax(mx, fabs(lcp_dot(k, a, 1, D + (size_t)j * k, 1)));
    return mx;
}

/* min over the node's polyhedron of a't + b, clamped from below at b_floor:
 * min 1/2 (a't + b - target)^2 lands on clamp(target, min, max). */
static int clamp_qp(const lcp_reduced *r, const signed char *st, int nex, const double *Aex, const double *bex,
                    const double *a, double b, double target, double *t, double *H, double *g, lcp_qp_ws *ws,
                    double *value)
{
    int k = r->k;
    for (int i = 0; i < k; i++) {
        for (int j = 0; j < k; j++)
            H[i + (size_t)j * k] = a[i] * a[j];
        g[i] = a[i] * (b - target);
    }
    int s = lcp_qp_solve(r, st, H, g, nex, Aex, bex, t, ws);
    if (s == 2) {
        /* the KKT Lemke failed on the rank-one H = a a': once more with H strictly convex by
         * 1e-9 |a|^2, which moves the minimiser by a relative 1e-9 (the verdict compares the
         * slack with NSDAE_TOL_SLACK): 8 fuzzing MLCPs of spread within the bound were refused */
        double aa = lcp_dot(k, a, 1, a, 1);
        for (int i = 0; i < k; i++)
            H[i + (size_t)i * k] += 1e-9 * aa;
        s = lcp_qp_solve(r, st, H, g, nex, Aex, bex, t, ws);
    }
    if (s != 0)
        return s;
    *value = lcp_dot(k, a, 1, t, 1) + b;
    return 0;
}

int lcp_poly_dimension(const lcp_reduced *r, const signed char *st, int nex, const double *Aex,
                       const double *bex, const double *t0, double *D, lcp_qp_ws *ws)
{
    int k = r->k, m = r->m, cap = 2 * m + nex;
    double tol = NSDAE_TOL_SLACK * r->scale;
    size_t need = (size_t)cap * k + 2 * (size_t)cap + (size_t)cap * k + (size_t)k * k * 2 + 3 * (size_t)k + 1;
    double *buf = malloc(sizeof(double) * need);
    signed char *state = malloc((size_t)cap + 1);
    if (!buf || !state) {
        free(buf);
        free(state);
        return -1;
    }
    double *rows = buf, *b = rows + (size_t)cap * k, *E = b + cap, *N = E + (size_t)cap * k;
    double *H = N + (size_t)k * k, *g = H + (size_t)k * k, *t = g + k, *sol = t + k, *zero = sol + k;
    int neq, nin, dim = -1;
    node_rows(r, st, 1, nex, Aex, bex, rows, b, &neq, &nin);
    /* state of each inequality: 0 unknown, 1 strictly satisfiable, 2 implicit equality */
    memset(state, 0, (size_t)cap);
    for (int pass = 0; pass < 2; pass++) {
        /* E: the equalities (and, on the second pass, the implicit ones), column-major */
        int ne = 0;
        for (int c = 0; c < neq + nin; c++)
            if (c < neq || state[c] == 2)
                ne++;
        int row = 0;
        for (int c = 0; c < neq + nin; c++) {
            if (!(c < neq || state[c] == 2))
                continue;
            for (int j = 0; j < k; j++)
                E[row + (size_t)j * ne] = rows[(size_t)c * k + j];
            row++;
        }
        double resid;
        memset(zero, 0, sizeof(double) * (size_t)cap);
        int rank = lcp_lstsq(ne, k, E, zero, sol, &resid, N);
        if (rank < 0)
            goto done;
        int k0 = k - rank;
        if (pass == 1 || k0 == 0) {
            dim = k0;
            if (D)
                memcpy(D, N, sizeof(double) * (size_t)k * k0);
            break;
        }
        for (int c = neq; c < neq + nin; c++) {
            const double *a = rows + (size_t)c * k;
            if (state[c] || along(k, k0, a, N) <= NSDAE_TOL_RANK * (1 + row_norm(k, a)))
                continue;   /* constant along the equalities: cannot cut the dimension */
            if (lcp_dot(k, a, 1, t0, 1) + b[c] > tol) {
                state[c] = 1;
                continue;
            }
            double val;
            /* the QP finding the node empty although t0 lies in it within the sign tolerance:
             * the node is thin across this inequality, which then cannot be strictly
             * satisfied (an implicit equality: t0's slack is at most tol here). Fuzzing found
             * 19 MLCPs of spread down to 2^0.9 refused with NUMERICAL on this verdict. */
            int cs = clamp_qp(r, st, nex, Aex, bex, a, b[c], r->scale, t, H, g, ws, &val);
            if (cs == 2) {
                /* Only whether a't + b exceeds tol is asked: a target of 2 tol answers it as
                 * well, and its gradient does not swamp rows of size one next to r->scale
                 * (crash-ba94..., spread 2^0: Lemke failed on every clamp at the target
                 * 9.3e11 and the call refused). The caller is told (clamp_retried). */
                ws->clamp_retried = 1;
                cs = clamp_qp(r, st, nex, Aex, bex, a, b[c], 2 * tol, t, H, g, ws, &val);
            }
            if (cs == 2) {
                /* Both clamp QPs failed: the question is the linear program max a't over the
                 * piece, decided exactly (lp_exact.c). Unbounded: a't + b exceeds tol. */
                int lp = lcp_lp_max_exact(k, neq, nin, rows, b, a, t, &val);
                if (lp == 1) {
                    state[c] = 1;
                    continue;
                }
                if (lp == 0)
                    val += b[c];
                cs = lp == 0 ? 0 : lp == 2 ? 1 : 2;
            }
            if (cs == 1)
                val = lcp_dot(k, a, 1, t0, 1) + b[c];
            else if (cs != 0)
                goto done;
            for (int c2 = neq; c2 < neq + nin; c2++)
                if (!state[c2] && lcp_dot(k, rows + (size_t)c2 * k, 1, t, 1) + b[c2] > tol)
                    state[c2] = 1;
            if (val <= tol)
                state[c] = 2;
        }
    }
done:
    free(buf);
    free(state);
    return dim;
}

int lcp_node_feasible_exact(const lcp_reduced *r, const signed char *st)
{
    int k = r->k, cap = 2 * r->m, neq, nin;
    double *buf = malloc(sizeof(double) * ((size_t)cap * k + cap + 2 * (size_t)k + 1));
    if (!buf)
        return -1;
    double *rows = buf, *b = rows + (size_t)cap * k, *a = b + cap, *t = a + k, val;
    memset(a, 0, sizeof(double) * (size_t)k);
    node_rows(r, st, 1, 0, NULL, NULL, rows, b, &neq, &nin);
    int lp = lcp_lp_max_exact(k, neq, nin, rows, b, a, t, &val);
    free(buf);
    return lp == 0 ? 1 : lp == 2 ? 0 : -1;
}

int lcp_piece_contained(const lcp_reduced *r, const signed char *st_a, const double *t_a, int dim_a,
                        const double *D_a, const signed char *st_b, lcp_qp_ws *ws)
{
    int k = r->k, cap = 2 * r->m;
    double tol = NSDAE_TOL_SLACK * r->scale;
    double *buf = malloc(sizeof(double) * ((size_t)cap * k + cap + 2 * (size_t)k * k + (size_t)k + 1));
    if (!buf)
        return 0;
    double *rows = buf, *b = rows + (size_t)cap * k, *H = b + cap, *g = H + (size_t)k * k, *t = g + k;
    int neq, nin, inside = 1;
    node_rows(r, st_b, 1, 0, NULL, NULL, rows, b, &neq, &nin);
    for (int c = 0; c < neq + nin && inside; c++) {
        const double *a = rows + (size_t)c * k;
        double at = lcp_dot(k, a, 1, t_a, 1) + b[c];
        double moves = along(k, dim_a, a, D_a);
        double atol = NSDAE_TOL_RANK * (1 + row_norm(k, a)) * r->scale;
        if (c < neq) {
            inside = fabs(at) <= tol && moves <= atol;
        } else if (at < -tol) {
            inside = 0;
        } else if (moves > atol) {
            double val;
            if (clamp_qp(r, st_a, 0, NULL, NULL, a, b[c], -r->scale, t, H, g, ws, &val) != 0 || val < -tol)
                inside = 0;
        }
    }
    free(buf);
    return inside;
}
