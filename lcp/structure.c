/* What kind of solution set a matrix gives, decided once per matrix: unique, convex, or neither.
 *
 * In reduced coordinates (internal.h) the complementarity gap is the quadratic
 *     phi(t) = v(t)'C r(t) = t' V'CR t + b't + v0'C r0,   b = V'C r0 + R'C v0,
 * nonnegative on the feasible set F = { v >= 0, r >= 0 }, and the solutions are F's points
 * where it vanishes (so does any weighted gap sum_i c_i v_i r_i, c > 0). Let S = sym(V'CR):
 *   - S positive semidefinite (a monotone problem): phi is convex, so its zero set in F is the
 *     set of minimisers of a convex quadratic over a polyhedron, itself a polyhedron: on it S t
 *     and b't are constant (S t = S t*, b't = b't* for any one solution t*; Cottle, Pang, Stone,
 *     The Linear Complementarity Problem, 3.1.7). The minimal-norm point is then ONE convex QP
 *     over F with those equalities, not a branch and bound over 2^m patterns. Siconos'
 *     diodeBridge20/40 are of this kind (their equality block is singular, S has eigenvalues
 *     0 ... 1e3), where the branch and bound ran out of time.
 *   - S positive definite and V = I (a pure LCP in t after the elimination): R is a P-matrix, the
 *     solution is unique and exists; one Lemke solve is the whole answer.
 * S depends on the matrix only (and on which box bounds are finite or equal), so the workspace
 * keeps this classification and the equalities' rows with its other per-matrix data: one
 * symmetric eigendecomposition (k^3) per matrix. */
#include "internal.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void lcp_structure_free(lcp_structure *c)
{
    free(c->L);
    free(c->cw);
    free(c->key);
    memset(c, 0, sizeof *c);
}

/* What, besides M and the kinds, decides the reduced form's matrices: the box rows' bounds
 * (finite or not, collapsed or not). */
static unsigned char box_key(const nsdae_mlcp *p, int i)
{
    if (!p->kind || p->kind[i] != NSDAE_ROW_BOX)
        return 0;
    return (unsigned char)(1 | isfinite(p->lo[i]) << 1 | isfinite(p->hi[i]) << 2 | (p->lo[i] == p->hi[i]) << 3);
}

static int same_key(const lcp_structure *c, const nsdae_mlcp *p, const lcp_reduced *r)
{
    if (!c->valid || c->N != p->size || c->k != r->k || c->m != r->m || c->vunit != r->vunit)
        return 0;
    for (int i = 0; i < p->size; i++)
        if (c->key[i] != box_key(p, i))
            return 0;
    return 1;
}

/* S = sym(V'CR) (k x k), from the reduced matrices and the pair weights C = diag(cw). */
static void gap_hessian(const lcp_reduced *r, const double *cw, double *S)
{
    int k = r->k, m = r->m;
    for (int a = 0; a < k; a++)
        for (int b = 0; b < k; b++) {
            double s = 0;
            if (r->vunit)
                s = cw[a] * r->R[a + (size_t)b * m];
            else
                for (int i = 0; i < m; i++)
                    s += r->V[i + (size_t)a * m] * cw[i] * r->R[i + (size_t)b * m];
            S[a + (size_t)b * k] = s;
        }
    for (int a = 0; a < k; a++)
        for (int b = 0; b < a; b++) {
            double s = 0.5 * (S[a + (size_t)b * k] + S[b + (size_t)a * k]);
            S[a + (size_t)b * k] = S[b + (size_t)a * k] = s;
        }
}

/* What one Cholesky or a glance at the diagonal decides without the eigendecomposition (k^3/3
 * instead of ~9 k^3 flops: on a P-matrix of order 10 the eigendecomposition was half the cost
 * of a one-shot call). Both compare with mu = 2 NSDAE_TOL_RANK ||S||_inf, and ||S||_inf >= lmax
 * (classify_weighted's cuts below): the factor 2 keeps the verdict clear of the rounding of
 * either route (k eps ||S||, three orders below).
 *   - S - mu I positive definite: every eigenvalue is above the rank cut NSDAE_TOL_RANK lmax
 *     (itself above NSDAE_TOL_PD_PIVOT^2 lmax), so the eigendecomposition would find the kind
 *     unique (V = I) or monotone and keep all k rows in L. Any L with L'L = S has the rows the
 *     equalities need (L t = L t* <=> t = t*) and the gap Hessian 2 L'L: S's Cholesky factor.
 *   - a diagonal entry S_aa < -mu: lam_min <= S_aa is below -NSDAE_TOL_RANK lmax: not monotone.
 * Returns 1 when decided (c->kind, c->L, c->nL set as classify_weighted would), 0 otherwise.
 * S (k x k, the gap Hessian) is kept; W is k x k scratch. */
