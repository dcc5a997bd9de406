/* Validation of a caller's MLCP and its conversion to standard form (equality variables
 * first, complementarity variables after, box rows split), plus the map back to the caller. */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

nsdae_status nsdae_mlcp_validate(const nsdae_mlcp *p, nsdae_error *err)
{
    if (!p)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "mlcp: problem is NULL");
    if (p->size < 1)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "mlcp: size %d < 1", p->size);
    if (p->size > 46340)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "mlcp: size %d too large for a dense matrix", p->size);
    if (!p->M)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "mlcp: M is NULL");
    if (!p->q)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "mlcp: q is NULL");
    int N = p->size, has_box = 0;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++)
            if (!isfinite(p->M[i + (size_t)j * N]))
                return nsdae_error_set(err, NSDAE_INVALID_INPUT, "mlcp: M(%d,%d) = %g is not finite", i, j,
                                       p->M[i + (size_t)j * N]);
    for (int i = 0; i < N; i++)
        if (!isfinite(p->q[i]))
            return nsdae_error_set(err, NSDAE_INVALID_INPUT, "mlcp: q[%d] = %g is not finite", i, p->q[i]);
    if (p->kind)
        for (int i = 0; i < N; i++) {
            nsdae_row_kind k = p->kind[i];
            if (k != NSDAE_ROW_EQUALITY && k != NSDAE_ROW_COMPLEMENTARITY && k != NSDAE_ROW_BOX)
                return nsdae_error_set(err, NSDAE_INVALID_INPUT, "mlcp: row %d has unknown kind %d", i, (int)k);
            has_box |= k == NSDAE_ROW_BOX;
        }
    if (has_box && (!p->lo || !p->hi))
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "mlcp: box rows present but lo or hi is NULL");
    for (int i = 0; has_box && i < N; i++) {
        if (p->kind[i] != NSDAE_ROW_BOX)
            continue;
        double lo = p->lo[i], hi = p->hi[i];
        if (isnan(lo) || isnan(hi))
            return nsdae_error_set(err, NSDAE_INVALID_INPUT, "mlcp: box row %d has a NaN bound (lo %g, hi %g)", i,
                                   lo, hi);
        if (lo == INFINITY || hi == -INFINITY)
            return nsdae_error_set(err, NSDAE_INVALID_INPUT, "mlcp: box row %d has an empty range (lo %g, hi %g)",
                                   i, lo, hi);
        if (lo > hi)
            return nsdae_error_set(err, NSDAE_INVALID_INPUT, "mlcp: box row %d has lo %g > hi %g", i, lo, hi);
    }
    return NSDAE_OK;
}

/* How one caller row enters the standard form. */
enum row_map { RM_EQ, RM_COMP, RM_LO, RM_HI, RM_BOTH, RM_FIXED };

static enum row_map classify(const nsdae_mlcp *p, int i)
{
    nsdae_row_kind k = p->kind ? p->kind[i] : NSDAE_ROW_COMPLEMENTARITY;
    if (k == NSDAE_ROW_EQUALITY)
        return RM_EQ;
    if (k == NSDAE_ROW_COMPLEMENTARITY)
        return RM_COMP;
    double lo = p->lo[i], hi = p->hi[i];
    if (lo == hi)
        return RM_FIXED;
    if (isinf(lo) && isinf(hi))
        return RM_EQ;
    if (isinf(hi))
        return RM_LO;
    if (isinf(lo))
        return RM_HI;
    return RM_BOTH;
}

nsdae_status lcp_validate_pure(const char *who, const nsdae_mlcp *p, const double *z, const double *w,
                               nsdae_error *err)
{
    nsdae_status st = nsdae_mlcp_validate(p, err);
    if (st)
        return st;
    if (!z || !w)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "%s: z or w is NULL", who);
    for (int i = 0; p->kind && i < p->size; i++)
        if (p->kind[i] != NSDAE_ROW_COMPLEMENTARITY)
            return nsdae_error_set(err, NSDAE_INVALID_INPUT,
                                   "%s: only pure LCPs (every row a complementarity row) are accepted", who);
    return NSDAE_OK;
}

