/* The single-solution certificate of the sparse step path without forming S (sparse_lcp.h).
 *
 * The step MLCP is  W y + B l + q_y = 0,  w = C y + D l + q_l,  0 <= w _|_ l >= 0, W regular; its
 * LCP on l has S = D - C W^-1 B. What makes the step's solution unique is sym(S) positive definite
 * (S is then a P-matrix). Forming S takes nl solves and nl^2 memory, and testing it a dense
 * Cholesky (0.2 s at nl = 1000, twice per run since the last step of a grid is a new h); this file
 * proves the same property on an n x n sparse symmetric matrix instead.
 *
 * Why it is a proof. Let A = R [W B] (the y rows of the step matrix, rows scaled by R > 0: the
 * same null space), H = sym([0 0; C D]) (n x n) and z = (y, l). On the null space of A,
 * W y = -B l, so  z^T H z = l^T C y + l^T D l = l^T (D - C W^-1 B) l = l^T S l,  and z != 0 there
 * exactly when l != 0 (y is determined by l). If  K = T (H + rho A^T A) T  is positive definite
 * for some rho >= 0 and diagonal T > 0, then for every z = T x != 0 with A z = 0:
 * z^T H z = x^T K x > 0, so l^T S l > 0 for every l != 0: sym(S) is positive definite. (Finsler's
 * lemma gives the converse: when sym(S) is, such a rho exists, so the test is not blind; rho is
 * tried on a short geometric ladder.) K is sparse: the pattern of A^T A is that of pairs of
 * unknowns sharing a y row, banded for a ladder or a chain.
 *
 * The test of K is an LDL^T factorisation without pivoting (SuiteSparse LDL) in an AMD ordering:
 * when every pivot d_k is positive, the computed factors are exactly those of K + dK with dK of
 * the order of the rounding of K's diagonal (the Cholesky argument: |L| |D| |L^T| sums to
 * trace(K) when D > 0), and the pivots are asked the margin the dense test asks of its Cholesky
 * pivots (sparse_lcp.c: l_kk >= NSDAE_TOL_PD_PIVOT l_max, so d_k >= tol^2 d_max).
 * Not proven here (a dense y row makes A^T A dense; no rho passes): 0, and the caller forms S. */
#include "stepping/sparse_lcp.h"

#include <nsdae/tolerances.h>

#include <amd.h>
#include <ldl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* K's pattern is refused beyond this many entries per entry of M: a dense y row (A^T A dense) */
#define CERT_FILL 64

typedef struct cert {
    int n;
    int *rowp, *colj;      /* A = R (y rows of M) by rows */
    double *aval;
    int *kp, *ki;          /* K's pattern, full (both triangles) */
    double *hv, *gv, *kx;  /* H and A^T A on that pattern; K's values of one rho */
    double *rs;            /* ny: R, 1 / the largest entry of each y row (0: an empty row) */
    double *t;             /* the column scaling T */
} cert;

static void cert_free(cert *c)
{
    free(c->rowp); free(c->colj); free(c->aval); free(c->kp); free(c->ki);
    free(c->hv); free(c->gv); free(c->kx); free(c->rs); free(c->t);
}

/* The y rows of M by rows, each divided by its largest entry. */
static int scaled_rows(const sparse_step *ss, cert *c)
{
    const csc *M = &ss->M;
    const int ny = ss->ny, nnz = M->colp[ss->n];
    c->rowp = calloc((size_t)ny + 2, sizeof *c->rowp);
    c->colj = malloc(((size_t)nnz + 1) * sizeof *c->colj);
    c->aval = malloc(((size_t)nnz + 1) * sizeof *c->aval);
    double *rmax = c->rs = calloc((size_t)ny + 1, sizeof *rmax);
    if (!c->rowp || !c->colj || !c->aval || !rmax) return -1;
    for (int e = 0; e < nnz; e++)
        if (M->rowi[e] < ny) {
            c->rowp[M->rowi[e] + 2]++;
            rmax[M->rowi[e]] = fmax(rmax[M->rowi[e]], fabs(M->val[e]));
        }
    for (int i = 0; i < ny; i++) c->rowp[i + 2] += c->rowp[i + 1];
    for (int j = 0; j < ss->n; j++)
        for (int e = M->colp[j]; e < M->colp[j + 1]; e++) {
            const int r = M->rowi[e];
            if (r >= ny || rmax[r] == 0.0) continue;
            const int at = c->rowp[r + 1]++;
            c->colj[at] = j;
            c->aval[at] = M->val[e] / rmax[r];
        }
    for (int i = 0; i < ny; i++) rmax[i] = rmax[i] > 0.0 ? 1.0 / rmax[i] : 0.0;
    return 0;
}

