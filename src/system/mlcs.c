/* MLCS data: allocation, naming, validation and evaluation of the time-dependent parts. */
#include "system/mlcs_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void csc_release(nsdae_mlcs_csc *m)
{
    free(m->colp); free(m->rowi); free(m->val);
    *m = (nsdae_mlcs_csc){NULL, NULL, NULL};
}

static void phase_free(nsdae_mlcs_phase *ph)
{
    free(ph->E); free(ph->A); free(ph->B); free(ph->b); free(ph->C); free(ph->D); free(ph->c);
    csc_release(&ph->sE); csc_release(&ph->sA); csc_release(&ph->sB); csc_release(&ph->sC); csc_release(&ph->sD);
}

/* dense: 1 allocates the dense E, A, B, C, D (zeroed), 0 leaves them NULL (compressed system). */
static nsdae_status create(int ny, int nl, int nphases, int dense, nsdae_mlcs **out, nsdae_error *err)
{
    *out = NULL;
    if (ny < 1 || nl < 0 || nphases < 1)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT,
                               "mlcs: sizes ny=%d, nl=%d, phases=%d (need ny >= 1, nl >= 0, phases >= 1)",
                               ny, nl, nphases);
    nsdae_mlcs *s = calloc(1, sizeof *s);
    if (!s) return nsdae_error_set(err, NSDAE_NOMEM, "mlcs: out of memory");
    s->ny = ny; s->nl = nl; s->nphases = nphases;
    s->phases = calloc((size_t)nphases, sizeof *s->phases);
    s->kind = calloc((size_t)nl + 1, sizeof *s->kind);
    s->lo = calloc((size_t)nl + 1, sizeof *s->lo);
    s->hi = calloc((size_t)nl + 1, sizeof *s->hi);
    s->y0 = calloc((size_t)ny, sizeof *s->y0);
    s->y_names = calloc((size_t)ny, sizeof *s->y_names);
    s->l_names = calloc((size_t)nl + 1, sizeof *s->l_names);
    int ok = s->phases && s->kind && s->lo && s->hi && s->y0 && s->y_names && s->l_names;
    size_t yy = (size_t)ny * ny, yl = (size_t)ny * nl + 1, ll = (size_t)nl * nl + 1;
    for (int k = 0; ok && k < nphases; k++) {
        nsdae_mlcs_phase *ph = &s->phases[k];
        ph->b = calloc((size_t)ny, sizeof(double));
        ph->c = calloc((size_t)nl + 1, sizeof(double));
        ok = ph->b && ph->c;
        if (!dense) continue;
        ph->E = calloc(yy, sizeof(double)); ph->A = calloc(yy, sizeof(double));
        ph->B = calloc(yl, sizeof(double));
        ph->C = calloc(yl, sizeof(double)); ph->D = calloc(ll, sizeof(double));
        ok = ok && ph->E && ph->A && ph->B && ph->C && ph->D;
    }
    if (!ok) {
        nsdae_mlcs_destroy(s);
        return nsdae_error_set(err, NSDAE_NOMEM, "mlcs: out of memory");
    }
    for (int i = 0; i < nl; i++) {
        s->kind[i] = NSDAE_ROW_COMPLEMENTARITY;
        s->lo[i] = 0.0;
        s->hi[i] = INFINITY;
    }
    *out = s;
    return NSDAE_OK;
}

nsdae_status nsdae_mlcs_create(int ny, int nl, int nphases, nsdae_mlcs **out, nsdae_error *err)
{
    return create(ny, nl, nphases, 1, out, err);
}

nsdae_status nsdae_mlcs_create_sparse(int ny, int nl, int nphases, nsdae_mlcs **out, nsdae_error *err)
{
    return create(ny, nl, nphases, 0, out, err);
}

void nsdae_mlcs_destroy(nsdae_mlcs *s)
{
    if (!s) return;
    if (s->ctx_free) s->ctx_free(s->ctx);
    for (int k = 0; s->phases && k < s->nphases; k++) phase_free(&s->phases[k]);
    for (int i = 0; s->y_names && i < s->ny; i++) free(s->y_names[i]);
    for (int i = 0; s->l_names && i < s->nl; i++) free(s->l_names[i]);
    free(s->phases); free(s->kind); free(s->lo); free(s->hi); free(s->y0);
    free(s->y_names); free(s->l_names);
    free(s);
}

nsdae_status nsdae_mlcs_set_name(nsdae_mlcs *s, char which, int index, const char *name, nsdae_error *err)
{
    int n = which == 'y' ? s->ny : which == 'l' ? s->nl : -1;
    if (n < 0 || index < 0 || index >= n || !name)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "mlcs: no %c-name slot %d", which, index);
    char **slot = which == 'y' ? &s->y_names[index] : &s->l_names[index];
    char *copy = strdup(name);
    if (!copy) return nsdae_error_set(err, NSDAE_NOMEM, "mlcs: out of memory");
    free(*slot);
    *slot = copy;
    return NSDAE_OK;
}

