/* Principal pivoting on the complementarity rows of a step with one solution (sparse_step.h).
 *
 * Why pivoting and not the minimal-norm branch and bound: once sym(S) is positive definite the
 * step has one solution, so there is nothing to minimise; what remains is finding the pattern.
 * Why warm: from one step to the next a ladder changes the state of a few diodes at most, so the
 * previous pattern is almost always right and the step is one KLU solve.
 * Why block flips first, then one row at a time: flipping every violated row at once (Kostreva's
 * block pivoting) takes few iterations but can cycle; flipping the violated row of least index
 * (Murty's rule) terminates on every P-matrix. Lemke on the dense S is the last resort. */
#include "stepping/sparse_lcp.h"

#include <nsdae/lcp.h>
#include <nsdae/tolerances.h>

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SPARSE_LCP_MAX_NL 4096   /* a dense S above this (128 MB) is not formed: the dense path */
#define SPARSE_LCP_BLOCK_ITERS 8 /* block flips before Murty's single flips */
#define SPARSE_LCP_RCOND 1e-13   /* a refactor whose crude rcond is below this is factored afresh */

/* The values of the pattern matrix: M, with each row outside the pattern a unit row. */
static void fill_pattern(sparse_step *ss)
{
    const csc *M = &ss->M;
    for (int j = 0; j < M->cols; j++)
        for (int k = M->colp[j]; k < M->colp[j + 1]; k++) {
            int r = M->rowi[k];
            ss->kval[k] = r >= ss->ny && !ss->active[r - ss->ny] ? (k == ss->diag[r - ss->ny] ? 1.0 : 0.0) : M->val[k];
        }
}

/* Factors the pattern in ss->active unless it is the one factored. 0, or -1 when singular. */
static int factor_pattern(sparse_step *ss)
{
    if (ss->have_factor && memcmp(ss->active, ss->factored, (size_t)ss->nl) == 0) return 0;
    fill_pattern(ss);
    ss->have_factor = 0;
    int ok = 0;
    if (ss->num && klu_refactor(ss->M.colp, ss->M.rowi, ss->kval, ss->sym, ss->num, &ss->common) &&
        klu_rcond(ss->sym, ss->num, &ss->common) && ss->common.rcond >= SPARSE_LCP_RCOND) {
        ok = 1;
        ss->refactors++;
    }
    if (!ok) {
        if (ss->num) klu_free_numeric(&ss->num, &ss->common);
        ss->num = klu_factor(ss->M.colp, ss->M.rowi, ss->kval, ss->sym, &ss->common);
        if (!ss->num) return -1;
        ss->factors++;
    }
    memcpy(ss->factored, ss->active, (size_t)ss->nl);
    ss->have_factor = 1;
    return 0;
}

/* w = M z + q and each row's terms |q_i| + sum_j |M_ij z_j|, on the MLCS rows only (the y rows
 * hold by construction): what the sign test reads. */
static void relation_rows(sparse_step *ss, const double *z, double *w)
{
    for (int i = 0; i < ss->nl; i++) {
        const int r = ss->ny + i;
        double wi = ss->q[r], si = fabs(ss->q[r]);
        for (int e = ss->lrowp[i]; e < ss->lrowp[i + 1]; e++) {
            double t = ss->lval[e] * z[ss->lcol[e]];
            wi += t;
            si += fabs(t);
        }
        w[r] = wi;
        ss->rowsum[r] = si;
    }
}

/* The pattern's point: z solves the y rows and the rows in the pattern with w = 0, and l = 0 off it. */
static int pattern_point(sparse_step *ss, double *z, double *w)
{
    if (factor_pattern(ss)) return -1;
    for (int i = 0; i < ss->n; i++) z[i] = i < ss->ny || ss->active[i - ss->ny] ? -ss->q[i] : 0.0;
    if (!klu_solve(ss->sym, ss->num, ss->n, 1, z, &ss->common)) return -1;
    for (int i = 0; i < ss->nl; i++)
        if (!ss->active[i]) z[ss->ny + i] = 0.0;
    relation_rows(ss, z, w);
    return 0;
}

/* Rows whose sign is wrong beyond rounding: a negative multiplier in the pattern, a negative w
 * outside it. Flips the first (single) or all of them; returns how many there were. */
static int flip_violated(sparse_step *ss, const double *z, const double *w, int single)
{
    double lmax = 0.0;
    for (int i = 0; i < ss->nl; i++) lmax = fmax(lmax, fabs(z[ss->ny + i]));
    int count = 0;
    for (int i = 0; i < ss->nl; i++) {
        const int r = ss->ny + i;
        int bad = ss->active[i] ? z[r] < -1e-13 * lmax : w[r] < -1e-13 * ss->rowsum[r];
        if (!bad) continue;
        if (!single || count == 0) ss->active[i] = !ss->active[i];
        count++;
    }
    return count;
}

