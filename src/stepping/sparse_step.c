/* The sparse step matrix: the MLCS phases read once into compressed columns, the step matrix of
 * step_mlcp.c formed over their entries only, and q per step by sparse products. The weights are
 * step_mlcp.c's, term for term (the why of each is written there). */
#include "stepping/sparse_step.h"
#include "stepping/sparse_lcp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One matrix of a phase: its compressed form when the system has one (a translated system: O(nnz),
 * and it is all there is until something materialises the dense form), else the nonzeros of the
 * dense array (a system made by nsdae_mlcs_create). Both hold the same entries in the same order. */
static int read_matrix(csc *c, const nsdae_mlcs_csc *m, const double *a, int rows, int cols)
{
    return m->colp || !a ? csc_from_mlcs(c, m, rows, cols) : csc_from_dense(c, a, rows, cols);
}

static int read_phase(sparse_phase *p, const nsdae_mlcs_phase *d, int ny, int nl)
{
    memset(p, 0, sizeof *p);
    p->row_alg = malloc((size_t)ny + 1);
    p->col_alg = malloc((size_t)ny + 1);
    if (!p->row_alg || !p->col_alg || read_matrix(&p->E, &d->sE, d->E, ny, ny) ||
        read_matrix(&p->A, &d->sA, d->A, ny, ny) || read_matrix(&p->B, &d->sB, d->B, ny, nl) ||
        read_matrix(&p->C, &d->sC, d->C, nl, ny) || read_matrix(&p->D, &d->sD, d->D, nl, nl))
        return -1;
    memset(p->row_alg, 1, (size_t)ny);
    for (int j = 0; j < ny; j++) {
        p->col_alg[j] = p->E.colp[j + 1] == p->E.colp[j];
        for (int k = p->E.colp[j]; k < p->E.colp[j + 1]; k++) p->row_alg[p->E.rowi[k]] = 0;
    }
    return 0;
}

static void free_phase(sparse_phase *p)
{
    csc_free(&p->E); csc_free(&p->A); csc_free(&p->B); csc_free(&p->C); csc_free(&p->D);
    free(p->row_alg); free(p->col_alg);
}

int sparse_step_init(sparse_step *ss, const nsdae_mlcs *s)
{
    memset(ss, 0, sizeof *ss);
    for (int i = 0; i < s->nl; i++)
        if (s->kind[i] != NSDAE_ROW_COMPLEMENTARITY) return 0;
    ss->ny = s->ny;
    ss->nl = s->nl;
    ss->n = s->ny + s->nl;
    size_t n = (size_t)ss->n + 1, ny = (size_t)s->ny + 1, nl = (size_t)s->nl + 1;
    ss->ph = calloc((size_t)s->nphases, sizeof *ss->ph);
    ss->diag = malloc(nl * sizeof *ss->diag);
    ss->active = calloc(nl, 1);
    ss->factored = calloc(nl, 1);
    ss->q = malloc(n * sizeof *ss->q);
    ss->rhs = malloc(n * sizeof *ss->rhs);
    ss->w = malloc(n * sizeof *ss->w);
    ss->rowsum = malloc(n * sizeof *ss->rowsum);
    ss->work = malloc(2 * n * sizeof *ss->work);
    ss->chk = malloc(5 * n * sizeof *ss->chk);
    ss->b0 = calloc(ny, sizeof *ss->b0);
    ss->b1 = calloc(ny, sizeof *ss->b1);
    ss->c0 = calloc(nl, sizeof *ss->c0);
    ss->c1 = calloc(nl, sizeof *ss->c1);
    ss->col_weight = malloc(ny * sizeof *ss->col_weight);
    int bad = !ss->ph || !ss->diag || !ss->active || !ss->factored || !ss->q || !ss->rhs || !ss->w || !ss->rowsum ||
              !ss->work || !ss->chk || !ss->b0 || !ss->b1 || !ss->c0 || !ss->c1 || !ss->col_weight;
    for (int p = 0; !bad && p < s->nphases; p++, ss->nphases = p) bad = read_phase(&ss->ph[p], &s->phases[p], s->ny, s->nl);
    if (!bad) bad = !klu_defaults(&ss->common);
    if (bad) {
        sparse_step_free(ss);
        return -1;
    }
    return 1;
}

void sparse_step_free(sparse_step *ss)
{
    for (int p = 0; ss->ph && p < ss->nphases; p++) free_phase(&ss->ph[p]);
    if (ss->num) klu_free_numeric(&ss->num, &ss->common);
    if (ss->sym) klu_free_symbolic(&ss->sym, &ss->common);
    csc_free(&ss->M);
    free(ss->ph); free(ss->diag); free(ss->kval); free(ss->lrowp); free(ss->lcol); free(ss->lval);
    free(ss->cmax); free(ss->rs); free(ss->active); free(ss->factored); free(ss->S);
    free(ss->q); free(ss->rhs); free(ss->w); free(ss->rowsum); free(ss->work); free(ss->chk);
    free(ss->b0); free(ss->b1); free(ss->c0); free(ss->c1); free(ss->col_weight);
    memset(ss, 0, sizeof *ss);
}

