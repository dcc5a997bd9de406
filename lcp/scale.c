/* Equilibration of a caller's MLCP before any solver sees it.
 *
 * Why: the step MLCPs of stiff circuits mix entries from 1 down to 1e-9 (C = 1e-6, h = 1e-8), and
 * every rank, pivot and sign decision downstream compares numbers against tolerances relative to
 * "the data". Equilibrating first makes those tolerances mean the same thing on every problem.
 *
 *   M' = Dr M Dc,  q' = alpha Dr q,  z = Dc z' / alpha,  w' = alpha Dr w,
 *   box bounds lo' = alpha lo / dc (same for hi).
 *
 * Dr, Dc positive (complementarity and box signs are invariant under positive scalings of a
 * pair); alpha normalises q (the LCP is homogeneous in (z, q)). All factors are powers of two,
 * so scaling and unscaling are exact and a scaled problem has exactly the original's solutions. */
#include "internal.h"

#include <math.h>
#include <string.h>

static double pow2_near(double x)   /* the power of two nearest to x > 0 in log scale */
{
    int e;
    double f = frexp(x, &e);   /* x = f 2^e, f in [0.5, 1) */
    return ldexp(1.0, f < 0.70710678118654752 ? e - 1 : e);
}

/* Ruiz's iteration: divide each row and column by the square root of its max-norm until every
 * row and column has max-norm in [1/2, 2]. Converges for any matrix without zero rows/columns;
 * zero rows and columns keep factor 1. */
void lcp_scale_factors(int N, const double *M, double *dr, double *dc)
{
    for (int i = 0; i < N; i++)
        dr[i] = dc[i] = 1.0;
    for (int it = 0; it < 20; it++) {
        int moved = 0;
        for (int i = 0; i < N; i++) {
            double mx = 0;
            for (int j = 0; j < N; j++)
                mx = fmax(mx, fabs(M[i + (size_t)j * N]) * dc[j]);
            mx *= dr[i];
            if (mx > 0 && (mx < 0.5 || mx > 2)) {
                dr[i] /= pow2_near(sqrt(mx));
                moved = 1;
            }
        }
        for (int j = 0; j < N; j++) {
            double mx = 0;
            for (int i = 0; i < N; i++)
                mx = fmax(mx, fabs(M[i + (size_t)j * N]) * dr[i]);
            mx *= dc[j];
            if (mx > 0 && (mx < 0.5 || mx > 2)) {
                dc[j] /= pow2_near(sqrt(mx));
                moved = 1;
            }
        }
        if (!moved)
            break;
    }
}

void lcp_scale_matrix(int N, const double *M, const double *dr, const double *dc, double *Ms)
{
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++)
            Ms[i + (size_t)j * N] = dr[i] * M[i + (size_t)j * N] * dc[j];
}

double lcp_scale_rhs(const nsdae_mlcp *p, const double *dr, const double *dc, double *qs, double *los,
                     double *his)
{
    int N = p->size;
    /* the box bounds count with q: scaled by q alone, relay_two_states' step from x1 = 3.6e-161
     * (q ~ 1e-161 next to lambda in [-1, 1]) put the bounds at 2^530, where the root relaxation's
     * KKT system no longer solves; the small answer is the polish's job (polish.c) */
    double qmax = 0;
    for (int i = 0; i < N; i++) {
        qmax = fmax(qmax, fabs(dr[i] * p->q[i]));
        if (p->kind && p->kind[i] == NSDAE_ROW_BOX && p->lo && p->hi) {
            if (isfinite(p->lo[i]))
                qmax = fmax(qmax, fabs(p->lo[i] / dc[i]));
            if (isfinite(p->hi[i]))
                qmax = fmax(qmax, fabs(p->hi[i] / dc[i]));
        }
    }
    double alpha = qmax > 0 ? 1.0 / pow2_near(qmax) : 1.0;
    for (int i = 0; i < N; i++)
        qs[i] = alpha * dr[i] * p->q[i];
    if (p->lo && p->hi && los && his)
        for (int i = 0; i < N; i++) {   /* +-INFINITY stay infinite */
            los[i] = alpha * p->lo[i] / dc[i];
            his[i] = alpha * p->hi[i] / dc[i];
        }
    return alpha;
}

void lcp_scale_z_to_caller(int N, const double *dc, double alpha, const double *zs, double *z)
{
    for (int j = 0; j < N; j++)
        z[j] = dc[j] * zs[j] / alpha;
}

