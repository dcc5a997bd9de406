/* Block principal pivoting for positive definite LCPs, on a kept workspace (lcp.h): the contact
 * LCPs of a time stepper, every step, with nothing allocated once warm.
 *
 * Judice & Pires (1994, Comput. Oper. Res. 21: 587-596): a pattern splits the rows into F (z_F
 * free, w_F = 0) and G (z_G = 0); its point is z_F = -M_FF^-1 q_F, w_G = M_GF z_F + q_G. The rows
 * whose sign it breaks (z_i < 0 in F, w_i < 0 in G) all change sides while their number falls;
 * after three exchanges that did not lower it, only the largest such row changes (Murty's
 * single principal pivot), which ends for every P-matrix (Murty 1974). Every principal submatrix
 * of a positive definite M is positive definite: each M_FF has a Cholesky factor, and a failed
 * one says M is not positive definite (dependent contacts), which goes to Lemke.
 *
 * Why not Siconos' Lemke every step: it mallocs its tableau (size + 3 blocks) per call, ~35
 * allocations a step on a 100-bead column, and needs about as many pivots as active contacts
 * from its artificial start, where a resting stack's pattern is the last step's: started from
 * it (and from the rows with q_i < 0, the contacts that close), the 100-bead column of
 * bench_scale takes 3.8 iterations a solve (5.2 from the last pattern alone, 1130 solves, no
 * fallback); what remains is an impact running up the stack, a contact per iteration. */
#include "internal.h"

#include <lapacke.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define EPS 2.220446049250313e-16

struct nsdae_lcp_pivot_ws {
    int cap;
    double *L;        /* cap x cap: M_FF, then its Cholesky factor (dense or band storage) */
    double *x, *w;    /* cap: z_F (then z), w of the current pattern */
    double *terms;    /* cap: each row's |q_i| + sum |M_ij z_j|, the scale of its rounding */
    double *chk;      /* NSDAE_MLCP_CHECK_SCRATCH(cap) */
    int *F, *isfree;  /* cap: the free rows in increasing order; per row 1 when free */
    lcp_arena ar;     /* the fallback's Lemke workspace, of capacity cap */
    lcp_lemke_ws lemke;
    nsdae_lcp_pivot_stats stats;
};

static void ws_release(nsdae_lcp_pivot_ws *ws)
{
    free(ws->L);
    free(ws->x);
    free(ws->w);
    free(ws->terms);
    free(ws->chk);
    free(ws->F);
    free(ws->isfree);
    lcp_arena_free(&ws->ar);
}

static int reserve(nsdae_lcp_pivot_ws *ws, int n)
{
    if (n <= ws->cap)
        return 0;
    ws_release(ws);
    size_t N = (size_t)n;
    ws->L = malloc(sizeof(double) * N * N);
    ws->x = malloc(sizeof(double) * N);
    ws->w = malloc(sizeof(double) * N);
    ws->terms = malloc(sizeof(double) * N);
    ws->chk = malloc(sizeof(double) * NSDAE_MLCP_CHECK_SCRATCH(N));
    ws->F = malloc(sizeof(int) * N);
    ws->isfree = malloc(sizeof(int) * N);
    if (!ws->L || !ws->x || !ws->w || !ws->terms || !ws->chk || !ws->F || !ws->isfree ||
        lcp_lemke_ws_init(&ws->lemke, n, &ws->ar) != 0) {
        ws_release(ws);
        memset(ws, 0, offsetof(nsdae_lcp_pivot_ws, stats));
        return -1;
    }
    ws->cap = n;
    return 0;
}

nsdae_status nsdae_lcp_pivot_ws_create(int capacity, nsdae_lcp_pivot_ws **out, nsdae_error *err)
{
    if (!out)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "pivot workspace: out is NULL");
    *out = calloc(1, sizeof **out);
    if (!*out || reserve(*out, capacity > 0 ? capacity : 1)) {
        nsdae_lcp_pivot_ws_destroy(*out);
        *out = NULL;
        return nsdae_error_set(err, NSDAE_NOMEM, "pivot workspace: out of memory for size %d", capacity);
    }
    return NSDAE_OK;
}