/* Adds (H, A^T A) += (hv, gv) at row r of the column being gathered (mark: position + 1 in it). */
static void gather(int r, double hv, double gv, int *mark, int *list, int *cnt, double *hs, double *gs)
{
    if (!mark[r]) {
        mark[r] = ++*cnt;
        list[*cnt - 1] = r;
        hs[*cnt - 1] = gs[*cnt - 1] = 0.0;
    }
    hs[mark[r] - 1] += hv;
    gs[mark[r] - 1] += gv;
}

/* K's pattern with H and A^T A on it, column by column. -1 out of memory, 1 too dense. */
static int build_pattern(const sparse_step *ss, cert *c)
{
    const csc *M = &ss->M;
    const int n = ss->n, ny = ss->ny;
    const size_t limit = (size_t)CERT_FILL * ((size_t)M->colp[n] + (size_t)n);
    size_t cap = 4 * ((size_t)M->colp[n] + (size_t)n), k = 0;
    int *mark = calloc((size_t)n + 1, sizeof *mark), *list = malloc(((size_t)n + 1) * sizeof *list);
    double *hs = malloc(((size_t)n + 1) * sizeof *hs), *gs = malloc(((size_t)n + 1) * sizeof *gs);
    c->kp = malloc(((size_t)n + 1) * sizeof *c->kp);
    c->ki = malloc(cap * sizeof *c->ki);
    c->hv = malloc(cap * sizeof *c->hv);
    c->gv = malloc(cap * sizeof *c->gv);
    int rc = !mark || !list || !hs || !gs || !c->kp || !c->ki || !c->hv || !c->gv ? -1 : 0;
    for (int j = 0; rc == 0 && j < n; j++) {
        int cnt = 0;
        c->kp[j] = (int)k;
        gather(j, 0.0, 0.0, mark, list, &cnt, hs, gs); /* the diagonal, always present */
        for (int e = M->colp[j]; e < M->colp[j + 1]; e++) {
            const int r = M->rowi[e];
            if (r >= ny) { /* H = (Mc + Mc^T)/2, Mc: M's relation rows; column j of Mc here */
                gather(r, 0.5 * M->val[e], 0.0, mark, list, &cnt, hs, gs);
                continue;
            }
            const double a = M->val[e] * c->rs[r]; /* A_rj: column j of A^T A is sum_r A_rj A_r. */
            for (int f = c->rowp[r]; f < c->rowp[r + 1]; f++)
                gather(c->colj[f], 0.0, a * c->aval[f], mark, list, &cnt, hs, gs);
        }
        if (j >= ny) /* row j of Mc: the column of Mc^T */
            for (int e = ss->lrowp[j - ny]; e < ss->lrowp[j - ny + 1]; e++)
                gather(ss->lcol[e], 0.5 * ss->lval[e], 0.0, mark, list, &cnt, hs, gs);
        if (k + (size_t)cnt > limit) rc = 1;
        if (rc == 0 && k + (size_t)cnt > cap) {
            cap = 2 * (k + (size_t)cnt);
            int *ki = realloc(c->ki, cap * sizeof *ki);
            if (ki) c->ki = ki;
            double *hv = realloc(c->hv, cap * sizeof *hv);
            if (hv) c->hv = hv;
            double *gv = realloc(c->gv, cap * sizeof *gv);
            if (gv) c->gv = gv;
            if (!ki || !hv || !gv) rc = -1;
        }
        for (int q = 0; q < cnt; q++) {
            if (rc == 0) {
                c->ki[k] = list[q];
                c->hv[k] = hs[q];
                c->gv[k++] = gs[q];
            }
            mark[list[q]] = 0;
        }
    }
    if (rc == 0) c->kp[n] = (int)k;
    free(mark); free(list); free(hs); free(gs);
    return rc;
}

/* T: each unknown divided by its largest entry in A (1 for an unknown A does not hold), so that
 * A T has unit columns at most; and the size of H against A^T A after it, which sets rho's scale. */
