/* Public minimal-norm entry points: equilibrate, pick the fast path or the branch and bound,
 * map the answer back and check it on the caller's original data. The workspace caches what
 * depends only on the matrix (scaling, scaled matrix, pattern factorisations). */
#include "internal.h"

#include <math.h>

#include <stdlib.h>
#include <string.h>

struct nsdae_lcp_workspace {
    int N, cap;              /* size of the prepared matrix (0: none), allocated size */
    double *buf;             /* one block holding every array below */
    double *M;               /* the caller's M, to recognise the same matrix */
    nsdae_row_kind *kind;    /* the caller's kinds (all complementarity when the caller's is NULL) */
    int kind_null;
    double *dr, *dc, *Ms;    /* equilibration and the scaled matrix */
    double *qs, *los, *his, *zs, *wsc, *zref, *Q;
    double *zo, *wo;         /* scratch: candidates mapped back to the caller's units for the check */
    double *cmax, *rsum;     /* the caller's M as the per-row check needs it (check.c), per matrix */
    int *sel;
    lcp_structure structure; /* the prepared matrix's kind of solution set (structure.c) */
    lcp_arena arena;         /* the branch and bound's, kept: a call of the same size allocates nothing */
    lcp_fast fast;           /* ~40 KB, written only by lcp_fast_prepare: never zeroed */
};

nsdae_status nsdae_lcp_workspace_create(nsdae_lcp_workspace **out, nsdae_error *err)
{
    if (!out)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "workspace: out is NULL");
    *out = malloc(sizeof **out);   /* not calloc: zeroing the pattern factors would cost more than a small solve */
    if (!*out)
        return nsdae_error_set(err, NSDAE_NOMEM, "workspace: out of memory");
    (*out)->N = (*out)->cap = 0;
    (*out)->buf = NULL;
    (*out)->fast.ok = 0;
    memset(&(*out)->structure, 0, sizeof (*out)->structure);
    (*out)->arena = (lcp_arena){0};
    return NSDAE_OK;
}

void nsdae_lcp_workspace_destroy(nsdae_lcp_workspace *ws)
{
    if (!ws)
        return;
    free(ws->buf);
    lcp_structure_free(&ws->structure);
    lcp_arena_free(&ws->arena);
    free(ws);
}

static int reserve(nsdae_lcp_workspace *ws, int N)
{
    if (ws->cap >= N)
        return 0;
    size_t n = (size_t)N, nn = n * n;
    /* doubles first, then the int-sized arrays: alignment holds without padding */
    size_t bytes = sizeof(double) * (3 * nn + 12 * n) + sizeof(nsdae_row_kind) * n + sizeof(int) * n;
    double *b = malloc(bytes);
    if (!b)
        return -1;
    free(ws->buf);
    ws->buf = b;
    ws->M = b;
    ws->Ms = b + nn;
    ws->Q = b + 2 * nn;
    double **vec[] = {&ws->dr, &ws->dc, &ws->qs, &ws->los, &ws->his, &ws->zs, &ws->wsc, &ws->zref, &ws->zo, &ws->wo, &ws->cmax, &ws->rsum};
    for (size_t i = 0; i < sizeof vec / sizeof *vec; i++)
        *vec[i] = b + 3 * nn + i * n;
    ws->kind = (nsdae_row_kind *)(b + 3 * nn + 12 * n);
    ws->sel = (int *)(ws->kind + n);
    ws->cap = N;
    return 0;
}

static int same_matrix(const nsdae_lcp_workspace *ws, const nsdae_mlcp *p)
{
    size_t n = (size_t)p->size;
    if (ws->N != p->size || ws->kind_null != !p->kind)
        return 0;
    if (p->kind && memcmp(ws->kind, p->kind, sizeof(nsdae_row_kind) * n))
        return 0;
    return !memcmp(ws->M, p->M, sizeof(double) * n * n);
}

static nsdae_status prepare(nsdae_lcp_workspace *ws, const nsdae_mlcp *p, nsdae_error *err)
{
    if (same_matrix(ws, p))
        return NSDAE_OK;
    int N = p->size;
    ws->N = 0;
    ws->structure.valid = 0;
    if (reserve(ws, N))
        return nsdae_error_set(err, NSDAE_NOMEM, "minnorm: out of memory for a problem of size %d", N);
    memcpy(ws->M, p->M, sizeof(double) * (size_t)N * N);
    ws->kind_null = !p->kind;
    for (int i = 0; i < N; i++)
        ws->kind[i] = p->kind ? p->kind[i] : NSDAE_ROW_COMPLEMENTARITY;
    lcp_scale_factors(N, p->M, ws->dr, ws->dc);
    lcp_scale_matrix(N, p->M, ws->dr, ws->dc, ws->Ms);
    lcp_check_scale_compute(p, ws->cmax, ws->rsum);
    lcp_fast_prepare(&ws->fast, N, ws->Ms, ws->kind);
    ws->N = N;
    return NSDAE_OK;
}

