/* The compressed storage of an MLCS: a translated model of n unknowns has O(n) entries, and its
 * dense ny x ny matrices (3.2 GB each at n = 20 000) are what made `nsdae check` quadratic in the
 * model size (issue 14, item 5). The translator fills the entries; the dense matrices are built
 * only for the consumers that read them (nsdae_mlcs_dense). */
#include "system/mlcs_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static nsdae_mlcs_csc *matrix_of(nsdae_mlcs_phase *ph, char which)
{
    switch (which) {
    case 'E': return &ph->sE;
    case 'A': return &ph->sA;
    case 'B': return &ph->sB;
    case 'C': return &ph->sC;
    case 'D': return &ph->sD;
    default: return NULL;
    }
}

/* rows x cols of matrix `which` */
static void shape(const nsdae_mlcs *s, char which, int *rows, int *cols)
{
    *rows = which == 'C' || which == 'D' ? s->nl : s->ny;
    *cols = which == 'B' || which == 'D' ? s->nl : s->ny;
}

nsdae_status nsdae_mlcs_set_entries(nsdae_mlcs *s, int phase, char which, const int *row, const int *col,
                                    const double *val, int n, nsdae_error *err)
{
    nsdae_mlcs_csc *m = phase >= 0 && phase < s->nphases ? matrix_of(&s->phases[phase], which) : NULL;
    if (!m || n < 0) return nsdae_error_set(err, NSDAE_INVALID_INPUT, "mlcs: no matrix %c in phase %d", which, phase);
    int rows, cols, nnz = 0;
    shape(s, which, &rows, &cols);
    for (int k = 0; k < n; k++) {
        if (row[k] < 0 || row[k] >= rows || col[k] < 0 || col[k] >= cols)
            return nsdae_error_set(err, NSDAE_INVALID_INPUT, "mlcs: entry (%d, %d) outside %c (%d x %d)", row[k],
                                   col[k], which, rows, cols);
        nnz += val[k] != 0.0;
    }
    nsdae_mlcs_csc c = {calloc((size_t)cols + 2, sizeof(int)), malloc(((size_t)nnz + 1) * sizeof(int)),
                        malloc(((size_t)nnz + 1) * sizeof(double))};
    int *byrow = calloc((size_t)rows + 2, sizeof(int)), *order = malloc(((size_t)nnz + 1) * sizeof(int));
    if (!c.colp || !c.rowi || !c.val || !byrow || !order) {
        free(c.colp); free(c.rowi); free(c.val); free(byrow); free(order);
        return nsdae_error_set(err, NSDAE_NOMEM, "mlcs: out of memory (%d entries)", nnz);
    }
    /* two counting sorts: by row, then stably by column, so rows increase within a column */
    for (int k = 0; k < n; k++)
        if (val[k] != 0.0) byrow[row[k] + 1]++;
    for (int i = 0; i < rows; i++) byrow[i + 1] += byrow[i];
    for (int k = 0; k < n; k++)
        if (val[k] != 0.0) order[byrow[row[k]]++] = k;
    for (int t = 0; t < nnz; t++) c.colp[col[order[t]] + 1]++;
    for (int j = 0; j < cols; j++) c.colp[j + 1] += c.colp[j];
    for (int t = 0; t < nnz; t++) { /* colp[j] is the next free slot of column j while filling */
        int k = order[t], at = c.colp[col[k]]++;
        c.rowi[at] = row[k];
        c.val[at] = val[k];
    }
    for (int j = cols; j > 0; j--) c.colp[j] = c.colp[j - 1];
    c.colp[0] = 0;
    free(byrow);
    free(order);
    free(m->colp); free(m->rowi); free(m->val);
    *m = c;
    return NSDAE_OK;
}

int nsdae_mlcs_has_dense(const nsdae_mlcs *s)
{
    for (int k = 0; k < s->nphases; k++)
        if (!s->phases[k].E || !s->phases[k].A || !s->phases[k].B || !s->phases[k].C || !s->phases[k].D) return 0;
    return 1;
}

/* The dense rows x cols matrix of m (zero when m has no entries). */
static double *densify(const nsdae_mlcs_csc *m, int rows, int cols)
{
    double *a = calloc((size_t)rows * (size_t)cols + 1, sizeof *a);
    for (int j = 0; a && m->colp && j < cols; j++)
        for (int t = m->colp[j]; t < m->colp[j + 1]; t++) a[m->rowi[t] + (size_t)j * rows] = m->val[t];
    return a;
}

/* Matrix `which` of ph made dense from ph's compressed one into its slot (kept when there). */
static nsdae_status densify_into(const nsdae_mlcs *s, nsdae_mlcs_phase *ph, char which, nsdae_error *err)
{
    double **slot = which == 'E' ? &ph->E : which == 'A' ? &ph->A : which == 'B' ? &ph->B : which == 'C' ? &ph->C
                                                                                                          : &ph->D;
    if (*slot) return NSDAE_OK;
    int rows, cols;
    shape(s, which, &rows, &cols);
    if (!(*slot = densify(matrix_of(ph, which), rows, cols)))
        return nsdae_error_set(err, NSDAE_NOMEM,
                               "mlcs: out of memory for the dense %d x %d matrix %c of a system of %d unknowns and "
                               "%d multipliers (%.3g GB)",
                               rows, cols, which, s->ny, s->nl, 8e-9 * (double)rows * (double)cols);
    return NSDAE_OK;
}