void nsdae_lcp_pivot_ws_destroy(nsdae_lcp_pivot_ws *ws)
{
    if (!ws)
        return;
    ws_release(ws);
    free(ws);
}

nsdae_lcp_pivot_stats nsdae_lcp_pivot_ws_stats(const nsdae_lcp_pivot_ws *ws)
{
    return ws ? ws->stats : (nsdae_lcp_pivot_stats){0, 0, 0, 0};
}

/* Symmetric to rounding and with a positive diagonal: the Cholesky of the lower triangle then
 * solves M_FF itself up to that rounding (the per-row check has the last word). The product
 * G M^-1 G^T computes M_ab and M_ba in different orders; by Cauchy-Schwarz their terms are at
 * most sqrt(M_aa M_bb), which scales the difference allowed. */
static int symmetric_pd_diagonal(int N, const double *M)
{
    for (int j = 0; j < N; j++) {
        if (!(M[j + (size_t)j * N] > 0))
            return 0;
        for (int i = j + 1; i < N; i++) {
            double d = fabs(M[i + (size_t)j * N] - M[j + (size_t)i * N]);
            if (!(d <= 64 * EPS * sqrt(M[i + (size_t)i * N] * M[j + (size_t)j * N])))
                return 0;
        }
    }
    return 1;
}

/* z_F = -M_FF^-1 q_F into ws->x (nf entries); -1 when M_FF has no Cholesky factor. A banded
 * M_FF (a column of beads: tridiagonal) is factored in band storage, O(nf kd^2) instead of
 * O(nf^3). */
static int solve_free(nsdae_lcp_pivot_ws *ws, int N, const double *M, const double *q, int nf)
{
    const int *F = ws->F;
    int kd = 0;
    for (int b = 0; b < nf; b++)
        for (int a = nf - 1; a > b + kd; a--)
            if (M[F[a] + (size_t)F[b] * N] != 0) {
                kd = a - b;
                break;
            }
    for (int a = 0; a < nf; a++)
        ws->x[a] = -q[F[a]];
    lapack_int info;
    if (2 * kd + 1 < nf) {
        const int ld = kd + 1;   /* LAPACK's lower band storage: AB(i - j, j) = A(i, j) */
        for (int b = 0; b < nf; b++)
            for (int a = b; a < nf && a <= b + kd; a++)
                ws->L[(a - b) + (size_t)b * ld] = M[F[a] + (size_t)F[b] * N];
        info = LAPACKE_dpbtrf_work(LAPACK_COL_MAJOR, 'L', nf, kd, ws->L, ld);
        if (info == 0)
            info = LAPACKE_dpbtrs_work(LAPACK_COL_MAJOR, 'L', nf, kd, 1, ws->L, ld, ws->x, nf);
    } else {
        for (int b = 0; b < nf; b++)
            for (int a = b; a < nf; a++)
                ws->L[a + (size_t)b * nf] = M[F[a] + (size_t)F[b] * N];
        info = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', nf, ws->L, nf);
        if (info == 0)
            info = LAPACKE_dpotrs_work(LAPACK_COL_MAJOR, 'L', nf, 1, ws->L, nf, ws->x, nf);
    }
    return info == 0 ? 0 : -1;
}

/* Row i breaks its sign beyond rounding at the pattern's point (see pattern_point). */
static int wrong_side(const nsdae_lcp_pivot_ws *ws, int N, const double *M, const double *z, int i)
{
    const double tol = 64 * EPS * ws->terms[i];
    return ws->isfree[i] ? -z[i] * M[i + (size_t)i * N] > tol : ws->w[i] < -tol;
}

/* The pattern's point into z and w (w_F as computed, not set to 0), each row's terms, and
 * whether it breaks a sign beyond rounding: a component whose pull on its own row stays below
 * that row's rounding, M_ii |z_i| <= 64 eps terms_i, is taken as 0 (its row then passes the
 * check at z_i = 0 all the same), and so is w_i >= -64 eps terms_i. Returns the number of rows
 * on the wrong side and writes the largest of them to *last. */
