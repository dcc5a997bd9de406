/* Fuzz target: the complementarity layer. Bytes become a small MLCP (size 1..6, row kinds, entries
 * from a short list of values so that ties, zeros and singular blocks are common), which is solved
 * by minimal norm (with solution counting) and enumerated. Every answer is checked here, by code
 * that shares nothing with the layer:
 *   - w = M z + q recomputed; each row's residual within a tolerance relative to that row's own
 *     terms (|q_i| + sum_j |M_ij z_j|), signs and complementarity (or the box law) likewise;
 *   - the minimal-norm answer is no larger in norm than any solution the enumeration lists (and
 *     enumeration and minimal norm agree on whether a solution exists);
 *   - every enumerated point passes the same check.
 * A violated check aborts: libFuzzer keeps the input. */
#include "fuzz_check.h"

#include <nsdae/lcp.h>

#include <math.h>
#include <string.h>

#define MAX_SIZE 6
/* Relative tolerance of the independent check: the layer's own per-row acceptance is 1e-9-ish
 * relative; an answer off by more than this is wrong, not rounded. */
#define REL_TOL 1e-6

/* Entries from a list: small integers and a few scales (0 is frequent: degenerate problems). */
static double value_of(uint8_t b)
{
    static const double v[16] = {0, 0, 0, 1, -1, 2, -2, 0.5, -0.5, 3, -3, 1e-3, -1e3, 1e6, -1e-6, 10};
    return v[b & 15] * ((b >> 4) == 15 ? 1e-8 : (b >> 4) == 14 ? 1e8 : 1.0);
}

typedef struct reader {
    const uint8_t *p;
    size_t n;
} reader;

static uint8_t next_byte(reader *r)
{
    if (!r->n) return 0;
    r->n--;
    return *r->p++;
}

/* Returns 1 when (z, w) solves p: per row, within REL_TOL of the row's own terms. */
static int solves(const nsdae_mlcp *p, const double *z)
{
    int n = p->size;
    for (int i = 0; i < n; i++) {
        double w = p->q[i], scale = fabs(p->q[i]);
        for (int j = 0; j < n; j++) {
            w += p->M[i + (size_t)j * n] * z[j];
            scale += fabs(p->M[i + (size_t)j * n] * z[j]);
        }
        if (!isfinite(z[i]) || !isfinite(w)) return 0;
        double tw = REL_TOL * (1 + scale), tz = REL_TOL * (1 + fabs(z[i]));
        nsdae_row_kind k = p->kind ? p->kind[i] : NSDAE_ROW_COMPLEMENTARITY;
        if (k == NSDAE_ROW_EQUALITY) {
            if (fabs(w) > tw) return 0;
        } else if (k == NSDAE_ROW_COMPLEMENTARITY) {
            if (z[i] < -tz || w < -tw || (z[i] > tz && fabs(w) > tw)) return 0;
        } else {
            double lo = p->lo[i], hi = p->hi[i], tb = REL_TOL * (1 + fabs(lo) + fabs(hi));
            int at_lo = fabs(z[i] - lo) <= tb, at_hi = fabs(z[i] - hi) <= tb;
            if (z[i] < lo - tb || z[i] > hi + tb) return 0;
            if (!at_lo && !at_hi && fabs(w) > tw) return 0;
            if (at_lo && !at_hi && w < -tw) return 0;
            if (at_hi && !at_lo && w > tw) return 0;
        }
    }
    return 1;
}

static double norm2(const double *z, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += z[i] * z[i];
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader r = {data, size};
    int n = 1 + next_byte(&r) % MAX_SIZE;
    double M[MAX_SIZE * MAX_SIZE], q[MAX_SIZE], lo[MAX_SIZE], hi[MAX_SIZE], z[MAX_SIZE], w[MAX_SIZE];
    nsdae_row_kind kind[MAX_SIZE];
    for (int i = 0; i < n; i++) {
        uint8_t b = next_byte(&r);
        kind[i] = b % 5 == 0 ? NSDAE_ROW_EQUALITY : b % 5 == 4 ? NSDAE_ROW_BOX : NSDAE_ROW_COMPLEMENTARITY;
        lo[i] = (b & 0x20) ? -INFINITY : -1.0 + (b >> 6) * 0.5;
        hi[i] = (b & 0x10) && !(b & 0x20) ? INFINITY : lo[i] + 1.0 + ((b >> 3) & 1);
        if (!isfinite(lo[i])) hi[i] = 1.0;
    }
    for (int k = 0; k < n * n; k++) M[k] = value_of(next_byte(&r));
    for (int i = 0; i < n; i++) q[i] = value_of(next_byte(&r));
    nsdae_mlcp p = {n, M, q, kind, lo, hi};
    nsdae_error err = {0};
    nsdae_status st = nsdae_mlcp_validate(&p, &err);
    FUZZ_CHECK_STATUS(st, err);
    if (st != NSDAE_OK) return 0;

    nsdae_minnorm_spec spec = {NULL, NULL, 0, NULL, 1};
    nsdae_minnorm_result res;
    nsdae_status mst = nsdae_lcp_minnorm(&p, &spec, z, w, &res, &err);
    FUZZ_CHECK_STATUS(mst, err);
    if (mst == NSDAE_OK) FUZZ_CHECK(solves(&p, z));

    nsdae_lcp_solution_set *set = NULL;
    nsdae_status est = nsdae_lcp_enumerate(&p, &set, &err);
    FUZZ_CHECK_STATUS(est, err);
    if (est == NSDAE_OK) {
        double best = INFINITY;
        for (int k = 0; k < set->count; k++) {
            if (set->pieces[k].is_point) FUZZ_CHECK(solves(&p, set->pieces[k].z));
            if (solves(&p, set->pieces[k].z)) best = fmin(best, norm2(set->pieces[k].z, n));
        }
        /* a solution verified here exists: the minimal-norm call must find one, no larger */
        if (isfinite(best)) {
            FUZZ_CHECK(mst == NSDAE_OK);
            FUZZ_CHECK(norm2(z, n) <= best * (1 + 1e-6) + 1e-12);
        }
        /* the minimal-norm answer (verified) means the enumeration cannot be empty */
        if (mst == NSDAE_OK) FUZZ_CHECK(set->count > 0);
    }
    nsdae_lcp_solution_set_free(set);
    return 0;
}
