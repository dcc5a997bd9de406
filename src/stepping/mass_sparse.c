/* Sparse Cholesky of the mass matrix with SuiteSparse CHOLMOD. Used when M's band is wide but
 * its nonzeros are few: a ring of bodies, or coordinates pairing bodies far apart in the
 * numbering, give a bandwidth near n, so the band Cholesky would cost O(n^3) and O(n^2) per
 * solve, while a fill-reducing ordering (AMD, chosen by cholmod_analyze) keeps the factor near
 * M's own nonzeros. The analysis is kept while the pattern stays: a constant M is analysed and
 * factored once per run, a configuration-dependent one refactored numerically at each evaluation. */
#include "stepping/mass_sparse.h"

#include <cholmod.h>
#include <stdlib.h>
#include <string.h>

struct mass_sparse {
    cholmod_common c;
    cholmod_sparse *A;  /* lower triangle of M, compressed columns (stype -1) */
    cholmod_factor *L;
    cholmod_dense *X, *Y, *E; /* cholmod_solve2's result and workspaces, reused from call to call */
    cholmod_dense *zero;      /* n zeros: one solve right after each analysis allocates X, Y, E there */
    int n;
};

int mass_sparse_wanted(int n, int kd, size_t nnz_lower)
{
    return kd >= 16 && ((size_t)kd + 1) * (size_t)n > 4 * nnz_lower;
}

/* Whether A already has M's lower-triangle pattern (then only the values change). */
static int same_pattern(const cholmod_sparse *A, int n, const int *colptr, const int *rows)
{
    if (!A || (int)A->ncol != n) return 0;
    const size_t nnz = (size_t)colptr[n];
    return memcmp(A->p, colptr, ((size_t)n + 1) * sizeof *colptr) == 0 &&
           memcmp(A->i, rows, nnz * sizeof *rows) == 0;
}

static void fill(cholmod_sparse *A, int n, const int *colptr, const int *rows, const double *val)
{
    const size_t nnz = (size_t)colptr[n];
    memcpy(A->p, colptr, ((size_t)n + 1) * sizeof *colptr);
    memcpy(A->i, rows, nnz * sizeof *rows);
    memcpy(A->x, val, nnz * sizeof *val);
}

/* CHOLMOD's simplicial factorization is LDL^T, which an indefinite M survives without a word: M
 * is positive definite exactly when every pivot of D is (Sylvester's law of inertia). The
 * supernodal LL^T reports a failed pivot itself (c.status, L->minor). Returns the first pivot
 * that is not positive, or -1. */
static int first_nonpositive_pivot(const cholmod_factor *L)
{
    if (L->is_super || L->is_ll || L->xtype != CHOLMOD_REAL) return -1;
    const int *p = L->p;
    const double *x = L->x;
    for (size_t j = 0; j < L->n; j++) /* D(j, j) is the first entry of column j */
        if (!(x[p[j]] > 0.0)) return (int)j;
    return -1;
}

static void drop_structure(mass_sparse *s)
{
    cholmod_free_factor(&s->L, &s->c);
    cholmod_free_sparse(&s->A, &s->c);
    cholmod_free_dense(&s->X, &s->c);
    cholmod_free_dense(&s->Y, &s->c);
    cholmod_free_dense(&s->E, &s->c);
    cholmod_free_dense(&s->zero, &s->c);
}

nsdae_status mass_sparse_factor(mass_sparse **sp, int n, const int *colptr, const int *rows, const double *val,
                                nsdae_error *err)
{
    const size_t nnz_lower = (size_t)colptr[n];
    mass_sparse *s = *sp;
    if (!s) {
        s = calloc(1, sizeof *s);
        if (!s || !cholmod_start(&s->c)) {
            free(s);
            return nsdae_error_set(err, NSDAE_NOMEM, "moreau: out of memory (sparse mass matrix)");
        }
        s->c.print = 0; /* a library never prints: CHOLMOD reports through c.status, read below */
        *sp = s;
    }
    if (!same_pattern(s->A, n, colptr, rows)) {
        drop_structure(s);
        s->A = cholmod_allocate_sparse((size_t)n, (size_t)n, nnz_lower, 1, 1, -1, CHOLMOD_REAL, &s->c);
        if (!s->A) return nsdae_error_set(err, NSDAE_NOMEM, "moreau: out of memory (sparse mass matrix)");
        fill(s->A, n, colptr, rows, val);
        s->L = cholmod_analyze(s->A, &s->c);
        if (!s->L) return nsdae_error_set(err, NSDAE_NOMEM, "moreau: CHOLMOD could not analyse the mass matrix");
    } else {
        memcpy(s->A->x, val, nnz_lower * sizeof *val); /* the same pattern: only the values */
    }
    s->n = n;
    int ok = cholmod_factorize(s->A, s->L, &s->c);
    int bad = first_nonpositive_pivot(s->L);
    if (s->c.status == CHOLMOD_NOT_POSDEF || (ok && s->L->minor < (size_t)n) || bad >= 0)
        return nsdae_error_set(err, NSDAE_NUMERICAL,
                               "the mass matrix is not positive definite (CHOLMOD: pivot %d of the ordered matrix)",
                               (bad >= 0 ? bad : (int)s->L->minor) + 1);
    if (!ok || s->c.status < 0)
        return nsdae_error_set(err, NSDAE_NOMEM, "moreau: CHOLMOD could not factor the mass matrix (status %d)",
                               s->c.status);
    /* the first solve allocates cholmod_solve2's X, Y, E; done here, where a failure can be
     * reported, so that mass_sparse_solve cannot fail later */
    if (!s->zero) s->zero = cholmod_zeros((size_t)n, 1, CHOLMOD_REAL, &s->c);
    if (!s->zero || !cholmod_solve2(CHOLMOD_A, s->L, s->zero, NULL, &s->X, NULL, &s->Y, &s->E, &s->c))
        return nsdae_error_set(err, NSDAE_NOMEM, "moreau: out of memory (sparse mass matrix solve)");
    return NSDAE_OK;
}

void mass_sparse_solve(mass_sparse *s, double *x)
{
    cholmod_dense b;
    memset(&b, 0, sizeof b);
    b.nrow = b.d = b.nzmax = (size_t)s->n;
    b.ncol = 1;
    b.x = x;
    b.xtype = CHOLMOD_REAL;
    b.dtype = CHOLMOD_DOUBLE;
    /* X, Y and E have their sizes since mass_sparse_factor's warm-up solve: nothing is allocated */
    cholmod_solve2(CHOLMOD_A, s->L, &b, NULL, &s->X, NULL, &s->Y, &s->E, &s->c);
    memcpy(x, s->X->x, (size_t)s->n * sizeof *x);
}

void mass_sparse_free(mass_sparse *s)
{
    if (!s) return;
    drop_structure(s);
    cholmod_finish(&s->c);
    free(s);
}