nsdae_status nsdae_mlcs_dense(nsdae_mlcs *s, nsdae_error *err)
{
    nsdae_status st = NSDAE_OK;
    for (int k = 0; k < s->nphases && st == NSDAE_OK; k++)
        for (const char *w = "EABCD"; *w && st == NSDAE_OK; w++) st = densify_into(s, &s->phases[k], *w, err);
    return st;
}

void nsdae_mlcs_dense_phases_free(nsdae_mlcs_phase *ph, int nphases)
{
    for (int k = 0; ph && k < nphases; k++) {
        free(ph[k].E); free(ph[k].A); free(ph[k].B); free(ph[k].C); free(ph[k].D);
    }
    free(ph);
}

nsdae_status nsdae_mlcs_dense_phases(const nsdae_mlcs *s, nsdae_mlcs_phase **out, nsdae_error *err)
{
    *out = NULL;
    nsdae_mlcs_phase *ph = calloc((size_t)s->nphases + 1, sizeof *ph);
    if (!ph) return nsdae_error_set(err, NSDAE_NOMEM, "mlcs: out of memory (%d phases)", s->nphases);
    nsdae_status st = NSDAE_OK;
    for (int k = 0; k < s->nphases && st == NSDAE_OK; k++) {
        ph[k] = s->phases[k]; /* b, c and the compressed matrices borrowed */
        ph[k].E = ph[k].A = ph[k].B = ph[k].C = ph[k].D = NULL;
        for (const char *w = "EABCD"; *w && st == NSDAE_OK; w++) st = densify_into(s, &ph[k], *w, err);
    }
    if (st != NSDAE_OK) {
        nsdae_mlcs_dense_phases_free(ph, s->nphases);
        return st;
    }
    *out = ph;
    return NSDAE_OK;
}

nsdae_status nsdae_mlcs_need_dense(const nsdae_mlcs *s, const char *who, nsdae_error *err)
{
    if (nsdae_mlcs_has_dense(s)) return NSDAE_OK;
    return nsdae_error_set(err, NSDAE_INVALID_INPUT,
                           "%s: the system (%d unknowns) is stored compressed; its dense matrices are "
                           "made by nsdae_mlcs_dense",
                           who, s->ny);
}

int nsdae_mlcs_sparse_finite(const nsdae_mlcs *s, int *phase, const char **bad)
{
    static const char *names[] = {"E", "A", "B", "C", "D"};
    for (int k = 0; k < s->nphases; k++) {
        const nsdae_mlcs_phase *ph = &s->phases[k];
        const nsdae_mlcs_csc *m[] = {&ph->sE, &ph->sA, &ph->sB, &ph->sC, &ph->sD};
        const int cols[] = {s->ny, s->ny, s->nl, s->ny, s->nl};
        for (int w = 0; w < 5; w++) {
            if (!m[w]->colp) continue;
            for (int t = 0; t < m[w]->colp[cols[w]]; t++)
                if (!isfinite(m[w]->val[t])) {
                    *phase = k;
                    *bad = names[w];
                    return 0;
                }
        }
    }
    return 1;
}

static int column_empty(const nsdae_mlcs_csc *m, int j) { return !m->colp || m->colp[j] == m->colp[j + 1]; }

int nsdae_mlcs_sparse_differential(const nsdae_mlcs *s, int *flags)
{
    int count = 0;
    for (int j = 0; j < s->ny; j++) {
        flags[j] = 0;
        for (int k = 0; k < s->nphases && !flags[j]; k++) flags[j] = !column_empty(&s->phases[k].sE, j);
        count += flags[j];
    }
    return count;
}

/* marks the rows that hold an entry of m (cols columns) */
static void mark_rows(const nsdae_mlcs_csc *m, int cols, unsigned char *used)
{
    if (!m->colp) return;
    for (int t = 0; t < m->colp[cols]; t++) used[m->rowi[t]] = 1;
}

int nsdae_mlcs_sparse_gap(const nsdae_mlcs *s, int phase, char *which, int *index)
{
    const nsdae_mlcs_phase *p = &s->phases[phase];
    for (int j = 0; j < s->ny; j++)
        if (column_empty(&p->sE, j) && column_empty(&p->sA, j) && (s->nl == 0 || column_empty(&p->sC, j))) {
            *which = 'y';
            *index = j;
            return 1;
        }
    unsigned char *used = calloc((size_t)s->ny, 1);
    if (!used) return 0;
    mark_rows(&p->sE, s->ny, used);
    mark_rows(&p->sA, s->ny, used);
    mark_rows(&p->sB, s->nl, used);
    int found = 0;
    for (int i = 0; i < s->ny && !found; i++)
        if (!used[i]) {
            *which = 'r';
            *index = i;
            found = 1;
        }
    free(used);
    return found;
}