/* Cholesky without pivoting on a copy: 1 if the symmetric matrix is positive definite. */
static int spd(int k, const double *Q, double *L)
{
    memcpy(L, Q, sizeof(double) * (size_t)k * k);
    for (int j = 0; j < k; j++) {
        double d = L[j + (size_t)j * k];
        for (int p = 0; p < j; p++)
            d -= L[j + (size_t)p * k] * L[j + (size_t)p * k];
        if (!(d > 0))
            return 0;
        d = sqrt(d);
        L[j + (size_t)j * k] = d;
        for (int i = j + 1; i < k; i++) {
            double v = L[i + (size_t)j * k];
            for (int p = 0; p < j; p++)
                v -= L[i + (size_t)p * k] * L[j + (size_t)p * k];
            L[i + (size_t)j * k] = v / d;
        }
    }
    return 1;
}

nsdae_status lcp_scale_spec(int N, const double *dc, double alpha, const nsdae_minnorm_spec *spec,
                            double *zref_s, int *sel_s, double *Q_s, nsdae_minnorm_spec *out, double *fscale,
                            nsdae_error *err)
{
    int k = (spec && spec->k > 0) ? spec->k : N;
    if (spec && (spec->k < 0 || spec->k > N))
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "minnorm: k = %d outside [0, %d]", spec->k, N);
    if (spec && spec->k > 0 && !spec->select)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "minnorm: k = %d but select is NULL", spec->k);
    if (spec && spec->k == 0 && spec->Q)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "minnorm: Q given without select (k = 0)");
    for (int a = 0; a < k; a++) {
        int j = (spec && spec->k > 0) ? spec->select[a] : a;
        if (j < 0 || j >= N)
            return nsdae_error_set(err, NSDAE_INVALID_INPUT, "minnorm: select[%d] = %d outside [0, %d)", a, j, N);
        for (int b = 0; b < a; b++)
            if (sel_s[b] == j)
                return nsdae_error_set(err, NSDAE_INVALID_INPUT, "minnorm: select[%d] = %d repeats an index", a, j);
        sel_s[a] = j;
        if (spec && spec->z_ref && !isfinite(spec->z_ref[j]))
            return nsdae_error_set(err, NSDAE_INVALID_INPUT, "minnorm: z_ref[%d] = %g is not finite", j,
                                   spec->z_ref[j]);
    }
    const double *Q = (spec && spec->k > 0) ? spec->Q : NULL;
    if (Q) {
        for (int i = 0; i < k * k; i++)
            if (!isfinite(Q[i]))
                return nsdae_error_set(err, NSDAE_INVALID_INPUT, "minnorm: Q entry %d is not finite", i);
        double qmax = 0;   /* symmetry relative to the weight's own size: Q may be in any units */
        for (int i = 0; i < k * k; i++)
            qmax = fmax(qmax, fabs(Q[i]));
        for (int i = 0; i < k; i++)
            for (int j = 0; j < i; j++)
                if (fabs(Q[i + (size_t)j * k] - Q[j + (size_t)i * k]) > NSDAE_TOL_SYMMETRY * qmax)
                    return nsdae_error_set(err, NSDAE_INVALID_INPUT, "minnorm: Q is not symmetric at (%d,%d)", i, j);
        if (!spd(k, Q, Q_s))
            return nsdae_error_set(err, NSDAE_INVALID_INPUT, "minnorm: Q is not positive definite");
    }
    for (int j = 0; j < N; j++)   /* a non-finite z_ref stays non-finite: the objective builder refuses it */
        zref_s[j] = (spec && spec->z_ref) ? alpha * spec->z_ref[j] / dc[j] : 0.0;
    /* 1/2 |P(z - zref)|_Q^2 = 1/(2 alpha^2) |(z' - zref')_sel|^2_{D Q D}: Q' = beta D Q D with beta
     * putting the largest weight near 1, so that objective tolerances are relative. */
    double dmax = 0;
    for (int a = 0; a < k; a++)
        for (int b = 0; b < k; b++) {
            double qab = Q ? Q[a + (size_t)b * k] : (a == b);
            Q_s[a + (size_t)b * k] = dc[sel_s[a]] * qab * dc[sel_s[b]];
            if (a == b)
                dmax = fmax(dmax, fabs(Q_s[a + (size_t)a * k]));
        }
    double beta = dmax > 0 && isfinite(dmax) ? 1.0 / pow2_near(dmax) : 1.0;
    for (int a = 0; a < k * k; a++)
        Q_s[a] *= beta;
    *out = (nsdae_minnorm_spec){zref_s, sel_s, k, Q_s, spec ? spec->count_solutions : 0};
    *fscale = 1.0 / (beta * alpha * alpha);
    return NSDAE_OK;
}