/* Weights this far apart (the largest H_jj over the smallest) leave a variable's part of the
 * objective within 1e3 eps of the rest at like magnitudes: fuzzing's answers that were not minimal
 * for that reason had 2.4e13 to 7.9e28; Siconos' BuckConverter has 1.8e12 and gains nothing. */
#define OWN_PIECE_SPREAD 1e13
/* Up to this size the answer's own piece is minimised again whatever the spread: an ill-
 * conditioned pattern's point, found in reduced coordinates, can pass every caller row and still
 * be off (crash-daba...: z4 = -2.32925 where its pattern's point, the unique solution, has
 * -2.32558; crash-091a..., crash-2bd4..., crash-a264... likewise, at spreads 1 to 28). The cost
 * is one small dense solve: about 7 us on Siconos' lcp_trivial. */
#define OWN_PIECE_SMALL_N 12

/* Does z = 0 solve p with the objective 0 there: then nothing is lower, whatever the search
 * found. The branch and bound, in equilibrated units, can miss it where the data spans many
 * scales: fuzzing's crash-ae3a... (q = 0, entries from 1e-6 to 1e6, every box holding 0) was
 * refused with "linear algebra failed on a leaf pattern". z = 0 is checked as any answer is (w = q
 * on the caller's rows), so an equality row with q_i = 1e-14 is not taken for zero. zs, ws: N
 * doubles of scratch each, left at z = 0, w = q. */
static int zero_is_minimal(const nsdae_lcp_workspace *ws, const nsdae_mlcp *p, const nsdae_minnorm_spec *spec,
                           double *zs, double *ws_)
{
    int N = p->size;
    memset(zs, 0, sizeof(double) * (size_t)N);
    if (lcp_objective_at_z(spec, N, zs, ws_) != 0)
        return 0;
    memcpy(ws_, p->q, sizeof(double) * (size_t)N);
    return lcp_checked_violation(p, ws->cmax, ws->rsum, zs, ws_) <= NSDAE_TOL_RESIDUAL;
}