nsdae_status lcp_std_build(const nsdae_mlcp *p, lcp_arena *ar, lcp_std *s, nsdae_error *err)
{
    int N = p->size, n = 0, m = 0;
    for (int i = 0; i < N; i++) {
        enum row_map rm = classify(p, i);
        n += rm == RM_EQ;
        m += (rm == RM_COMP || rm == RM_LO || rm == RM_HI) + 2 * (rm == RM_BOTH);
    }
    int nx = n + m;
    memset(s, 0, sizeof *s);
    s->size = N;
    s->n = n;
    s->m = m;
    s->nx = nx;
    s->A = lcp_arena_doubles(ar, (size_t)nx * nx + 1);
    s->c = lcp_arena_doubles(ar, (size_t)nx + 1);
    s->zidx = lcp_arena_alloc(ar, sizeof(int) * (size_t)N);
    s->zsgn = lcp_arena_doubles(ar, (size_t)N);
    s->zoff = lcp_arena_doubles(ar, (size_t)N);
    s->crow = lcp_arena_alloc(ar, sizeof(int) * ((size_t)m + 1));
    int *rowvar = lcp_arena_alloc(ar, sizeof(int) * (size_t)N);   /* internal row of caller row i */
    int *auxvar = lcp_arena_alloc(ar, sizeof(int) * (size_t)N);   /* the y variable of a two-sided box */
    double *rsgn = lcp_arena_doubles(ar, (size_t)N);
    if (ar->failed)
        return nsdae_error_set(err, NSDAE_NOMEM, "mlcp: out of memory for a problem of size %d", N);

    int ne = 0, nc = n;
    for (int i = 0; i < N; i++) {
        enum row_map rm = classify(p, i);
        auxvar[i] = -1;
        rowvar[i] = -1;
        rsgn[i] = 1.0;
        switch (rm) {
        case RM_EQ: s->zidx[i] = ne; s->zsgn[i] = 1; s->zoff[i] = 0; rowvar[i] = ne++; break;
        case RM_COMP: s->zidx[i] = nc; s->zsgn[i] = 1; s->zoff[i] = 0; rowvar[i] = nc++; break;
        case RM_LO: s->zidx[i] = nc; s->zsgn[i] = 1; s->zoff[i] = p->lo[i]; rowvar[i] = nc++; break;
        case RM_HI: /* z = hi - x, complementary to -w */
            s->zidx[i] = nc; s->zsgn[i] = -1; s->zoff[i] = p->hi[i]; rowvar[i] = nc++; rsgn[i] = -1; break;
        case RM_BOTH: /* z = lo + x, 0 <= x _|_ w + y >= 0, 0 <= y _|_ (hi - lo) - x >= 0 */
            s->zidx[i] = nc; s->zsgn[i] = 1; s->zoff[i] = p->lo[i]; rowvar[i] = nc++; auxvar[i] = nc++; break;
        case RM_FIXED: s->zidx[i] = -1; s->zsgn[i] = 0; s->zoff[i] = p->lo[i]; break;
        }
        for (int c = rowvar[i] < n ? nc : rowvar[i]; c < nc; c++)
            s->crow[c - n] = i;
    }
    /* Row of x-variable rowvar[i]: rsgn_i * (M (zoff + zsgn x) + q)_i. */
    for (int i = 0; i < N; i++) {
        int r = rowvar[i];
        if (r < 0)
            continue;
        double cst = p->q[i];
        for (int j = 0; j < N; j++) {
            double mij = p->M[i + (size_t)j * N];
            cst += mij * s->zoff[j];
            if (s->zidx[j] >= 0)
                s->A[r + (size_t)s->zidx[j] * nx] += rsgn[i] * mij * s->zsgn[j];
        }
        s->c[r] = rsgn[i] * cst;
        if (auxvar[i] >= 0) {
            int y = auxvar[i];
            s->A[r + (size_t)y * nx] += 1.0;
            s->A[y + (size_t)r * nx] = -1.0;
            s->c[y] = p->hi[i] - p->lo[i];
        }
    }
    return NSDAE_OK;
}

void lcp_std_to_caller(const lcp_std *s, const double *x, double *z)
{
    for (int j = 0; j < s->size; j++)
        z[j] = s->zoff[j] + (s->zidx[j] >= 0 ? s->zsgn[j] * x[s->zidx[j]] : 0.0);
}

void lcp_caller_w(const nsdae_mlcp *p, const double *z, double *w)
{
    int N = p->size;
    for (int i = 0; i < N; i++)
        w[i] = p->q[i];
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++)
            w[i] += p->M[i + (size_t)j * N] * z[j];
}

double lcp_caller_violation(const nsdae_mlcp *p, const double *z, const double *w)
{
    double *d = malloc(sizeof(double) * 2 * (size_t)p->size);
    if (!d)
        return INFINITY;   /* cannot measure: refuse the point */
    lcp_scale_factors(p->size, p->M, d, d + p->size);
    double v = lcp_scaled_violation(p, d, d + p->size, z, w);
    free(d);
    return v;
}