static int all_finite(const double *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i])) return 0;
    return 1;
}

nsdae_status nsdae_mlcs_validate(const nsdae_mlcs *s, nsdae_error *err)
{
    if (!s || s->ny < 1 || s->nl < 0 || s->nphases < 1)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "mlcs: missing or empty system");
    size_t ny = (size_t)s->ny, nl = (size_t)s->nl;
    static const char *names[] = {"E", "A", "B", "b", "C", "D", "c"};
    int dense = nsdae_mlcs_has_dense(s), bad_phase;
    const char *bad;
    if (!dense && !nsdae_mlcs_sparse_finite(s, &bad_phase, &bad))
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "mlcs: phase %d: %s has a NaN or Inf entry", bad_phase, bad);
    for (int k = 0; k < s->nphases; k++) {
        const nsdae_mlcs_phase *ph = &s->phases[k];
        const double *arrays[] = {ph->E, ph->A, ph->B, ph->b, ph->C, ph->D, ph->c};
        size_t sizes[] = {ny * ny, ny * ny, ny * nl, ny, nl * ny, nl * nl, nl};
        for (int a = 0; a < 7; a++)
            if ((dense || a == 3 || a == 6) && !all_finite(arrays[a], sizes[a]))
                return nsdae_error_set(err, NSDAE_INVALID_INPUT, "mlcs: phase %d: %s has a NaN or Inf entry",
                                       k, names[a]);
    }
    if (!all_finite(s->y0, ny))
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "mlcs: an initial value is NaN or Inf");
    for (size_t i = 0; i < nl; i++) {
        if (s->kind[i] == NSDAE_ROW_BOX && !(s->lo[i] <= s->hi[i]))
            return nsdae_error_set(err, NSDAE_INVALID_INPUT, "mlcs: box row %zu has lo %g > hi %g", i,
                                   s->lo[i], s->hi[i]);
        if (s->kind[i] != NSDAE_ROW_EQUALITY && s->kind[i] != NSDAE_ROW_COMPLEMENTARITY &&
            s->kind[i] != NSDAE_ROW_BOX)
            return nsdae_error_set(err, NSDAE_INVALID_INPUT, "mlcs: row %zu has an unknown kind", i);
    }
    return NSDAE_OK;
}

int nsdae_mlcs_differential(const nsdae_mlcs *s, int *flags)
{
    if (!nsdae_mlcs_has_dense(s)) return nsdae_mlcs_sparse_differential(s, flags);
    int count = 0;
    for (int j = 0; j < s->ny; j++) {
        flags[j] = 0;
        for (int k = 0; k < s->nphases && !flags[j]; k++)
            for (int i = 0; i < s->ny; i++)
                if (s->phases[k].E[i + (size_t)j * s->ny] != 0.0) { flags[j] = 1; break; }
        count += flags[j];
    }
    return count;
}

static int zero_column(const double *M, int rows, int j)
{
    for (int i = 0; i < rows; i++)
        if (M[i + (size_t)j * rows] != 0.0) return 0;
    return 1;
}

static int zero_row(const double *M, int rows, int cols, int i)
{
    for (int j = 0; j < cols; j++)
        if (M[i + (size_t)j * rows] != 0.0) return 0;
    return 1;
}

int nsdae_mlcs_structural_gap(const nsdae_mlcs *s, int phase, char *which, int *index)
{
    if (!nsdae_mlcs_has_dense(s)) return nsdae_mlcs_sparse_gap(s, phase, which, index);
    const nsdae_mlcs_phase *p = &s->phases[phase];
    for (int j = 0; j < s->ny; j++)
        if (zero_column(p->E, s->ny, j) && zero_column(p->A, s->ny, j) && (s->nl == 0 || zero_column(p->C, s->nl, j))) {
            *which = 'y';
            *index = j;
            return 1;
        }
    for (int i = 0; i < s->ny; i++)
        if (zero_row(p->E, s->ny, s->ny, i) && zero_row(p->A, s->ny, s->ny, i) && zero_row(p->B, s->ny, s->nl, i)) {
            *which = 'r';
            *index = i;
            return 1;
        }
    return 0;
}

int nsdae_mlcs_phase_index(const nsdae_mlcs *s, double t)
{
    if (!s->phase_at) return 0;
    int k = s->phase_at(t, s->ctx);
    return k < 0 || k >= s->nphases ? 0 : k;
}

void nsdae_mlcs_rhs_at(const nsdae_mlcs *s, double t, double *b, double *c)
{
    const nsdae_mlcs_phase *ph = &s->phases[nsdae_mlcs_phase_index(s, t)];
    memcpy(b, ph->b, (size_t)s->ny * sizeof *b);
    if (s->nl) memcpy(c, ph->c, (size_t)s->nl * sizeof *c);
    if (s->forcing) s->forcing(t, b, c, s->ctx);
}
