/* Elimination of the equality rows: the rest of the layer sees only complementarity pairs
 * (v_i(t), r_i(t)) over a reduced variable t. */
#include "internal.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

double lcp_red_v(const lcp_reduced *r, int i, const double *t)
{
    if (r->vunit)
        return t[i];
    return r->v0[i] + lcp_dot(r->k, r->V + i, r->m, t, 1);
}

double lcp_red_r(const lcp_reduced *r, int i, const double *t)
{
    return r->r0[i] + lcp_dot(r->k, r->R + i, r->m, t, 1);
}

void lcp_red_z(const lcp_reduced *r, const double *t, double *z)
{
    for (int j = 0; j < r->size; j++)
        z[j] = r->z0[j] + lcp_dot(r->k, r->Z + j, r->size, t, 1);
}

/* Fills R, r0, Z, z0 from x = X t + x0 (X is nx x k). */
static void finish(const lcp_std *s, const double *X, const double *x0, lcp_reduced *r)
{
    int n = s->n, m = s->m, nx = s->nx, k = r->k;
    for (int i = 0; i < m; i++) {
        const double *arow = s->A + n + i;   /* stride nx */
        double c = s->c[n + i];
        for (int l = 0; l < nx; l++)
            c += arow[(size_t)l * nx] * x0[l];
        r->r0[i] = c;
        for (int j = 0; j < k; j++) {
            double v = 0;
            for (int l = 0; l < nx; l++)
                v += arow[(size_t)l * nx] * X[l + (size_t)j * nx];
            r->R[i + (size_t)j * m] = v;
        }
        if (!r->vunit) {
            r->v0[i] = x0[n + i];
            for (int j = 0; j < k; j++)
                r->V[i + (size_t)j * m] = X[n + i + (size_t)j * nx];
        }
    }
    for (int a = 0; a < s->size; a++) {
        int xi = s->zidx[a];
        r->z0[a] = s->zoff[a] + (xi >= 0 ? s->zsgn[a] * x0[xi] : 0.0);
        for (int j = 0; j < k; j++)
            r->Z[a + (size_t)j * s->size] = xi >= 0 ? s->zsgn[a] * X[xi + (size_t)j * nx] : 0.0;
    }
    double sc = 0;
    for (size_t i = 0; i < (size_t)m * k; i++)
        sc = fmax(sc, fabs(r->R[i]));
    for (int i = 0; i < m; i++)
        sc = fmax(sc, fabs(r->r0[i]));
    r->scale = 1.0 + sc;
}

static int alloc_reduced(lcp_reduced *r, int size, int m, int k, lcp_arena *ar)
{
    r->size = size;
    r->m = m;
    r->k = k;
    r->V = lcp_arena_doubles(ar, (size_t)m * k + 1);
    r->v0 = lcp_arena_doubles(ar, (size_t)m + 1);
    r->R = lcp_arena_doubles(ar, (size_t)m * k + 1);
    r->r0 = lcp_arena_doubles(ar, (size_t)m + 1);
    r->Z = lcp_arena_doubles(ar, (size_t)size * k + 1);
    r->z0 = lcp_arena_doubles(ar, (size_t)size + 1);
    return ar->failed ? -1 : 0;
}

nsdae_status lcp_reduce(const lcp_std *s, lcp_arena *ar, lcp_reduced *r, nsdae_error *err)
{
    int n = s->n, m = s->m, nx = s->nx;
    memset(r, 0, sizeof *r);
    double *X = lcp_arena_doubles(ar, (size_t)nx * nx + 1), *x0 = lcp_arena_doubles(ar, (size_t)nx + 1);
    if (!X || !x0)
        return nsdae_error_set(err, NSDAE_NOMEM, "mlcp: out of memory reducing a problem of size %d", s->size);

    if (n == 0) {
        if (alloc_reduced(r, s->size, m, m, ar))
            return nsdae_error_set(err, NSDAE_NOMEM, "mlcp: out of memory");
        r->vunit = 1;
        for (int j = 0; j < m; j++)
            X[j + (size_t)j * nx] = 1;
        finish(s, X, x0, r);
        return NSDAE_OK;
    }

    /* Invertible equality block: u = -A_uu^{-1} (A_uv v + c_u), t = v. */
    double *Auu = lcp_arena_doubles(ar, (size_t)n * n), *work = lcp_arena_doubles(ar, (size_t)n * n);
    double *rhs = lcp_arena_doubles(ar, (size_t)n), *sol = lcp_arena_doubles(ar, (size_t)n);
    int *ipiv = lcp_arena_alloc(ar, sizeof(int) * (size_t)n);
    if (ar->failed)
        return nsdae_error_set(err, NSDAE_NOMEM, "mlcp: out of memory");
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            Auu[i + (size_t)j * n] = s->A[i + (size_t)j * nx];
    for (int i = 0; i < n; i++)
        rhs[i] = -s->c[i];
    if (lcp_solve_square(n, Auu, rhs, sol, work, ipiv) == 0) {
        if (alloc_reduced(r, s->size, m, m, ar))
            return nsdae_error_set(err, NSDAE_NOMEM, "mlcp: out of memory");
        r->vunit = 1;
        memcpy(x0, sol, sizeof(double) * (size_t)n);
        for (int j = 0; j < m; j++) {
            for (int i = 0; i < n; i++)
                X[i + (size_t)j * nx] = -s->A[i + (size_t)(n + j) * nx];
            X[n + j + (size_t)j * nx] = 1;
        }
        /* the LU factors of A_uu are still in work */
        if (m > 0 && LAPACKE_dgetrs(LAPACK_COL_MAJOR, 'N', n, m, work, n, ipiv, X, nx) != 0)
            return nsdae_error_set(err, NSDAE_NUMERICAL, "mlcp: back substitution in the equality block failed");
        finish(s, X, x0, r);
        return NSDAE_OK;
    }

    /* General case: x = x_p + N t over the null space of the equality rows. */
    double *Aeq = lcp_arena_doubles(ar, (size_t)n * nx), *N = lcp_arena_doubles(ar, (size_t)nx * nx);
    if (ar->failed)
        return nsdae_error_set(err, NSDAE_NOMEM, "mlcp: out of memory");
    for (int j = 0; j < nx; j++)
        for (int i = 0; i < n; i++)
            Aeq[i + (size_t)j * n] = s->A[i + (size_t)j * nx];
    double resid = 0, bnorm = 0;
    for (int i = 0; i < n; i++)
        bnorm = fmax(bnorm, fabs(rhs[i]));
    int rank = lcp_lstsq(n, nx, Aeq, rhs, x0, &resid, N);
    if (rank < 0)
        return nsdae_error_set(err, NSDAE_NUMERICAL, "mlcp: SVD of the %d equality rows failed", n);
    double anorm = 0;
    for (size_t i = 0; i < (size_t)n * nx; i++)
        anorm = fmax(anorm, fabs(Aeq[i]));
    if (resid > NSDAE_TOL_RESIDUAL * (1 + bnorm + anorm))
        return nsdae_error_set(err, NSDAE_NO_SOLUTION,
                               "mlcp: the equality rows are inconsistent (least-squares residual %.3g)", resid);
    int k = nx - rank;
    if (alloc_reduced(r, s->size, m, k, ar))
        return nsdae_error_set(err, NSDAE_NOMEM, "mlcp: out of memory");
    r->vunit = 0;
    finish(s, N, x0, r);
    return NSDAE_OK;
}