/* step_mlcp.c's relation_weight: gamma on a differential unknown with gamma_relation, else 1 */
static double rel_weight(const sparse_phase *p, int j, double rel)
{
    return rel < 1.0 && !p->col_alg[j] ? rel : 1.0;
}

/* Weight of A_ij in row i: the relation weight in an algebraic row, the column weight otherwise. */
static double a_weight(const sparse_step *ss, const sparse_phase *p, int i, int j, double rel)
{
    return p->row_alg[i] ? rel_weight(p, j, rel) : ss->col_weight[j];
}

static void set_col_weights(sparse_step *ss, const sparse_phase *p, double theta, double gamma, int gr)
{
    for (int j = 0; j < ss->ny; j++) ss->col_weight[j] = p->col_alg[j] ? (gr ? 1.0 : gamma) : theta;
}

/* Appends column j of the step matrix (rows increasing): E - h w A over the y rows, w C below for
 * a y column; -h ga B, then D with its diagonal entry always present, for a multiplier column. */
static int append_column(sparse_step *ss, const sparse_phase *p, int j, double h, double ga_diff, double rel, int k)
{
    csc *M = &ss->M;
    const int ny = ss->ny;
    if (j < ny) {
        int a = p->E.colp[j], ae = p->E.colp[j + 1], b = p->A.colp[j], be = p->A.colp[j + 1];
        while (a < ae || b < be) {
            int ra = a < ae ? p->E.rowi[a] : ny, rb = b < be ? p->A.rowi[b] : ny, r = ra < rb ? ra : rb;
            double v = 0.0;
            if (ra == r) v += p->E.val[a++];
            if (rb == r) v -= h * a_weight(ss, p, r, j, rel) * p->A.val[b++];
            M->rowi[k] = r;
            M->val[k++] = v;
        }
        for (int e = p->C.colp[j]; e < p->C.colp[j + 1]; e++) {
            M->rowi[k] = ny + p->C.rowi[e];
            M->val[k++] = rel_weight(p, j, rel) * p->C.val[e];
        }
        return k;
    }
    const int c = j - ny;
    for (int e = p->B.colp[c]; e < p->B.colp[c + 1]; e++) {
        int r = p->B.rowi[e];
        M->rowi[k] = r;
        M->val[k++] = -h * (p->row_alg[r] ? 1.0 : ga_diff) * p->B.val[e];
    }
    int placed = 0;
    for (int e = p->D.colp[c]; e <= p->D.colp[c + 1]; e++) {
        int r = e < p->D.colp[c + 1] ? p->D.rowi[e] : ss->nl;
        if (!placed && r >= c) {
            ss->diag[c] = k;
            M->rowi[k] = ny + c;
            M->val[k++] = 0.0;
            placed = 1;
        }
        if (e == p->D.colp[c + 1]) break;
        if (r == c) k--; /* the diagonal entry itself: overwrite the zero just placed */
        M->rowi[k] = ny + r;
        M->val[k++] = p->D.val[e];
    }
    return k;
}

/* What the pivoting and the per-row check read of M once per matrix: its MLCS rows by rows, its
 * column maxima and each row's entries relative to them. */
static int matrix_summaries(sparse_step *ss)
{
    const csc *M = &ss->M;
    const int ny = ss->ny, nl = ss->nl, n = ss->n, nnz = M->colp[n];
    free(ss->lrowp); free(ss->lcol); free(ss->lval); free(ss->cmax); free(ss->rs);
    ss->lrowp = calloc((size_t)nl + 2, sizeof *ss->lrowp);
    ss->lcol = malloc(((size_t)nnz + 1) * sizeof *ss->lcol);
    ss->lval = malloc(((size_t)nnz + 1) * sizeof *ss->lval);
    ss->cmax = calloc((size_t)n + 1, sizeof *ss->cmax);
    ss->rs = calloc((size_t)n + 1, sizeof *ss->rs);
    if (!ss->lrowp || !ss->lcol || !ss->lval || !ss->cmax || !ss->rs) return -1;
    for (int e = 0; e < nnz; e++)
        if (M->rowi[e] >= ny) ss->lrowp[M->rowi[e] - ny + 2]++;
    for (int i = 0; i < nl; i++) ss->lrowp[i + 2] += ss->lrowp[i + 1];
    for (int j = 0; j < n; j++)
        for (int e = M->colp[j]; e < M->colp[j + 1]; e++) {
            double a = fabs(M->val[e]);
            if (a > ss->cmax[j]) ss->cmax[j] = a;
            if (M->rowi[e] < ny) continue;
            int at = ss->lrowp[M->rowi[e] - ny + 1]++;
            ss->lcol[at] = j;
            ss->lval[at] = M->val[e];
        }
    for (int j = 0; j < n; j++)
        for (int e = M->colp[j]; e < M->colp[j + 1]; e++)
            if (ss->cmax[j] > 0) ss->rs[M->rowi[e]] += fabs(M->val[e]) / ss->cmax[j];
    return 0;
}