static double column_scaling(const sparse_step *ss, cert *c)
{
    const int n = ss->n;
    for (int j = 0; j < n; j++) c->t[j] = 0.0;
    for (int e = 0; e < c->rowp[ss->ny]; e++) c->t[c->colj[e]] = fmax(c->t[c->colj[e]], fabs(c->aval[e]));
    for (int j = 0; j < n; j++) c->t[j] = c->t[j] > 0.0 ? 1.0 / c->t[j] : 1.0;
    double hmax = 0.0, gmax = 0.0;
    for (int j = 0; j < n; j++)
        for (int k = c->kp[j]; k < c->kp[j + 1]; k++) {
            const double tt = c->t[c->ki[k]] * c->t[j];
            hmax = fmax(hmax, fabs(c->hv[k]) * tt);
            gmax = fmax(gmax, fabs(c->gv[k]) * tt);
        }
    return gmax > 0.0 ? hmax / gmax : hmax;
}

/* The LDL^T of K in the ordering P: the symbolic part once, the numeric part per rho. */
typedef struct ldl_work {
    int *P, *Pinv, *Lp, *Parent, *Lnz, *Flag, *Pattern, *Li;
    double *D, *Y, *Lx;
} ldl_work;

static int ldl_prepare(const cert *c, ldl_work *f)
{
    const size_t n = (size_t)c->n + 1;
    int *iw = malloc(7 * n * sizeof *iw);
    f->D = malloc(2 * n * sizeof *f->D);
    if (!iw || !f->D) {
        free(iw);
        return -1;
    }
    f->P = iw; f->Pinv = iw + n; f->Lp = iw + 2 * n; f->Parent = iw + 3 * n;
    f->Lnz = iw + 4 * n; f->Flag = iw + 5 * n; f->Pattern = iw + 6 * n;
    f->Y = f->D + n;
    int amd = amd_order(c->n, c->kp, c->ki, f->P, NULL, NULL);
    if (amd == AMD_OUT_OF_MEMORY) return -1;
    if (amd < AMD_OK) return 1;
    ldl_symbolic(c->n, c->kp, c->ki, f->Lp, f->Parent, f->Lnz, f->Flag, f->P, f->Pinv);
    f->Li = malloc(((size_t)f->Lp[c->n] + 1) * sizeof *f->Li);
    f->Lx = malloc(((size_t)f->Lp[c->n] + 1) * sizeof *f->Lx);
    return f->Li && f->Lx ? 0 : -1;
}

static void ldl_work_free(ldl_work *f)
{
    free(f->P); free(f->D); free(f->Li); free(f->Lx);
}

/* K = T (H + rho A^T A) T factored: 1 when every pivot is positive with the margin of the dense
 * test, else 0. */
static int factor_positive(const cert *c, double rho, const ldl_work *f)
{
    const int n = c->n;
    for (int j = 0; j < n; j++)
        for (int k = c->kp[j]; k < c->kp[j + 1]; k++)
            c->kx[k] = c->t[c->ki[k]] * c->t[j] * (c->hv[k] + rho * c->gv[k]);
    if (ldl_numeric(n, c->kp, c->ki, c->kx, f->Lp, f->Parent, f->Lnz, f->Li, f->Lx, f->D, f->Y, f->Pattern, f->Flag,
                    f->P, f->Pinv) != n)
        return 0;
    double dmin = INFINITY, dmax = 0.0;
    for (int k = 0; k < n; k++) {
        dmin = fmin(dmin, f->D[k]);
        dmax = fmax(dmax, f->D[k]);
    }
    return dmin > 0.0 && dmin >= NSDAE_TOL_PD_PIVOT * NSDAE_TOL_PD_PIVOT * dmax;
}

int sparse_lcp_certify_sparse(const sparse_step *ss)
{
    const int n = ss->n;
    cert c = {.n = n};
    ldl_work f = {0};
    c.t = malloc(((size_t)n + 1) * sizeof *c.t);
    int rc = !c.t || scaled_rows(ss, &c) ? -1 : build_pattern(ss, &c);
    if (rc == 0) rc = !(c.kx = malloc(((size_t)c.kp[n] + 1) * sizeof *c.kx)) ? -1 : ldl_prepare(&c, &f);
    int proven = 0;
    if (rc == 0) {
        /* rho from the size of H to 10^6 times it: small enough to keep K's pivots apart from
         * rounding, large enough (Finsler) once A^T A outweighs H off the null space; in exact
         * arithmetic a rho that works makes every larger one work, so the first success is taken */
        const double nu = column_scaling(ss, &c);
        for (int k = 0; !proven && k <= 6 && nu > 0.0; k++) proven = factor_positive(&c, nu * pow(10.0, k), &f);
    }
    cert_free(&c);
    ldl_work_free(&f);
    return rc < 0 ? -1 : proven;
}
