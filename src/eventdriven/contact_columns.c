/* The contact mode's Newton matrix dF/dz + cj dF/dz' in compressed columns (contact_internal.h),
 * for IDA with KLU: one pattern for every mode, so that KLU analyses it once. With
 * z = (q, v, lambda, mu) and the residual of contact_problem.c,
 *   rows of q:      cj I (q'),  -I (v),  -G^T (mu)
 *   rows of v:      cj M (v'),  -dF/dq (q),  -dF/dv (v),  -G^T (lambda)
 *   rows of lambda: G (q) when the contact is closed (g_c = 0), else 1 on the diagonal (lambda_c = 0)
 *   rows of mu:     G (v) when closed ((G v)_c = 0), else 1 on the diagonal (mu_c = 0).
 * Left out: the curvature terms d(G^T lambda)/dq, d(G^T mu)/dq, d(G v)/dq and d(M v')/dq, which
 * vanish for affine gaps and a constant M; for curved gaps IDA's Newton iteration then converges
 * linearly at a rate of about h^2 |lambda g''| / |M| (the rope of the cup-and-ball: 1e-5 at IDA's
 * steps), which its convergence test absorbs. Each block is read from the system's patterns
 * (lagrangian.h; contact_view.c gives full ones to a system without them), so a column of 1000
 * beads has 4000 unknowns and about 16 000 entries, where the dense matrix was 128 MB. */
#include "eventdriven/contact_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct entry {
    int col, row;
    int *slot;
} entry;

static int by_position(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    if (x->col != y->col) return (x->col > y->col) - (x->col < y->col);
    return (x->row > y->row) - (x->row < y->row);
}

static void put(entry *e, long *k, int row, int col, int *slot)
{
    e[*k] = (entry){col, row, slot};
    (*k)++;
}

/* Every contribution's position, then sorted and merged: one slot per distinct position. */
static long list_entries(contact_columns *cc, const nsdae_lagrangian *s, entry *e)
{
    const int nd = cc->nd, nc = cc->nc;
    long k = 0;
    for (int j = 0; j < nd; j++) {
        put(e, &k, j, j, &cc->sq[j]);
        put(e, &k, j, nd + j, &cc->svq[j]);
    }
    for (int j = 0; j < nd; j++)
        for (int t = s->mass_colptr[j]; t < s->mass_colptr[j + 1]; t++) {
            const int i = s->mass_rows[t];
            put(e, &k, nd + i, nd + j, &cc->sM1[t]);
            if (i != j) put(e, &k, nd + j, nd + i, &cc->sM2[t]);
            else cc->sM2[t] = -1;
        }
    for (int col = 0; col < 2 * nd; col++)   /* column col of [dF/dq | dF/dv] is unknown col */
        for (int t = s->force_colptr[col]; t < s->force_colptr[col + 1]; t++)
            put(e, &k, nd + s->force_rows[t], col, &cc->sF[t]);
    for (int c = 0; c < nc; c++) {
        for (int t = s->gap_rowptr[c]; t < s->gap_rowptr[c + 1]; t++) {
            const int j = s->gap_cols[t];
            put(e, &k, 2 * nd + c, j, &cc->sGq[t]);
            put(e, &k, 2 * nd + nc + c, nd + j, &cc->sGv[t]);
            put(e, &k, nd + j, 2 * nd + c, &cc->sGl[t]);
            put(e, &k, j, 2 * nd + nc + c, &cc->sGm[t]);
        }
        put(e, &k, 2 * nd + c, 2 * nd + c, &cc->dl[c]);
        put(e, &k, 2 * nd + nc + c, 2 * nd + nc + c, &cc->dm[c]);
    }
    return k;
}