/* The step matrix of the key (phase p1, h, theta, gamma, gamma_relation): structure and values. */
static int build_matrix(sparse_step *ss, int phase, double h, double theta, double gamma, int gr)
{
    const sparse_phase *p = &ss->ph[phase];
    size_t cap = (size_t)p->E.colp[ss->ny] + (size_t)p->A.colp[ss->ny] + (size_t)p->C.colp[ss->ny] +
                 (size_t)p->B.colp[ss->nl] + (size_t)p->D.colp[ss->nl] + (size_t)ss->nl + 1;
    csc_free(&ss->M);
    free(ss->kval);
    ss->M.rows = ss->M.cols = ss->n;
    ss->M.colp = malloc(((size_t)ss->n + 1) * sizeof *ss->M.colp);
    ss->M.rowi = malloc(cap * sizeof *ss->M.rowi);
    ss->M.val = malloc(cap * sizeof *ss->M.val);
    ss->kval = malloc(cap * sizeof *ss->kval);
    if (!ss->M.colp || !ss->M.rowi || !ss->M.val || !ss->kval) return -1;
    set_col_weights(ss, p, theta, gamma, gr);
    const double ga_diff = gr ? 1.0 : gamma, rel = gr ? gamma : 1.0;
    int k = 0;
    for (int j = 0; j < ss->n; j++) {
        ss->M.colp[j] = k;
        k = append_column(ss, p, j, h, ga_diff, rel, k);
    }
    ss->M.colp[ss->n] = k;
    return matrix_summaries(ss);
}

/* q of step_mlcp_build: y rows -[E1 y0 + h sum_j (1 - w_ij) A0_ij y0_j + h (1 - ga) B0 lambda0
 * + h (th b(t1) + (1 - th) b(t0))], relation rows c(t1) + sum_j (1 - rel_j) C0_ij y0_j. */
static void build_q(sparse_step *ss, const nsdae_mlcs *s, const sparse_phase *p0, const sparse_phase *p1,
                    double t0, double h, double theta, double gamma, int gr, const double *y0, const double *lambda0)
{
    const int ny = ss->ny;
    double *r = ss->q, *ql = ss->q + ny;
    const double ga_diff = gr ? 1.0 : gamma, rel = gr ? gamma : 1.0;
    if (theta < 1.0) nsdae_mlcs_rhs_at(s, t0, ss->b0, ss->c0);
    nsdae_mlcs_rhs_at(s, t0 + h, ss->b1, ss->c1);
    for (int i = 0; i < ny; i++) {
        double th = p1->row_alg[i] ? 1.0 : theta;
        r[i] = h * (th * ss->b1[i] + (th < 1.0 ? (1.0 - th) * ss->b0[i] : 0.0));
    }
    csc_gaxpy(&p1->E, 1.0, y0, r);
    for (int j = 0; j < ny; j++)
        for (int e = p0->A.colp[j]; e < p0->A.colp[j + 1]; e++) {
            double wj = a_weight(ss, p1, p0->A.rowi[e], j, rel);
            if (wj < 1.0) r[p0->A.rowi[e]] += h * (1.0 - wj) * p0->A.val[e] * y0[j];
        }
    if (ga_diff < 1.0 && lambda0)
        for (int j = 0; j < ss->nl; j++)
            for (int e = p0->B.colp[j]; e < p0->B.colp[j + 1]; e++)
                if (!p1->row_alg[p0->B.rowi[e]]) r[p0->B.rowi[e]] += h * (1.0 - ga_diff) * p0->B.val[e] * lambda0[j];
    for (int i = 0; i < ny; i++) r[i] = -r[i];
    memcpy(ql, ss->c1, (size_t)ss->nl * sizeof *ql);
    for (int j = 0; j < ny; j++) {
        double wj = rel_weight(p1, j, rel);
        if (wj < 1.0)
            for (int e = p0->C.colp[j]; e < p0->C.colp[j + 1]; e++)
                ql[p0->C.rowi[e]] += (1.0 - wj) * p0->C.val[e] * y0[j];
    }
}

int sparse_step_prepare(sparse_step *ss, const nsdae_mlcs *s, double t0, double h, double theta, double gamma,
                        int gamma_relation, const double *y0, const double *lambda0)
{
    const int i0 = nsdae_mlcs_phase_index(s, t0), i1 = nsdae_mlcs_phase_index(s, t0 + h);
    const int gr = gamma_relation != 0;
    if (!ss->have_key || ss->key_phase != i1 || ss->key_h != h || ss->key_theta != theta || ss->key_gamma != gamma ||
        ss->key_gr != gr) {
        ss->have_key = 0;
        if (build_matrix(ss, i1, h, theta, gamma, gr)) return -1;
        int c = sparse_lcp_classify(ss);
        if (c < 0) return -1;
        ss->usable = c;
        ss->key_phase = i1;
        ss->key_h = h;
        ss->key_theta = theta;
        ss->key_gamma = gamma;
        ss->key_gr = gr;
        ss->have_key = 1;
    }
    if (!ss->usable) return 0;
    set_col_weights(ss, &ss->ph[i1], theta, gamma, gr);
    build_q(ss, s, &ss->ph[i0], &ss->ph[i1], t0, h, theta, gamma, gr, y0, lambda0);
    return 1;
}