/* Whether sym(S) = (S + S^T)/2 is positive definite, S nl x nl column-major. First the cheap
 * sufficient test, strict diagonal dominance of sym(S) bounded through the row and column sums of
 * |S| (one pass; Gershgorin: every eigenvalue is at least min_i (S_ii - R_i)), which a step
 * matrix E - h A with h below the time constants passes; else Cholesky (NSDAE_TOL_PD_PIVOT on its
 * pivots). The margin asked of the dominance is that tolerance squared, the level of the
 * eigenvalues the pivot test accepts. -1 out of memory. */
static int positive_definite(const double *S, int nl, double *sums)
{
    double *rows = sums, *cols = sums + nl, dmax = 0.0;
    for (int i = 0; i < 2 * nl; i++) sums[i] = 0.0;
    for (int c = 0; c < nl; c++)
        for (int r = 0; r < nl; r++) {
            double a = fabs(S[r + (size_t)c * nl]);
            rows[r] += a;
            cols[c] += a;
        }
    for (int i = 0; i < nl; i++) dmax = fmax(dmax, S[i + (size_t)i * nl]);
    int dominant = dmax > 0.0;
    for (int i = 0; i < nl && dominant; i++) {
        double d = S[i + (size_t)i * nl], off = 0.5 * (rows[i] + cols[i]) - fabs(d);
        dominant = d - off > NSDAE_TOL_PD_PIVOT * NSDAE_TOL_PD_PIVOT * dmax;
    }
    if (dominant) return 1;
    double *sym = malloc((size_t)nl * (size_t)nl * sizeof *sym);
    if (!sym) return -1;
    /* the lower triangle of sym(S), what dpotrf reads, in tiles: S^T read column by column would
     * miss the cache on every entry (0.1 s at nl = 1000) */
    enum { TILE = 64 };
    for (int c0 = 0; c0 < nl; c0 += TILE)
        for (int r0 = c0; r0 < nl; r0 += TILE)
            for (int c = c0; c < c0 + TILE && c < nl; c++)
                for (int r = r0 > c ? r0 : c; r < r0 + TILE && r < nl; r++)
                    sym[r + (size_t)c * nl] = 0.5 * (S[r + (size_t)c * nl] + S[c + (size_t)r * nl]);
    int pd = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', nl, sym, nl) == 0;
    double lmin = INFINITY, lmax = 0.0;
    for (int i = 0; pd && i < nl; i++) {
        lmin = fmin(lmin, sym[i + (size_t)i * nl]);
        lmax = fmax(lmax, sym[i + (size_t)i * nl]);
    }
    free(sym);
    return pd && lmin >= NSDAE_TOL_PD_PIVOT * lmax;
}

/* S = D - Ch W^-1 Bh, column by column: one solve with the pattern of no multiplier (W alone). */
static int form_schur(sparse_step *ss)
{
    const int ny = ss->ny, nl = ss->nl;
    double *x = ss->work;
    for (int c = 0; c < nl; c++) {
        memset(x, 0, (size_t)ss->n * sizeof *x);
        const int j = ny + c;
        for (int k = ss->M.colp[j]; k < ss->M.colp[j + 1]; k++) {
            if (ss->M.rowi[k] < ny) x[ss->M.rowi[k]] = ss->M.val[k];
            else ss->S[ss->M.rowi[k] - ny + (size_t)c * nl] += ss->M.val[k];
        }
        if (!klu_solve(ss->sym, ss->num, ss->n, 1, x, &ss->common)) return -1;
        for (int jy = 0; jy < ny; jy++)
            if (x[jy] != 0.0)
                for (int k = ss->M.colp[jy]; k < ss->M.colp[jy + 1]; k++)
                    if (ss->M.rowi[k] >= ny) ss->S[ss->M.rowi[k] - ny + (size_t)c * nl] -= ss->M.val[k] * x[jy];
    }
    return 0;
}

/* S formed once per matrix, on first need: the dense certificate, Lemke. W's factor must be the
 * one in place (the pattern of no multiplier). 0; 1 when a solve failed; -1 out of memory. */
static int ensure_schur(sparse_step *ss)
{
    if (ss->S) return 0;
    if (!(ss->S = calloc((size_t)ss->nl * (size_t)ss->nl, sizeof *ss->S))) return -1;
    if (form_schur(ss) == 0) return 0;
    free(ss->S);
    ss->S = NULL;
    return 1;
}