static int pattern_point(nsdae_lcp_pivot_ws *ws, int N, const double *M, const double *q, int nf, double *z,
                         int *last)
{
    for (int i = 0; i < N; i++) {
        z[i] = 0;
        ws->w[i] = q[i];
        ws->terms[i] = fabs(q[i]);
    }
    for (int b = 0; b < nf; b++) {
        const int j = ws->F[b];
        const double zj = ws->x[b], *col = M + (size_t)j * N;
        z[j] = zj;
        for (int i = 0; i < N; i++) {
            double t = col[i] * zj;
            ws->w[i] += t;
            ws->terms[i] += fabs(t);
        }
    }
    int bad = 0;
    *last = -1;
    for (int i = 0; i < N; i++) {
        if (wrong_side(ws, N, M, z, i)) {
            bad++;
            *last = i;
        } else if (ws->isfree[i] && z[i] < 0) {
            z[i] = 0;
        }
    }
    return bad;
}

static int gather_free(nsdae_lcp_pivot_ws *ws, int N)
{
    int nf = 0;
    for (int i = 0; i < N; i++)
        if (ws->isfree[i])
            ws->F[nf++] = i;
    return nf;
}

/* 0: z solves the pattern found (not yet checked); -1: no pattern within the bound, or a
 * principal system without a Cholesky factor. */
static int block_pivoting(nsdae_lcp_pivot_ws *ws, const nsdae_mlcp *p, double *z)
{
    const int N = p->size, limit = 2 * N + 10;
    for (int i = 0; i < N; i++)
        ws->isfree[i] = z[i] > 0 || p->q[i] < 0;
    int best = N + 1, tries = 3;
    for (int it = 0; it < limit; it++) {
        ws->stats.iterations++;
        const int nf = gather_free(ws, N);
        if (nf > 0 && solve_free(ws, N, p->M, p->q, nf))
            return -1;
        int last, bad = pattern_point(ws, N, p->M, p->q, nf, z, &last);
        if (bad == 0)
            return 0;
        if (bad < best || tries-- > 0) {
            if (bad < best) {
                best = bad;
                tries = 3;
            }
            /* every row on the wrong side changes sides */
            for (int i = 0; i < N; i++)
                if (wrong_side(ws, N, p->M, z, i))
                    ws->isfree[i] = !ws->isfree[i];
        } else {
            ws->isfree[last] = !ws->isfree[last];
        }
    }
    return -1;
}

nsdae_status nsdae_lcp_solve_pivot_ws(nsdae_lcp_pivot_ws *ws, const nsdae_mlcp *p, double *z, double *w,
                                      nsdae_error *err)
{
    if (!ws)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "pivot: workspace is NULL");
    nsdae_status st = lcp_validate_pure("pivot", p, z, w, err);
    if (st)
        return st;
    if (reserve(ws, p->size))
        return nsdae_error_set(err, NSDAE_NOMEM, "pivot: out of memory for size %d", p->size);
    ws->stats.calls++;
    if (symmetric_pd_diagonal(p->size, p->M) && block_pivoting(ws, p, z) == 0 &&
        nsdae_mlcp_row_violation_scratch(p, z, ws->chk) <= NSDAE_TOL_RESIDUAL) {
        lcp_caller_w(p, z, w);
        return NSDAE_OK;
    }
    /* Lemke on the workspace first (dependent contacts, a singular W: every step of a resting
     * body on three coplanar feet), Siconos' (which allocates) when it fails */
    ws->stats.fallbacks++;
    if (lcp_lemke(p->size, p->M, p->q, z, &ws->lemke) == 0 &&
        nsdae_mlcp_row_violation_scratch(p, z, ws->chk) <= NSDAE_TOL_RESIDUAL) {
        lcp_caller_w(p, z, w);
        return NSDAE_OK;
    }
    ws->stats.siconos++;
    return nsdae_lcp_solve_siconos(p, "lemke", z, w, err);
}
