/* Banded Cholesky of the mass matrix (or CHOLMOD when the band is wide and the nonzeros few:
 * mass_sparse.c). The band is read off M's compressed lower triangle (mass_columns.h): the
 * translation's structural pattern, or the nonzeros of an evaluated dense M, re-read at each
 * evaluation, so a band that changes with q is still right. LAPACK's dpbtrf factors the band
 * (with kd = n - 1 it is dpotrf's work); the solves are written out, because for the few degrees
 * of freedom of most contact problems the BLAS call overhead cost more than the arithmetic. */
#include "stepping/mass_factor.h"

#include "stepping/mass_sparse.h"

#include <lapacke.h>
#include <stdlib.h>
#include <string.h>

int mass_factor_bandwidth(int n, const int *colptr, const int *rows)
{
    int kd = 0;
    for (int j = 0; j < n; j++) /* a column's last row is its farthest from the diagonal */
        if (colptr[j + 1] > colptr[j] && rows[colptr[j + 1] - 1] - j > kd) kd = rows[colptr[j + 1] - 1] - j;
    return kd;
}

nsdae_status mass_factor_compute(mass_factor *f, int n, const int *colptr, const int *rows, const double *val,
                                 nsdae_error *err)
{
    const size_t nnz = (size_t)colptr[n];
    const int kd = mass_factor_bandwidth(n, colptr, rows);
    f->sparse_used = mass_sparse_wanted(n, kd, nnz);
    if (f->sparse_used) {
        f->n = n;
        f->kd = kd;
        return mass_sparse_factor(&f->sparse, n, colptr, rows, val, err);
    }
    const size_t need = ((size_t)kd + 1) * (size_t)n;
    if (need > f->cap) {
        double *b = realloc(f->band, need * sizeof *b);
        if (!b) return nsdae_error_set(err, NSDAE_NOMEM, "moreau: out of memory (mass matrix band)");
        f->band = b;
        f->cap = need;
    }
    f->n = n;
    f->kd = kd;
    const int ld = kd + 1;
    memset(f->band, 0, need * sizeof *f->band); /* the band's entries outside the pattern */
    for (int j = 0; j < n; j++)
        for (int e = colptr[j]; e < colptr[j + 1]; e++) f->band[(rows[e] - j) + (size_t)j * ld] = val[e];
    if (kd == 0) {
        for (int j = 0; j < n; j++)
            if (!(f->band[j] > 0.0))
                return nsdae_error_set(err, NSDAE_NUMERICAL,
                                       "the mass matrix is not positive definite (diagonal entry %d is %g)", j + 1,
                                       f->band[j]);
        return NSDAE_OK;
    }
    lapack_int info = LAPACKE_dpbtrf_work(LAPACK_COL_MAJOR, 'L', n, kd, f->band, ld);
    if (info != 0)
        return nsdae_error_set(err, NSDAE_NUMERICAL, "the mass matrix is not positive definite (LAPACK dpbtrf: %d)",
                               (int)info);
    return NSDAE_OK;
}

void mass_factor_solve(const mass_factor *f, double *x)
{
    const int n = f->n, kd = f->kd, ld = kd + 1;
    const double *L = f->band;
    if (f->sparse_used) {
        mass_sparse_solve(f->sparse, x);
        return;
    }
    if (kd == 0) {
        for (int i = 0; i < n; i++) x[i] /= L[i];
        return;
    }
    for (int i = 0; i < n; i++) { /* L y = b, L(i, j) = band[i - j + j ld] */
        double sum = x[i];
        for (int j = i - kd > 0 ? i - kd : 0; j < i; j++) sum -= L[(i - j) + (size_t)j * ld] * x[j];
        x[i] = sum / L[(size_t)i * ld];
    }
    for (int i = n - 1; i >= 0; i--) { /* L^T x = y */
        double sum = x[i];
        for (int j = i + 1; j <= i + kd && j < n; j++) sum -= L[(j - i) + (size_t)i * ld] * x[j];
        x[i] = sum / L[(size_t)i * ld];
    }
}

void mass_factor_free(mass_factor *f)
{
    free(f->band);
    f->band = NULL;
    f->cap = 0;
    mass_sparse_free(f->sparse);
    f->sparse = NULL;
    f->sparse_used = 0;
}