nsdae_status nsdae_lcp_minnorm_ws(nsdae_lcp_workspace *ws, const nsdae_mlcp *p, const nsdae_minnorm_spec *spec,
                                  double *z, double *w, nsdae_minnorm_result *result, nsdae_error *err)
{
    nsdae_minnorm_result res = {0};
    if (result)
        *result = res;
    if (!ws)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "minnorm: workspace is NULL");
    nsdae_status st = nsdae_mlcp_validate(p, err);
    if (st)
        return st;
    if (!z || !w)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "minnorm: z or w is NULL");
    if ((st = prepare(ws, p, err)))
        return st;
    int N = p->size;
    double alpha = lcp_scale_rhs(p, ws->dr, ws->dc, ws->qs, ws->los, ws->his), fscale;
    nsdae_minnorm_spec sspec;
    if ((st = lcp_scale_spec(N, ws->dc, alpha, spec, ws->zref, ws->sel, ws->Q, &sspec, &fscale, err)))
        return st;
    int has_box = p->lo && p->hi;
    nsdae_mlcp ps = {N, ws->Ms, ws->qs, p->kind, has_box ? ws->los : NULL, has_box ? ws->his : NULL};
    lcp_origin orig = {p, ws->dr, ws->dc, alpha, ws->zo, ws->wo, ws->cmax, ws->rsum};
    double spread = 1;
    int fast = ws->fast.ok;
    if (fast)
        st = lcp_fast_minnorm(&ws->fast, &ps, &orig, &sspec, ws->zs, &res, err);
    /* the fast path's "no solution" rests on its sign tests in the equilibrated units: the branch
     * and bound, whose searches without solution end on the exact LP (minnorm.c), decides it.
     * crash-3b2d...: the unique solution (1.0000028e-8, 140.0006, -14000056, 0.2000028) beside
     * "each of the 8 patterns is inconsistent". Only then: a step without solution is the end
     * of a run. */
    if (fast && st == NSDAE_NO_SOLUTION) {
        nsdae_error_clear(err);
        fast = 0;
    }
    if (!fast)
        st = lcp_minnorm_bnb(&ps, &orig, &sspec, &ws->structure, &ws->arena, ws->zs, ws->wsc, &res, &spread, err);
    if (st == NSDAE_OK) {
        /* the answer on its own pattern, to rounding (polish.c); then every caller row against
         * its own terms, with the tolerance every other solver of the layer is held to */
        res.objective *= fscale;
        if (fast) {
            /* the fast path's answer passed the caller's rows as a candidate (fast.c): the same
             * point in the same arithmetic, so a second check would repeat the verdict at the cost
             * of a whole per-row pass (a sixth of a small step) */
            lcp_scale_z_to_caller(N, ws->dc, alpha, ws->zs, z);
            lcp_caller_w(p, z, w);
        } else if (lcp_accept_or_polish(&ps, &orig, ws->zs, ws->wsc)) {
            /* its last check was on this very point, brought to the caller's units by the same
             * arithmetic: kept as checked */
            memcpy(z, orig.z, sizeof(double) * (size_t)N);
            memcpy(w, orig.w, sizeof(double) * (size_t)N);
        } else {
            lcp_scale_z_to_caller(N, ws->dc, alpha, ws->zs, z);
            lcp_caller_w(p, z, w);
            double v = lcp_checked_violation(p, ws->cmax, ws->rsum, z, w);
            if (!(v <= NSDAE_TOL_RESIDUAL))
                st = nsdae_error_set(err, NSDAE_NUMERICAL,
                                     "minnorm: the selected solution violates the MLCP by %.3g (relative)", v);
        }
        /* the branch and bound minimises in M's equilibrated, reduced units: where they weigh
         * the variables OWN_PIECE_SPREAD apart or more, the answer's own piece is minimised again
         * in the caller's units (own_piece.c). Always, it cost Siconos' lcp_trivial 2.5 times
         * its time (5 to 12.6 us) and BuckConverter 1.6 times, for nothing. */
        if (st == NSDAE_OK && !fast) {
            double *scratch = lcp_arena_doubles_uninit(&ws->arena, 2 * (size_t)N);
            if (scratch)
                lcp_snap_to_ends(p, ws->cmax, ws->rsum, z, w, scratch, scratch + N);
            lcp_arena_reset(&ws->arena);
        }
        if (st == NSDAE_OK && !fast && (spread > OWN_PIECE_SPREAD || N <= OWN_PIECE_SMALL_N)) {
            if (lcp_minimise_on_own_piece(p, spec, ws->cmax, ws->rsum, z, w, &ws->arena))
                res.objective = lcp_objective_at_z(spec, N, z, ws->zs);
            lcp_arena_reset(&ws->arena);
        }
    }
    /* a refusal, "no solution" or an answer above zero where z = 0 solves at objective 0; the
     * fast path solves every pattern, the one of z = 0 among them */
    if (!fast && (st == NSDAE_OK ? res.objective > 0 : st == NSDAE_NO_SOLUTION || st == NSDAE_NUMERICAL) &&
        zero_is_minimal(ws, p, spec, ws->zo, ws->wo)) {
        nsdae_error_clear(err);
        st = NSDAE_OK;
        memcpy(z, ws->zo, sizeof(double) * (size_t)N);
        memcpy(w, ws->wo, sizeof(double) * (size_t)N);
        res.objective = 0;
        res.unique = !(spec && spec->k > 0 && spec->k < N);   /* |z| = 0 only at 0; a part of z can be 0 elsewhere */
        if (res.nsol == 1)   /* the search's verdict missed this solution */
            res.nsol = 0;
    }
    /* "no solution" only where every decision behind it was certain (lcp.h, the contract) */
    if (st == NSDAE_NO_SOLUTION && lcp_spread_exceeds(p, NSDAE_SPREAD_MAX_LOG2))
        st = nsdae_error_set(err, NSDAE_NUMERICAL,
                             "minnorm: no solution found, but the data's scales spread beyond 2^%g in any units: "
                             "not certain", NSDAE_SPREAD_MAX_LOG2);
    if (result)
        *result = res;
    return st;
}

nsdae_status nsdae_lcp_minnorm(const nsdae_mlcp *p, const nsdae_minnorm_spec *spec, double *z, double *w,
                               nsdae_minnorm_result *result, nsdae_error *err)
{
    nsdae_lcp_workspace *ws = NULL;   /* ~40 KB: on the heap, not on a caller's stack */
    nsdae_status st = nsdae_lcp_workspace_create(&ws, err);
    if (st == NSDAE_OK)
        st = nsdae_lcp_minnorm_ws(ws, p, spec, z, w, result, err);
    else if (result)
        *result = (nsdae_minnorm_result){0};
    nsdae_lcp_workspace_destroy(ws);
    return st;
}
