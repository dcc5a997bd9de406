/* A Lagrangian system seen through full patterns where it gives none (contact_internal.h): the
 * sparse engine then has one way to read M, G and dF/d(q, v), and a hand-written system (dense
 * callbacks) runs on it too, dense in its blocks. Every callback forwards to the system's own. */
#include "eventdriven/contact_internal.h"

#include <stdlib.h>
#include <string.h>

static int v_mass(const double *q, double *M, void *p)
{
    const contact_view *w = p;
    return w->s->mass(q, M, w->s->ctx);
}

static int v_forces(double t, const double *q, const double *v, double *F, void *p)
{
    const contact_view *w = p;
    return w->s->forces(t, q, v, F, w->s->ctx);
}

static int v_gaps(const double *q, double *g, void *p)
{
    const contact_view *w = p;
    return w->s->gaps(q, g, w->s->ctx);
}

static int v_gap_jacobian(const double *q, double *G, void *p)
{
    const contact_view *w = p;
    return w->s->gap_jacobian(q, G, w->s->ctx);
}

static int v_force_jacobian(double t, const double *q, const double *v, double *J, void *p)
{
    const contact_view *w = p;
    return w->s->force_jacobian(t, q, v, J, w->s->ctx);
}

/* The lower triangle column by column, all of it, from the dense M. */
static int v_mass_values(const double *q, double *val, void *p)
{
    contact_view *w = p;
    const int n = w->s->ndof;
    if (w->s->mass_colptr) return w->s->mass_values(q, val, w->s->ctx);
    if (w->s->mass(q, w->dense, w->s->ctx)) return 1;
    for (int j = 0, e = 0; j < n; j++)
        for (int i = j; i < n; i++) val[e++] = w->dense[i + (size_t)j * n];
    return 0;
}

/* G row by row, all of it. */
static int v_gap_values(const double *q, double *val, void *p)
{
    contact_view *w = p;
    const int n = w->s->ndof, nc = w->s->ncontacts;
    if (w->s->gap_rowptr) return w->s->gap_jacobian_values(q, val, w->s->ctx);
    if (w->s->gap_jacobian(q, w->dense, w->s->ctx)) return 1;
    for (int c = 0, e = 0; c < nc; c++)
        for (int j = 0; j < n; j++) val[e++] = w->dense[c + (size_t)j * nc];
    return 0;
}

/* [dF/dq | dF/dv] column-major is already its full compressed columns. */
static int v_force_values(double t, const double *q, const double *v, double *val, void *p)
{
    contact_view *w = p;
    if (w->s->force_colptr) return w->s->force_jacobian_values(t, q, v, val, w->s->ctx);
    return w->s->force_jacobian ? w->s->force_jacobian(t, q, v, val, w->s->ctx) : 0;
}

/* colptr of a full pattern: ncols columns of rows from0(col) .. nrows - 1. */
static int *full_columns(int ncols, int nrows, int lower, int **rows)
{
    int *ptr = malloc(((size_t)ncols + 1) * sizeof *ptr);
    size_t nnz = 0;
    for (int j = 0; ptr && j < ncols; j++) nnz += (size_t)(nrows - (lower ? j : 0));
    *rows = ptr ? malloc((nnz + 1) * sizeof **rows) : NULL;
    if (!*rows) {
        free(ptr);
        return NULL;
    }
    ptr[0] = 0;
    for (int j = 0, e = 0; j < ncols; j++) {
        for (int i = lower ? j : 0; i < nrows; i++) (*rows)[e++] = i;
        ptr[j + 1] = ptr[j] + nrows - (lower ? j : 0);
    }
    return ptr;
}

int contact_view_create(contact_view *w, const nsdae_lagrangian *s)
{
    memset(w, 0, sizeof *w);
    const int n = s->ndof, nc = s->ncontacts;
    w->s = s;
    w->sys = *s;
    w->sys.ctx = w;
    w->sys.ctx_free = NULL;
    w->sys.mass = v_mass, w->sys.forces = v_forces, w->sys.gaps = v_gaps, w->sys.gap_jacobian = v_gap_jacobian;
    w->sys.force_jacobian = s->force_jacobian ? v_force_jacobian : NULL;
    w->sys.mass_values = v_mass_values, w->sys.gap_jacobian_values = v_gap_values;
    w->sys.force_jacobian_values = v_force_values;
    size_t big = (size_t)n * (size_t)(n > nc ? n : nc);
    w->dense = malloc((big + 1) * sizeof *w->dense);
    if (!w->dense) return -1;
    if (!s->mass_colptr && !(w->sys.mass_colptr = w->mass_colptr = full_columns(n, n, 1, &w->mass_rows))) return -1;
    if (!s->mass_colptr) w->sys.mass_rows = w->mass_rows;
    if (nc > 0 && !s->gap_rowptr) {   /* compressed rows of a full G: the full columns of G^T */
        if (!(w->sys.gap_rowptr = w->gap_rowptr = full_columns(nc, n, 0, &w->gap_cols))) return -1;
        w->sys.gap_cols = w->gap_cols;
    }
    if (!s->force_colptr) {   /* full when the system gives the dense Jacobian, else empty (F explicit) */
        w->sys.force_colptr = w->force_colptr = full_columns(2 * n, s->force_jacobian ? n : 0, 0, &w->force_rows);
        if (!w->force_colptr) return -1;
        w->sys.force_rows = w->force_rows;
    }
    return 0;
}

void contact_view_free(contact_view *w)
{
    free(w->dense);
    free(w->mass_colptr), free(w->mass_rows), free(w->gap_rowptr), free(w->gap_cols);
    free(w->force_colptr), free(w->force_rows);
    memset(w, 0, sizeof *w);
}