int sparse_lcp_certify_dense(sparse_step *ss)
{
    if (ss->nl > SPARSE_LCP_MAX_NL) return 0;
    int r = ensure_schur(ss);
    return r ? (r < 0 ? -1 : 0) : positive_definite(ss->S, ss->nl, ss->work);
}

int sparse_lcp_classify(sparse_step *ss)
{
    const int nl = ss->nl;
    if (ss->num) klu_free_numeric(&ss->num, &ss->common);
    if (ss->sym) klu_free_symbolic(&ss->sym, &ss->common);
    ss->have_factor = 0;
    free(ss->S);
    ss->S = NULL;
    ss->sym = klu_analyze(ss->n, ss->M.colp, ss->M.rowi, &ss->common);
    if (!ss->sym) return ss->common.status == KLU_OUT_OF_MEMORY ? -1 : 0;
    /* W alone: every multiplier off the pattern (unit rows), a singular W goes to the dense path */
    memset(ss->active, 0, (size_t)nl + 1);
    if (factor_pattern(ss) || !klu_rcond(ss->sym, ss->num, &ss->common) || ss->common.rcond < SPARSE_LCP_RCOND)
        return 0;
    if (nl == 0) return 1;
    /* the sparse proof first (sparse_cert.c: O(nnz) for a ladder); S and its Cholesky otherwise */
    int c = sparse_lcp_certify_sparse(ss);
    return c != 0 ? c : sparse_lcp_certify_dense(ss);
}

/* Lemke on w = S l + r, r the complementarity rows' residual with every multiplier off; its
 * positive multipliers are the pattern. 0, or -1 when Lemke finds nothing. */
static int lemke_pattern(sparse_step *ss, double *z, double *w)
{
    memset(ss->active, 0, (size_t)ss->nl);
    if (ss->nl > SPARSE_LCP_MAX_NL || pattern_point(ss, z, w) || ensure_schur(ss)) return -1;
    double *l = ss->work, *wl = ss->work + ss->nl;
    nsdae_mlcp lcp = {ss->nl, ss->S, w + ss->ny, NULL, NULL, NULL};
    nsdae_error e;
    if (nsdae_lcp_solve_siconos(&lcp, "lemke", l, wl, &e) != NSDAE_OK) return -1;
    for (int i = 0; i < ss->nl; i++) ss->active[i] = l[i] > 0.0;
    return 0;
}

/* The per-row check, after up to two steps of iterative refinement on the pattern's system when
 * it fails. Why: KLU's solution is backward stable for the whole matrix, not row by row; a
 * multiplier row whose only term is an algebraic unknown that the y rows compute with a 1/h
 * amplification (the diode voltage of examples/rlc_diode.nsm: -2.4e-15 where 0 is exact) holds
 * only to that unknown's rounding, all of that row's terms. One refinement step with the same
 * factors makes the residual small row by row (Skeel), as the check asks. */
static int accept(sparse_step *ss, double *z)
{
    for (int pass = 0;; pass++) {
        if (sparse_row_violation(ss, z) <= NSDAE_TOL_RESIDUAL) return 1;
        if (pass == 2) return 0;
        double *d = ss->rhs;
        for (int i = 0; i < ss->n; i++) d[i] = i < ss->ny || ss->active[i - ss->ny] ? -ss->chk[i] : 0.0;
        if (!klu_solve(ss->sym, ss->num, ss->n, 1, d, &ss->common)) return 0;
        for (int i = 0; i < ss->n; i++) z[i] += d[i];
        for (int i = 0; i < ss->nl; i++)
            if (!ss->active[i]) z[ss->ny + i] = 0.0;
    }
}

nsdae_status sparse_step_solve(sparse_step *ss, double *z, double *w, nsdae_error *err)
{
    const long max_iters = SPARSE_LCP_BLOCK_ITERS + 4L * ss->nl + 20;
    for (int attempt = 0; attempt < 2; attempt++) {
        if (attempt == 1 && lemke_pattern(ss, z, w)) break;
        for (long it = 0; it < max_iters; it++) {
            if (pattern_point(ss, z, w)) break;
            if (flip_violated(ss, z, w, it >= SPARSE_LCP_BLOCK_ITERS) == 0) {
                if (accept(ss, z)) {
                    memcpy(w, ss->chk, (size_t)ss->n * sizeof *w);
                    return NSDAE_OK;
                }
                break;
            }
        }
    }
    return nsdae_error_set(err, NSDAE_NUMERICAL, "sparse step: no accepted point for the complementarity pattern "
                                                 "(pivoting and Lemke)");
}
