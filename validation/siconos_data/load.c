#include "load.h"

#include <siconos/numerics/LinearComplementarityProblem.h>
#include <siconos/numerics/MixedLinearComplementarityProblem.h>
#include <siconos/numerics/NumericsMatrix.h>
#include <siconos/numerics/sn_error_handling.h>

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the readers end in numerics_error (abort) on malformed files: guarded */
static int read_lcp(LinearComplementarityProblem *lp, const char *path)
{
    if (setjmp(*sn_get_jmp_buf())) {
        sn_release_jmp_buf();
        return -1;
    }
    linearComplementarity_newFromFilename(lp, path);   /* returns 1 on success */
    sn_release_jmp_buf();
    return lp->M ? 0 : -1;
}

static int read_mlcp(MixedLinearComplementarityProblem *mp, const char *path)
{
    if (setjmp(*sn_get_jmp_buf())) {
        sn_release_jmp_buf();
        return -1;
    }
    int info = mixedLinearComplementarity_newFromFilename(mp, path);
    sn_release_jmp_buf();
    return info;
}

static int alloc_dense(data_file *f, int N)
{
    f->M = calloc((size_t)N * N, sizeof(double));
    f->q = calloc((size_t)N, sizeof(double));
    f->kind = calloc((size_t)N, sizeof(nsdae_row_kind));
    return f->M && f->q && f->kind ? 0 : -1;
}

static int load_lcp(const char *path, data_file *f)
{
    LinearComplementarityProblem *lp = newLCP();
    if (!lp || read_lcp(lp, path) != 0) {
        snprintf(f->skip, sizeof f->skip, "linearComplementarity_newFromFilename failed");
        return -1;
    }
    f->siconos = lp;
    int N = lp->size;
    f->n = 0, f->m = N, f->eq_first = 1;
    if (alloc_dense(f, N))
        return -1;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++)
            f->M[i + (size_t)j * N] = NM_get_value(lp->M, i, j);
    for (int i = 0; i < N; i++) {
        f->q[i] = lp->q[i];
        f->kind[i] = NSDAE_ROW_COMPLEMENTARITY;
    }
    return 0;
}

/* The (M, q) form of Rectangular_mlcp.dat is NbLines = 3 rows by n + m = 2 unknowns (Siconos'
 * mlcp_enum reads rows 0..NbLines-m-1 as equalities, the last m as complementarity rows), but
 * Siconos' reader (and writer) hold only size1 = 2 entries of q: the third row's q is not in the
 * file, so that form is not a complete problem. The file's ABCD form is square and complete
 * (n = m = 1); it is the one solved, and the rectangular rows with stored data (rows 0 and 1,
 * both equalities) must hold at its answer too. */
static int rectangular_rows(const MixedLinearComplementarityProblem *mp, data_file *f)
{
    int rows = mp->M->size0, cols = mp->M->size1, neq = rows - mp->m;
    int known = neq < cols ? neq : cols;   /* equality rows whose q entry was read */
    f->rect_cols = cols;
    f->rect_rows = known > 0 ? known : 0;
    f->rect_M = calloc((size_t)rows * cols + 1, sizeof(double));
    f->rect_q = calloc((size_t)rows + 1, sizeof(double));
    if (!f->rect_M || !f->rect_q || cols != f->n + f->m)
        return -1;
    for (int j = 0; j < cols; j++)
        for (int i = 0; i < f->rect_rows; i++)
            f->rect_M[i + (size_t)j * f->rect_rows] = NM_get_value(mp->M, i, j);
    memcpy(f->rect_q, mp->q, sizeof(double) * (size_t)f->rect_rows);
    snprintf(f->note, sizeof f->note,
             "(M, q) form %d x %d with %d entries of q stored: incomplete; solved: the file's square ABCD form, "
             "checked also on the %d complete rows of the (M, q) form", rows, cols, cols, f->rect_rows);
    return 0;
}

static int load_mlcp(const char *path, data_file *f)
{
    MixedLinearComplementarityProblem *mp = mixedLinearComplementarity_new();
    if (!mp || read_mlcp(mp, path) != 0) {
        snprintf(f->skip, sizeof f->skip, "mixedLinearComplementarity_newFromFilename failed");
        return -1;
    }
    f->siconos = mp;
    int n = mp->n, m = mp->m, N = n + m;
    f->n = n, f->m = m, f->eq_first = 1;
    int rect = mp->isStorageType1 && (mp->M->size0 != N || mp->M->size1 != N);
    if (rect && !mp->isStorageType2) {
        snprintf(f->skip, sizeof f->skip, "rectangular M (%d x %d) and no ABCD form: not a square MLCP",
                 mp->M->size0, mp->M->size1);
        return 0;
    }
    if (alloc_dense(f, N))
        return -1;
    if (rect && rectangular_rows(mp, f))
        return -1;
    if (mp->isStorageType1 && !rect) {
        for (int j = 0; j < N; j++)
            for (int i = 0; i < N; i++)
                f->M[i + (size_t)j * N] = NM_get_value(mp->M, i, j);
        memcpy(f->q, mp->q, sizeof(double) * (size_t)N);
        for (int i = 0; i < N; i++)
            f->kind[i] = i < n ? NSDAE_ROW_EQUALITY : NSDAE_ROW_COMPLEMENTARITY;
        if (mp->blocksRows && mp->blocksIsComp) {   /* blocks may interleave the row kinds */
            int nc = 0;
            for (int b = 0; mp->blocksRows[b] < N; b++)
                for (int i = mp->blocksRows[b]; i < mp->blocksRows[b + 1]; i++) {
                    f->kind[i] = mp->blocksIsComp[b] ? NSDAE_ROW_COMPLEMENTARITY : NSDAE_ROW_EQUALITY;
                    nc += mp->blocksIsComp[b] != 0;
                }
            for (int i = 0; i < n; i++)
                f->eq_first &= f->kind[i] == NSDAE_ROW_EQUALITY;
            f->m = nc, f->n = N - nc;
        }
    } else {   /* ABCD storage: [A C; D B] (z = (u, v)), q = (a, b) */
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                f->M[i + (size_t)j * N] = mp->A[i + (size_t)j * n];
        for (int j = 0; j < m; j++)
            for (int i = 0; i < n; i++)
                f->M[i + (size_t)(n + j) * N] = mp->C[i + (size_t)j * n];
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++)
                f->M[n + i + (size_t)j * N] = mp->D[i + (size_t)j * m];
        for (int j = 0; j < m; j++)
            for (int i = 0; i < m; i++)
                f->M[n + i + (size_t)(n + j) * N] = mp->B[i + (size_t)j * m];
        for (int i = 0; i < N; i++) {
            f->q[i] = i < n ? mp->a[i] : mp->b[i - n];
            f->kind[i] = i < n ? NSDAE_ROW_EQUALITY : NSDAE_ROW_COMPLEMENTARITY;
        }
    }
    return 0;
}

int data_file_load(const char *dir, const char *name, data_file *f)
{
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", name);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f->is_lcp = !strncmp(name, "lcp_", 4);
    int st = f->is_lcp ? load_lcp(path, f) : load_mlcp(path, f);
    f->p = (nsdae_mlcp){f->n + f->m, f->M, f->q, f->kind, NULL, NULL};
    return st;
}

void data_file_free(data_file *f)
{
    if (f->siconos) {
        if (f->is_lcp)
            freeLinearComplementarityProblem(f->siconos);
        else
            mixedLinearComplementarity_free(f->siconos);
    }
    free(f->M);
    free(f->q);
    free(f->kind);
    free(f->rect_M);
    free(f->rect_q);
}
