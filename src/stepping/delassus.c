/* W = G_a M^-1 G_a^T and M^-1 G_a^T P (delassus.h): what a contact LCP needs, never an inverse. */
#include "stepping/delassus.h"

#include <string.h>

/* A diagonal M: a bead touches two contacts, so W is tridiagonal and costs O(m), where the dense
 * product cost O(m^2 n). */
static void form_diagonal(const contact_rows *G, const double *d, const int *idx, const int *pos, int m, double *W)
{
    for (int a = 0; a < m; a++) {
        const int c = idx[a];
        for (int e = G->rowptr[c]; e < G->rowptr[c + 1]; e++) {
            const int j = G->cols[e];
            const double gj = G->val[e] / d[j];
            for (int k = G->colptr[j]; k < G->colptr[j + 1]; k++) {
                const int b = pos[G->crow[k]];
                if (b >= 0) W[a + (size_t)b * m] += gj * G->val[G->centry[k]];
            }
        }
    }
}

/* A banded (or CHOLMOD) M: X = M^-1 G_a^T column by column (O(n band) each), then W = G_a X. */
static void form_solved(const contact_rows *G, const mass_factor *f, const int *idx, int m, double *X, double *W)
{
    const int n = G->n;
    for (int a = 0; a < m; a++) {
        double *x = X + (size_t)a * n;
        memset(x, 0, (size_t)n * sizeof *x);
        for (int e = G->rowptr[idx[a]]; e < G->rowptr[idx[a] + 1]; e++) x[G->cols[e]] = G->val[e];
        mass_factor_solve(f, x);
    }
    for (int a = 0; a < m; a++)
        for (int b = 0; b < m; b++) {
            double sum = 0.0;
            for (int e = G->rowptr[idx[a]]; e < G->rowptr[idx[a] + 1]; e++)
                sum += G->val[e] * X[G->cols[e] + (size_t)b * n];
            W[a + (size_t)b * m] = sum;
        }
}

void delassus_form(const contact_rows *G, const mass_factor *f, const int *idx, const int *pos, int m, double *X,
                   double *W)
{
    memset(W, 0, (size_t)m * (size_t)m * sizeof *W);
    if (f->kd == 0 && !f->sparse_used) form_diagonal(G, f->band, idx, pos, m, W);
    else form_solved(G, f, idx, m, X, W);
}

void delassus_apply(const contact_rows *G, const mass_factor *f, const int *idx, int m, const double *X,
                    const double *P, double *v)
{
    for (int a = 0; a < m; a++) {
        const int c = idx[a];
        if (f->kd == 0 && !f->sparse_used) {
            for (int e = G->rowptr[c]; e < G->rowptr[c + 1]; e++)
                v[G->cols[e]] += G->val[e] / f->band[G->cols[e]] * P[a];
        } else {
            for (int j = 0; j < G->n; j++) v[j] += X[j + (size_t)a * G->n] * P[a];
        }
    }
}
