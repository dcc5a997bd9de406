/* The layer's own Lemke (lemke.c) on a workspace kept by the caller (lcp.h): the friction LCPs of
 * a Moreau-Jean run, every step, with nothing allocated once the workspace is made.
 *
 * Why not Siconos' lcp_lexicolemke there: it mallocs its tableau on every call, and the call
 * around it (matrix wrapper, solver options, the polish of a refused point) adds more, 28
 * allocations a step on a bar resting on two frictional feet. The algorithm is the same
 * (lexicographic Lemke from the artificial start); the answer is held to the same per-row check. */
#include "internal.h"

#include <stdlib.h>

struct nsdae_lcp_lemke_ws {
    int cap;
    lcp_arena ar;        /* everything below lives in it */
    lcp_lemke_ws lemke;
    double *chk;         /* NSDAE_MLCP_CHECK_SCRATCH(cap) */
};

static int reserve(nsdae_lcp_lemke_ws *ws, int n)
{
    if (n <= ws->cap)
        return 0;
    lcp_arena_free(&ws->ar);
    ws->cap = 0;
    if (lcp_lemke_ws_init(&ws->lemke, n, &ws->ar) != 0)
        return -1;
    ws->chk = lcp_arena_doubles_uninit(&ws->ar, NSDAE_MLCP_CHECK_SCRATCH(n));
    if (ws->ar.failed)
        return -1;
    ws->cap = n;
    return 0;
}

nsdae_status nsdae_lcp_lemke_ws_create(int capacity, nsdae_lcp_lemke_ws **out, nsdae_error *err)
{
    if (!out)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "lemke workspace: out is NULL");
    *out = calloc(1, sizeof **out);
    if (!*out || reserve(*out, capacity > 0 ? capacity : 1)) {
        nsdae_lcp_lemke_ws_destroy(*out);
        *out = NULL;
        return nsdae_error_set(err, NSDAE_NOMEM, "lemke workspace: out of memory for size %d", capacity);
    }
    return NSDAE_OK;
}

void nsdae_lcp_lemke_ws_destroy(nsdae_lcp_lemke_ws *ws)
{
    if (!ws)
        return;
    lcp_arena_free(&ws->ar);
    free(ws);
}

nsdae_status nsdae_lcp_solve_lemke_ws(nsdae_lcp_lemke_ws *ws, const nsdae_mlcp *p, double *z, double *w,
                                      nsdae_error *err)
{
    if (!ws)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "lemke: workspace is NULL");
    nsdae_status st = lcp_validate_pure("lemke", p, z, w, err);
    if (st)
        return st;
    if (reserve(ws, p->size))
        return nsdae_error_set(err, NSDAE_NOMEM, "lemke: out of memory for size %d", p->size);
    const int end = lcp_lemke(p->size, p->M, p->q, z, &ws->lemke);
    if (end != 0)
        return nsdae_error_set(err, NSDAE_NO_SOLUTION, "lemke: %s",
                               end == 1 ? "ended on a ray" : "reached its pivot limit");
    const double viol = nsdae_mlcp_row_violation_scratch(p, z, ws->chk);
    if (!(viol <= NSDAE_TOL_RESIDUAL))
        return nsdae_error_set(err, NSDAE_NO_SOLUTION, "lemke: the point violates a row by %.3g of its terms", viol);
    lcp_caller_w(p, z, w);
    return NSDAE_OK;
}