int contact_columns_create(contact_columns *cc, const nsdae_lagrangian *s)
{
    memset(cc, 0, sizeof *cc);
    const int nd = s->ndof, nc = s->ncontacts;
    cc->nd = nd, cc->nc = nc, cc->n = 2 * nd + 2 * nc;
    const size_t nm = (size_t)s->mass_colptr[nd], nf = (size_t)s->force_colptr[2 * nd],
                 ng = nc ? (size_t)s->gap_rowptr[nc] : 0;
    const size_t total = 2 * (size_t)nd + 2 * nm + nf + 4 * ng + 2 * (size_t)nc;
    cc->sq = malloc(((size_t)nd + 1) * sizeof(int)), cc->svq = malloc(((size_t)nd + 1) * sizeof(int));
    cc->sM1 = malloc((nm + 1) * sizeof(int)), cc->sM2 = malloc((nm + 1) * sizeof(int));
    cc->sF = malloc((nf + 1) * sizeof(int)), cc->fv = malloc((nf + 1) * sizeof(double));
    cc->sGq = malloc((ng + 1) * sizeof(int)), cc->sGv = malloc((ng + 1) * sizeof(int));
    cc->sGl = malloc((ng + 1) * sizeof(int)), cc->sGm = malloc((ng + 1) * sizeof(int));
    cc->dl = malloc(((size_t)nc + 1) * sizeof(int)), cc->dm = malloc(((size_t)nc + 1) * sizeof(int));
    cc->colp = malloc(((size_t)cc->n + 1) * sizeof(int)), cc->rowi = malloc((total + 1) * sizeof(int));
    entry *e = malloc((total + 1) * sizeof *e);
    int ok = cc->sq && cc->svq && cc->sM1 && cc->sM2 && cc->sF && cc->fv && cc->sGq && cc->sGv && cc->sGl && cc->sGm &&
             cc->dl && cc->dm && cc->colp && cc->rowi && e;
    if (ok) {
        const long k = list_entries(cc, s, e);
        qsort(e, (size_t)k, sizeof *e, by_position);
        long nnz = 0;
        int col = 0;
        cc->colp[0] = 0;
        for (long t = 0; t < k; t++) {
            if (t == 0 || e[t].col != e[t - 1].col || e[t].row != e[t - 1].row) {
                while (col < e[t].col) cc->colp[++col] = (int)nnz;
                cc->rowi[nnz++] = e[t].row;
            }
            *e[t].slot = (int)nnz - 1;
        }
        while (col < cc->n) cc->colp[++col] = (int)nnz;
        cc->nnz = nnz;
    }
    free(e);
    return ok ? 0 : -1;
}

void contact_columns_free(contact_columns *cc)
{
    free(cc->sq), free(cc->svq), free(cc->sM1), free(cc->sM2), free(cc->sF), free(cc->fv);
    free(cc->sGq), free(cc->sGv), free(cc->sGl), free(cc->sGm), free(cc->dl), free(cc->dm);
    free(cc->colp), free(cc->rowi);
    memset(cc, 0, sizeof *cc);
}

void contact_columns_jacobian(const contact_columns *cc, const nsdae_lagrangian *s, const mass_columns *M,
                              const contact_rows *G, const char *closed, double cj, double *val)
{
    const int nd = cc->nd, nc = cc->nc;
    memset(val, 0, (size_t)cc->nnz * sizeof *val);
    for (int j = 0; j < nd; j++) {
        val[cc->sq[j]] += cj;
        val[cc->svq[j]] -= 1.0;
    }
    for (int t = 0; t < s->mass_colptr[nd]; t++) {
        val[cc->sM1[t]] += cj * M->val[t];
        if (cc->sM2[t] >= 0) val[cc->sM2[t]] += cj * M->val[t];
    }
    for (int t = 0; t < s->force_colptr[2 * nd]; t++) val[cc->sF[t]] -= cc->fv[t];
    for (int c = 0; c < nc; c++) {
        for (int t = G->rowptr[c]; t < G->rowptr[c + 1]; t++) {
            val[cc->sGl[t]] -= G->val[t];
            val[cc->sGm[t]] -= G->val[t];
            if (closed[c]) {
                val[cc->sGq[t]] += G->val[t];
                val[cc->sGv[t]] += G->val[t];
            }
        }
        if (!closed[c]) {
            val[cc->dl[c]] += 1.0;
            val[cc->dm[c]] += 1.0;
        }
    }
}
