/* The MLCS mode's DAE over compressed columns (mlcs_internal.h): what mlcs_problem.c computes on
 * dense n x n arrays, here in O(nonzeros), for IDA with KLU. A 1000-node diode ladder (3000
 * unknowns) has about 10 000 nonzeros: its dense Newton matrix is 72 MB and each LU 9 Gflop.
 *
 * One pattern serves every phase and mode, so that KLU's analysis (and IDA's matrix) is made once:
 * the union of the phases' E, A, B, C, D entries and every multiplier's diagonal (the 1 of a row
 * whose multiplier is fixed: sides 'o', 'l', 'h'). Entries a mode does not use hold 0. */
#include "eventdriven/mlcs_internal.h"

#include <klu.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int fixed_side(char side)
{
    return side == 'o' || side == 'l' || side == 'h';
}

static int by_value(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Matrix `which` of a phase: its compressed form when the system has one, else the dense array's
 * nonzeros (the stepper's reader, sparse_step.c, decides the same way). */
static int read_matrix(csc *c, const nsdae_mlcs_csc *m, const double *a, int rows, int cols)
{
    return m->colp || !a ? csc_from_mlcs(c, m, rows, cols) : csc_from_dense(c, a, rows, cols);
}

static int read_phase(mlcs_phase_columns *p, const nsdae_mlcs_phase *d, int ny, int nl)
{
    if (read_matrix(&p->E, &d->sE, d->E, ny, ny) || read_matrix(&p->A, &d->sA, d->A, ny, ny) ||
        read_matrix(&p->B, &d->sB, d->B, ny, nl) || read_matrix(&p->C, &d->sC, d->C, nl, ny) ||
        read_matrix(&p->D, &d->sD, d->D, nl, nl))
        return -1;
    const csc *m[5] = {&p->E, &p->A, &p->B, &p->C, &p->D};
    int **slot[5] = {&p->slotE, &p->slotA, &p->slotB, &p->slotC, &p->slotD};
    for (int k = 0; k < 5; k++)
        if (!(*slot[k] = malloc(sizeof **slot[k] * ((size_t)m[k]->colp[m[k]->cols] + 1)))) return -1;
    return 0;
}

typedef struct column_list {
    int *mark, *rows, count;
} column_list;

static void add_row(column_list *l, int r, int col)
{
    if (l->mark[r] == col) return;
    l->mark[r] = col;
    l->rows[l->count++] = r;
}

/* Rows of column j of the union, and then each phase's entries' slots in it. */
static void collect_column(const mlcs_columns *mc, int j, column_list *l)
{
    const int ny = mc->ny;
    l->count = 0;
    for (int p = 0; p < mc->nphases; p++) {
        const mlcs_phase_columns *ph = &mc->ph[p];
        const csc *top = j < ny ? &ph->E : &ph->B, *low = j < ny ? &ph->C : &ph->D;
        const int c = j < ny ? j : j - ny;
        if (j < ny)
            for (int k = ph->A.colp[c]; k < ph->A.colp[c + 1]; k++) add_row(l, ph->A.rowi[k], j);
        for (int k = top->colp[c]; k < top->colp[c + 1]; k++) add_row(l, top->rowi[k], j);
        for (int k = low->colp[c]; k < low->colp[c + 1]; k++) add_row(l, ny + low->rowi[k], j);
    }
    if (j >= ny) add_row(l, j, j);
    qsort(l->rows, (size_t)l->count, sizeof *l->rows, by_value);
}

static void assign_slots(mlcs_columns *mc, int j, const int *pos)
{
    const int ny = mc->ny;
    for (int p = 0; p < mc->nphases; p++) {
        mlcs_phase_columns *ph = &mc->ph[p];
        if (j < ny) {
            for (int k = ph->E.colp[j]; k < ph->E.colp[j + 1]; k++) ph->slotE[k] = pos[ph->E.rowi[k]];
            for (int k = ph->A.colp[j]; k < ph->A.colp[j + 1]; k++) ph->slotA[k] = pos[ph->A.rowi[k]];
            for (int k = ph->C.colp[j]; k < ph->C.colp[j + 1]; k++) ph->slotC[k] = pos[ny + ph->C.rowi[k]];
        } else {
            const int c = j - ny;
            for (int k = ph->B.colp[c]; k < ph->B.colp[c + 1]; k++) ph->slotB[k] = pos[ph->B.rowi[k]];
            for (int k = ph->D.colp[c]; k < ph->D.colp[c + 1]; k++) ph->slotD[k] = pos[ny + ph->D.rowi[k]];
        }
    }
    if (j >= ny) mc->diag[j - ny] = pos[j];
}

static int build_pattern(mlcs_columns *mc)
{
    const int n = mc->n;
    long cap = 4L * n + 16;
    column_list l = {malloc(sizeof(int) * ((size_t)n + 1)), malloc(sizeof(int) * ((size_t)n + 1)), 0};
    int *pos = malloc(sizeof(int) * ((size_t)n + 1));
    mc->colp = malloc(sizeof(int) * ((size_t)n + 1));
    mc->rowi = malloc(sizeof(int) * (size_t)cap);
    mc->diag = malloc(sizeof(int) * ((size_t)mc->nl + 1));
    int bad = !l.mark || !l.rows || !pos || !mc->colp || !mc->rowi || !mc->diag;
    for (int i = 0; !bad && i < n; i++) l.mark[i] = -1;
    mc->nnz = 0;
    for (int j = 0; !bad && j < n; j++) {
        mc->colp[j] = (int)mc->nnz;
        collect_column(mc, j, &l);
        if (mc->nnz + l.count > cap) {
            cap = 2 * (mc->nnz + l.count);
            int *grown = realloc(mc->rowi, sizeof(int) * (size_t)cap);
            if (!(bad = !grown)) mc->rowi = grown;
        }
        for (int t = 0; !bad && t < l.count; t++) {
            mc->rowi[mc->nnz + t] = l.rows[t];
            pos[l.rows[t]] = (int)mc->nnz + t;
        }
        if (!bad) assign_slots(mc, j, pos);
        mc->nnz += l.count;
    }
    if (!bad) mc->colp[n] = (int)mc->nnz;
    free(l.mark), free(l.rows), free(pos);
    return bad ? -1 : 0;
}

int mlcs_columns_create(mlcs_columns *mc, const nsdae_mlcs *s)
{
    memset(mc, 0, sizeof *mc);
    mc->ny = s->ny, mc->nl = s->nl, mc->n = s->ny + s->nl, mc->nphases = s->nphases;
    mc->ph = calloc((size_t)s->nphases, sizeof *mc->ph);
    mc->row_diff = calloc((size_t)s->nphases * (size_t)s->ny + 1, sizeof *mc->row_diff);
    if (!mc->ph || !mc->row_diff) return -1;
    for (int p = 0; p < s->nphases; p++) {
        if (read_phase(&mc->ph[p], &s->phases[p], s->ny, s->nl)) return -1;
        const csc *E = &mc->ph[p].E;
        for (int k = 0; k < E->colp[E->cols]; k++) mc->row_diff[(size_t)p * s->ny + E->rowi[k]] = 1;
    }
    if (build_pattern(mc)) return -1;
    mc->val = malloc(sizeof *mc->val * ((size_t)mc->nnz + 1));
    klu_common *common = malloc(sizeof *common);
    mc->klu_common = common;
    if (!mc->val || !common || !klu_defaults(common)) return -1;
    common->tol = 1.0;   /* partial pivoting: U's diagonal then measures regularity as dgetrf's does */
    mc->klu_symbolic = klu_analyze(mc->n, mc->colp, mc->rowi, common);
    return mc->klu_symbolic ? 0 : -1;
}

void mlcs_columns_free(mlcs_columns *mc)
{
    for (int p = 0; mc->ph && p < mc->nphases; p++) {
        mlcs_phase_columns *ph = &mc->ph[p];
        csc_free(&ph->E), csc_free(&ph->A), csc_free(&ph->B), csc_free(&ph->C), csc_free(&ph->D);
        free(ph->slotE), free(ph->slotA), free(ph->slotB), free(ph->slotC), free(ph->slotD);
    }
    if (mc->klu_symbolic) {
        klu_symbolic *sym = mc->klu_symbolic;
        klu_free_symbolic(&sym, mc->klu_common);
    }
    free(mc->klu_common);
    free(mc->ph), free(mc->colp), free(mc->rowi), free(mc->diag), free(mc->val), free(mc->row_diff);
    memset(mc, 0, sizeof *mc);
}

/* [cE E - cA A, -cA B] over the y rows; C, D (or the unit row of a fixed multiplier) below. */
static void mode_matrix(const mlcs_columns *mc, int phase, const char *side, double cE, double cA, double *val)
{
    const mlcs_phase_columns *ph = &mc->ph[phase];
    memset(val, 0, sizeof *val * (size_t)mc->nnz);
    for (int k = 0; k < ph->E.colp[ph->E.cols]; k++) val[ph->slotE[k]] += cE * ph->E.val[k];
    for (int k = 0; k < ph->A.colp[ph->A.cols]; k++) val[ph->slotA[k]] -= cA * ph->A.val[k];
    for (int k = 0; k < ph->B.colp[ph->B.cols]; k++) val[ph->slotB[k]] -= cA * ph->B.val[k];
    for (int k = 0; k < ph->C.colp[ph->C.cols]; k++)
        if (!fixed_side(side[ph->C.rowi[k]])) val[ph->slotC[k]] += ph->C.val[k];
    for (int k = 0; k < ph->D.colp[ph->D.cols]; k++)
        if (!fixed_side(side[ph->D.rowi[k]])) val[ph->slotD[k]] += ph->D.val[k];
    for (int i = 0; i < mc->nl; i++)
        if (fixed_side(side[i])) val[mc->diag[i]] += 1.0;
}

void mlcs_columns_jacobian(const mlcs_columns *mc, int phase, const char *side, double cj, double *val)
{
    mode_matrix(mc, phase, side, cj, 1.0, val);
}

int mlcs_columns_restart_solve(mlcs_columns *mc, int phase, const char *side, double d, double *x)
{
    mode_matrix(mc, phase, side, 1.0, d, mc->val);
    klu_common *common = mc->klu_common;
    klu_numeric *num = klu_factor(mc->colp, mc->rowi, mc->val, mc->klu_symbolic, common);
    int ok = num && common->status == KLU_OK && klu_solve(mc->klu_symbolic, num, mc->n, 1, x, common);
    if (num) klu_free_numeric(&num, common);
    return ok ? 0 : -1;
}

void mlcs_columns_residual(const mlcs_columns *mc, int phase, const double *z, const double *zp, const double *b,
                           const double *c, double *r, double *w)
{
    const mlcs_phase_columns *ph = &mc->ph[phase];
    const int ny = mc->ny, nl = mc->nl;
    if (r) {
        for (int i = 0; i < ny; i++) r[i] = -b[i];
        csc_gaxpy(&ph->E, 1.0, zp, r);
        csc_gaxpy(&ph->A, -1.0, z, r);
        csc_gaxpy(&ph->B, -1.0, z + ny, r);
    }
    if (w) {
        memcpy(w, c, sizeof *w * (size_t)nl);
        csc_gaxpy(&ph->C, 1.0, z, w);
        csc_gaxpy(&ph->D, 1.0, z + ny, w);
    }
}

void mlcs_columns_algebraic(const mlcs_columns *mc, int phase, int *alg)
{
    const csc *E = &mc->ph[phase].E;
    for (int j = 0; j < mc->n; j++) alg[j] = j >= mc->ny || E->colp[j + 1] == E->colp[j];
}

/* The matrix of E's differential columns and the Jacobian's algebraic ones, factored: regular to
 * 1e-12 of U's largest pivot (klu_rcond: smallest over largest |u_ii|), as the dense test. */
int mlcs_columns_index_one(mlcs_columns *mc, int phase, const char *side, const int *alg)
{
    const mlcs_phase_columns *ph = &mc->ph[phase];
    mode_matrix(mc, phase, side, 0.0, 1.0, mc->val);
    for (int j = 0; j < mc->ny; j++) {
        if (alg[j]) continue;
        for (int k = mc->colp[j]; k < mc->colp[j + 1]; k++) mc->val[k] = 0.0;
        for (int k = ph->E.colp[j]; k < ph->E.colp[j + 1]; k++) mc->val[ph->slotE[k]] = ph->E.val[k];
    }
    klu_common *common = mc->klu_common;
    klu_numeric *num = klu_factor(mc->colp, mc->rowi, mc->val, mc->klu_symbolic, common);
    int regular = num && common->status == KLU_OK && klu_rcond(mc->klu_symbolic, num, common) &&
                  common->rcond > 1e-12;
    if (num) klu_free_numeric(&num, common);
    return regular;
}

void mlcs_columns_index_two_tolerances(const mlcs_columns *mc, int phase, const int *alg, double h_ref,
                                       double *atol)
{
    const mlcs_phase_columns *ph = &mc->ph[phase];
    const int *row_diff = mc->row_diff + (size_t)phase * mc->ny;
    double emax = 0;
    for (int k = 0; k < ph->E.colp[ph->E.cols]; k++) emax = fmax(emax, fabs(ph->E.val[k]));
    if (!(emax > 0)) return;
    for (int j = 0; j < mc->n; j++) {
        if (!alg[j]) continue;
        const csc *m = j < mc->ny ? &ph->A : &ph->B;
        const int c = j < mc->ny ? j : j - mc->ny;
        double a = 0;
        for (int k = m->colp[c]; k < m->colp[c + 1]; k++)
            if (row_diff[m->rowi[k]]) a = fmax(a, fabs(m->val[k]));
        if (a > 0) atol[j] = fmax(atol[j], atol[j] / (h_ref * a / emax));
    }
}