static int classify_cheap(lcp_structure *c, const lcp_reduced *r, const double *S, double *W)
{
    int k = r->k;
    double norm = 0, dmin = INFINITY;
    for (int a = 0; a < k; a++) {
        double rs = 0;
        for (int b = 0; b < k; b++)
            rs += fabs(S[a + (size_t)b * k]);
        norm = fmax(norm, rs);
        dmin = fmin(dmin, S[a + (size_t)a * k]);
    }
    double mu = 2 * NSDAE_TOL_RANK * norm;
    if (!isfinite(norm) || !(norm > 0))
        return 0;
    if (dmin < -mu)
        return 1;   /* c->kind stays NONCONVEX, nL 0 */
    memcpy(W, S, sizeof(double) * (size_t)k * k);
    for (int a = 0; a < k; a++)
        W[a + (size_t)a * k] -= mu;
    if (LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'U', k, W, k) != 0)
        return 0;
    memcpy(W, S, sizeof(double) * (size_t)k * k);
    if (LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'U', k, W, k) != 0)
        return 0;
    c->kind = r->vunit ? LCP_STRUCT_UNIQUE : LCP_STRUCT_MONOTONE;
    for (int a = 0; a < k; a++)   /* L row a = row a of the upper factor U (S = U'U) */
        for (int j = 0; j < k; j++)
            c->L[(size_t)a * k + j] = j >= a ? W[a + (size_t)j * k] : 0;
    c->nL = k;
    return 1;
}

/* Classifies under the weights c->cw; S is 2 k x k + k scratch. 0, or -1 when LAPACK fails. */
static int classify_weighted(lcp_structure *c, const lcp_reduced *r, double *S)
{
    int k = r->k;
    double *lam = S + (size_t)k * k;
    gap_hessian(r, c->cw, S);
    if (classify_cheap(c, r, S, lam + k))
        return 0;
    if (LAPACKE_dsyev(LAPACK_COL_MAJOR, 'V', 'U', k, S, k, lam) != 0)
        return -1;
    double lmax = fmax(fabs(lam[0]), fabs(lam[k - 1]));
    /* eigenvalues are accurate to about eps * lmax: below NSDAE_TOL_RANK * lmax is a zero; a unique
     * solution needs the smallest well above rounding (NSDAE_TOL_PD_PIVOT on Cholesky pivots, i.e.
     * its square on eigenvalues) */
    if (!(lam[0] >= -NSDAE_TOL_RANK * lmax))
        return 0;
    c->kind = r->vunit && lam[0] > NSDAE_TOL_PD_PIVOT * NSDAE_TOL_PD_PIVOT * lmax ? LCP_STRUCT_UNIQUE
                                                                                  : LCP_STRUCT_MONOTONE;
    /* the rows sqrt(lam_i) u_i' of S's range: S t = S t* <=> L t = L t* */
    for (int i = 0; i < k; i++) {
        if (lam[i] <= NSDAE_TOL_RANK * lmax)
            continue;
        double sq = sqrt(lam[i]);
        for (int j = 0; j < k; j++)
            c->L[(size_t)c->nL * k + j] = sq * S[j + (size_t)i * k];
        c->nL++;
    }
    return 0;
}

/* Monotonicity depends on how the pairs are weighted, and the equilibration reweights them: z_i w_i
 * in the caller's units is zs_i ws_i dc_i / dr_i. Siconos' diodeBridge20 is monotone in its own
 * units (S's eigenvalues -1.8e-13 ... 1e3) and not in the equilibrated ones. So unit weights first,
 * then the caller's. */
static nsdae_status classify(lcp_structure *c, const lcp_origin *orig, const lcp_std *s, const lcp_reduced *r,
                             nsdae_error *err)
{
    int k = r->k, m = r->m;
    c->kind = LCP_STRUCT_NONCONVEX;
    c->nL = 0;
    if (k == 0 || m == 0)
        return NSDAE_OK;
    double *S = malloc(sizeof(double) * (2 * (size_t)k * k + k));
    c->L = malloc(sizeof(double) * (size_t)k * k);
    c->cw = malloc(sizeof(double) * (size_t)m);
    if (!S || !c->L || !c->cw) {
        free(S);
        return nsdae_error_set(err, NSDAE_NOMEM, "minnorm: out of memory classifying a matrix of order %d", k);
    }
    for (int i = 0; i < m; i++)
        c->cw[i] = 1;
    if (classify_weighted(c, r, S) == 0 && c->kind == LCP_STRUCT_NONCONVEX && orig) {
        double cmax = 0;
        for (int i = 0; i < m; i++)
            cmax = fmax(cmax, c->cw[i] = orig->dc[s->crow[i]] / orig->dr[s->crow[i]]);
        for (int i = 0; i < m; i++)   /* largest weight 1: the gap QP stays in the equilibrated units */
            c->cw[i] /= cmax;
        classify_weighted(c, r, S);
    }
    free(S);
    return NSDAE_OK;   /* a LAPACK failure leaves it undecided: the branch and bound stays exact */
}

nsdae_status lcp_structure_get(lcp_structure *c, const nsdae_mlcp *p, const lcp_origin *orig, const lcp_std *s,
                               const lcp_reduced *r, nsdae_error *err)
{
    if (same_key(c, p, r))
        return NSDAE_OK;
    lcp_structure_free(c);
    c->key = malloc((size_t)p->size + 1);
    if (!c->key)
        return nsdae_error_set(err, NSDAE_NOMEM, "minnorm: out of memory");
    for (int i = 0; i < p->size; i++)
        c->key[i] = box_key(p, i);
    c->N = p->size;
    c->k = r->k;
    c->m = r->m;
    c->vunit = r->vunit;
    nsdae_status st = classify(c, orig, s, r, err);
    c->valid = st == NSDAE_OK;
    return st;
}
