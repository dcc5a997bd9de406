/* The callbacks of a translated Lagrangian system and the context they own: M, F, g and G
 * compiled into expression tapes whose inputs are the coordinates (x = q, or x = (q, v) for the
 * forces: input j is the model variable of coordinate j). A tape copies what it evaluates, which
 * is what lets the system outlive the model (translate_lagrangian.h). */
#include "translate/lagrangian_internal.h"

#include "model/expr_internal.h"

#include <nsdae/tape.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct lag_eval {
    int ndof, ncontacts;
    nsdae_tape *mass;          /* x = q: the entries of M that are not the constant 0 ... */
    size_t *mass_at;           /* ... at these positions of M (ndof x ndof, column-major) */
    int mass_nnz;
    double *mv;                /* their values */
    int lower_nnz;
    int *lower_of;             /* the system's mass pattern (lower triangle, compressed columns):
                                  entry e is mv[lower_of[e]] */
    nsdae_tape *force;         /* x = (q, v), time: F, and [dF/dq | dF/dv] when F depends on q or v */
    size_t *force_at;          /* [0]: the count of the system's force Jacobian pattern; entry e is
                                  J[force_at[e + 1]] of the tape's dense n x 2n Jacobian, in ... */
    double *fj;                /* ... this scratch (made on the first call: forces that read the state) */
    nsdae_tape *gap;           /* x = q: g */
    nsdae_tape *grad;          /* x = q: the structurally nonzero entries of G = dg/dq, in the
                                  compressed rows of the system's gap_rowptr / gap_cols */
    const int *rowptr, *cols;  /* the system's pattern (it owns them) */
    double *gv;                /* nnz values, for the dense callback */
    nsdae_tape *tangent;       /* x = q: s (0 for frictionless contacts), and its Jacobian T; NULL
                                  without friction */
    double *qv;                /* 2 ndof: q then v */
} lag_eval;

static void lag_eval_free(void *p)
{
    lag_eval *c = p;
    if (!c) return;
    nsdae_tape_destroy(c->mass);
    nsdae_tape_destroy(c->force);
    nsdae_tape_destroy(c->gap);
    nsdae_tape_destroy(c->tangent);
    nsdae_tape_destroy(c->grad);
    free(c->mass_at);
    free(c->force_at);
    free(c->fj);
    free(c->mv);
    free(c->lower_of);
    free(c->gv);
    free(c->qv);
    free(c);
}

/* A non-finite input or output (a domain error in the model) fails the callback. */
static int eval(nsdae_tape *t, const double *x, double time, double *values, double *jac, int n)
{
    nsdae_tape_point at = {x, NULL, time};
    if (nsdae_tape_eval(t, &at, values, jac, NULL) != NSDAE_OK) return 1;
    const double *out = jac ? jac : values;
    for (int k = 0; k < n; k++)
        if (!isfinite(out[k])) return 1;
    return 0;
}

static int cb_mass(const double *q, double *M, void *p)
{
    lag_eval *c = p;
    if (eval(c->mass, q, 0.0, c->mv, NULL, c->mass_nnz) != 0) return 1;
    memset(M, 0, (size_t)c->ndof * (size_t)c->ndof * sizeof *M);
    for (int k = 0; k < c->mass_nnz; k++) M[c->mass_at[k]] = c->mv[k];
    return 0;
}

/* The entries of M that are not the constant 0 (a chain's M is diagonal or banded: ndof or a few
 * ndof entries to compile and evaluate, not ndof^2). Returns the list (nnz into c) or NULL. */
static const nsdae_expr **mass_entries(lctx *L, lag_eval *c)
{
    const lag_rows *M = &L->mass;
    c->mass_nnz = M->ptr[L->ndof];
    const nsdae_expr **e = malloc(((size_t)c->mass_nnz + 1) * sizeof *e);
    c->mass_at = malloc(((size_t)c->mass_nnz + 1) * sizeof *c->mass_at);
    c->mv = malloc(((size_t)c->mass_nnz + 1) * sizeof *c->mv);
    if (!e || !c->mass_at || !c->mv) {
        free(e);
        return NULL;
    }
    for (int i = 0; i < L->ndof; i++) /* column-major, as the callback's M */
        for (int k = M->ptr[i]; k < M->ptr[i + 1]; k++) {
            c->mass_at[k] = (size_t)i + (size_t)M->ent[k].col * (size_t)L->ndof;
            e[k] = M->ent[k].e;
        }
    return e;
}

static int cb_mass_values(const double *q, double *values, void *p)
{
    lag_eval *c = p;
    if (eval(c->mass, q, 0.0, c->mv, NULL, c->mass_nnz) != 0) return 1;
    for (int e = 0; e < c->lower_nnz; e++) values[e] = c->mv[c->lower_of[e]];
    return 0;
}

/* The system's mass pattern: the entries of mass_entries on and below the diagonal (those the
 * stepper reads of the dense M), by columns, rows increasing (a counting sort by column of the
 * row-ordered entries). Returns 0 when out of memory. */
static int mass_pattern(const lctx *L, lag_eval *c, nsdae_lagrangian *s)
{
    const int n = L->ndof;
    const lag_rows *M = &L->mass;
    s->mass_colptr = calloc((size_t)n + 1, sizeof *s->mass_colptr);
    s->mass_rows = malloc(((size_t)c->mass_nnz + 1) * sizeof *s->mass_rows);
    c->lower_of = malloc(((size_t)c->mass_nnz + 1) * sizeof *c->lower_of);
    if (!s->mass_colptr || !s->mass_rows || !c->lower_of) return 0;
    for (int i = 0; i < n; i++)
        for (int k = M->ptr[i]; k < M->ptr[i + 1]; k++)
            if (M->ent[k].col <= i) s->mass_colptr[M->ent[k].col + 1]++;
    for (int j = 0; j < n; j++) s->mass_colptr[j + 1] += s->mass_colptr[j];
    c->lower_nnz = s->mass_colptr[n];
    for (int i = 0; i < n; i++)
        for (int k = M->ptr[i]; k < M->ptr[i + 1]; k++) {
            const int j = M->ent[k].col;
            if (j > i) continue;
            const int e = s->mass_colptr[j]++;
            s->mass_rows[e] = i;
            c->lower_of[e] = k;
        }
    for (int j = n; j > 0; j--) s->mass_colptr[j] = s->mass_colptr[j - 1]; /* undo the shift of the fill */
    s->mass_colptr[0] = 0;
    return 1;
}

static int cb_forces(double t, const double *q, const double *v, double *F, void *p)
{
    lag_eval *c = p;
    memcpy(c->qv, q, (size_t)c->ndof * sizeof *q);
    memcpy(c->qv + c->ndof, v, (size_t)c->ndof * sizeof *v);
    return eval(c->force, c->qv, t, F, NULL, c->ndof);
}

static int cb_force_jacobian(double t, const double *q, const double *v, double *J, void *p)
{
    lag_eval *c = p;
    memcpy(c->qv, q, (size_t)c->ndof * sizeof *q);
    memcpy(c->qv + c->ndof, v, (size_t)c->ndof * sizeof *v);
    return eval(c->force, c->qv, t, NULL, J, 2 * c->ndof * c->ndof);
}

static int cb_force_values(double t, const double *q, const double *v, double *values, void *p)
{
    lag_eval *c = p;
    const int nnz = c->force_at ? (int)c->force_at[0] : 0;
    if (nnz == 0) return 0;
    if (!c->fj && !(c->fj = malloc(2 * (size_t)c->ndof * (size_t)c->ndof * sizeof *c->fj))) return 1;
    if (cb_force_jacobian(t, q, v, c->fj, p) != 0) return 1;
    for (int e = 0; e < nnz; e++) values[e] = c->fj[c->force_at[e + 1]];
    return 0;
}

/* The pattern of [dF/dq | dF/dv]: entry (i, k) when F_i reads the leaf of column k (q_k, or
 * v_{k - ndof}), found by a walk of F_i's nodes (O(its size)), so a chain of springs gives a few
 * entries per row. A superset of the nonzero derivatives (a leaf read in a term that cancels
 * stays), which a structural pattern may be. c->force_at[0] holds the count, then the entries'
 * positions in the n x 2n Jacobian of the force tape. Empty when F reads no state. 0: no memory. */
static int force_pattern(const lctx *L, lag_eval *c, nsdae_lagrangian *s, int state_forces)
{
    const int n = L->ndof;
    size_t cap = 16, nnz = 0;
    int *row = malloc(cap * sizeof *row), *col = malloc(cap * sizeof *col);
    int *mark = malloc(2 * (size_t)n * sizeof *mark);
    s->force_colptr = calloc(2 * (size_t)n + 1, sizeof *s->force_colptr);
    int ok = row && col && mark && s->force_colptr;
    for (int k = 0; ok && k < 2 * n; k++) mark[k] = -1;
    for (int i = 0; ok && state_forces && i < n; i++) {
        nsdae_expr_closure cl = {0};
        if (!(ok = nsdae_expr_closure_nodes(&L->force[i], 1, &cl))) break;
        for (int k = 0; ok && k < cl.count; k++) {
            const nsdae_expr *e = cl.nodes[k];
            if (e->kind != NSDAE_EXPR_VAR || e->order > 1 || L->coord_of_var[e->index] < 0) continue;
            const int j = L->coord_of_var[e->index] + e->order * n;
            if (mark[j] == i) continue;
            mark[j] = i;
            if (nnz == cap) {
                int *r2 = realloc(row, 2 * cap * sizeof *r2), *c2 = r2 ? realloc(col, 2 * cap * sizeof *c2) : NULL;
                if (r2) row = r2;
                if (c2) col = c2;
                if (!(ok = r2 && c2)) break;
                cap *= 2;
            }
            row[nnz] = i, col[nnz++] = j;
        }
        nsdae_expr_closure_free(&cl);
    }
    s->force_rows = ok ? malloc((nnz + 1) * sizeof *s->force_rows) : NULL;
    c->force_at = ok ? malloc((nnz + 1) * sizeof *c->force_at) : NULL;
    if ((ok = ok && s->force_rows && c->force_at)) {   /* counting sort by column: rows stay increasing */
        for (size_t e = 0; e < nnz; e++) s->force_colptr[col[e] + 1]++;
        for (int k = 0; k < 2 * n; k++) s->force_colptr[k + 1] += s->force_colptr[k];
        for (size_t e = 0; e < nnz; e++) {
            const int at = s->force_colptr[col[e]]++;
            s->force_rows[at] = row[e];
            c->force_at[at + 1] = (size_t)row[e] + (size_t)col[e] * (size_t)n;
        }
        for (int k = 2 * n; k > 0; k--) s->force_colptr[k] = s->force_colptr[k - 1];
        s->force_colptr[0] = 0;
        c->force_at[0] = nnz;
    }
    free(row), free(col), free(mark);
    return ok;
}

static int cb_gaps(const double *q, double *g, void *p)
{
    lag_eval *c = p;
    return eval(c->gap, q, 0.0, g, NULL, c->ncontacts);
}

static int cb_jacobian_values(const double *q, double *values, void *p)
{
    lag_eval *c = p;
    return eval(c->grad, q, 0.0, values, NULL, c->rowptr[c->ncontacts]);
}

static int cb_jacobian(const double *q, double *G, void *p)
{
    lag_eval *c = p;
    if (cb_jacobian_values(q, c->gv, p) != 0) return 1;
    memset(G, 0, (size_t)c->ncontacts * (size_t)c->ndof * sizeof *G);
    for (int k = 0; k < c->ncontacts; k++)
        for (int e = c->rowptr[k]; e < c->rowptr[k + 1]; e++) G[k + (size_t)c->cols[e] * c->ncontacts] = c->gv[e];
    return 0;
}

/* The pattern of G: entry (k, j) is structural unless the symbolic derivative folded to the
 * constant 0 (classification differentiated along the coordinates the gap reads only, and kept
 * its nonzeros: the first ncontacts rows of L->grad). A gap reads a few coordinates, so nnz is
 * O(ncontacts) where the dense G is ncontacts x ndof: the Jacobian of a column of 1000 beads is
 * 2000 expressions, not 10^6. Fills s's pattern and points *grad at the nnz expressions (they are
 * L->grad's entries, in order); returns nnz, or -1 when out of memory. */
static int gradient_pattern(lctx *L, nsdae_lagrangian *s, const nsdae_expr ***grad, int *linear)
{
    const int nc = L->ncontacts;
    const lag_rows *G = &L->grad;
    const size_t nnz = (size_t)G->ptr[nc];
    *linear = 1;
    s->gap_rowptr = malloc(((size_t)nc + 1) * sizeof *s->gap_rowptr);
    s->gap_cols = malloc((nnz + 1) * sizeof *s->gap_cols);
    *grad = malloc((nnz + 1) * sizeof **grad);
    if (!s->gap_rowptr || !s->gap_cols || !*grad) return -1;
    memcpy(s->gap_rowptr, G->ptr, ((size_t)nc + 1) * sizeof *s->gap_rowptr);
    for (size_t k = 0; k < nnz; k++) {
        s->gap_cols[k] = G->ent[k].col;
        (*grad)[k] = G->ent[k].e;
        if (G->ent[k].e->flags & NSDAE_EXPR_HAS_VAR) *linear = 0;
    }
    return (int)nnz;
}

static int cb_tangent_jacobian(const double *q, double *T, void *p)
{
    lag_eval *c = p;
    return eval(c->tangent, q, 0.0, NULL, T, c->ncontacts * c->ndof);
}

/* ---- compilation ------------------------------------------------------------------------ */

/* One tape; a leaf other than the inputs (a parameter left unbound, another variable) is an
 * internal error: classification admits none. */
static int compile(lctx *L, const nsdae_expr *const *e, int n, const nsdae_leaf *in, int nin, int nwrt,
                   nsdae_tape **out)
{
    nsdae_error e2;
    nsdae_tape_spec spec = {e, n, in, nin, 0, nwrt ? in : NULL, nwrt};
    nsdae_status st = nsdae_tape_create(L->p, &spec, out, &e2);
    if (st == NSDAE_NOMEM) nsdae_lag_nomem(L);
    else if (st != NSDAE_OK)
        nsdae_lag_fail(L, NSDAE_UNSUPPORTED, NULL, "internal: an expression of the Lagrangian form uses a leaf "
                                                   "other than positions, velocities and time (%s)", e2.message);
    return st == NSDAE_OK;
}

int nsdae_lag_install(lctx *L, nsdae_lagrangian *s)
{
    const int n = L->ndof, nc = L->ncontacts;
    lag_eval *c = calloc(1, sizeof *c);
    const nsdae_expr **gap = malloc(((size_t)nc + 1) * sizeof *gap), **grad = NULL, **mass = NULL;
    nsdae_leaf *in = malloc((2 * (size_t)n + 1) * sizeof *in);
    if (!c || !gap || !in) goto nomem;
    c->ndof = n;
    c->ncontacts = nc;
    c->qv = malloc(2 * (size_t)n * sizeof *c->qv);
    if (!c->qv) goto nomem;
    for (int j = 0; j < n; j++) {
        in[j] = (nsdae_leaf){L->coord[j], 0};
        in[n + j] = (nsdae_leaf){L->coord[j], 1};
    }
    for (int k = 0; k < nc; k++) gap[k] = L->contacts[k].gap;
    /* the gap Jacobian is d g_k / d q_j, the derivative classification took (L->grad's rows),
     * compiled over its structural nonzeros only */
    int nnz = gradient_pattern(L, s, &grad, &s->gaps_linear);
    if (nnz < 0 || !(c->gv = malloc(((size_t)nnz + 1) * sizeof *c->gv))) goto nomem;
    c->rowptr = s->gap_rowptr;
    c->cols = s->gap_cols;
    if (!(mass = mass_entries(L, c)) || !mass_pattern(L, c, s)) goto nomem;
    /* a force that reads the state is taken implicitly (lagrangian.h, force_jacobian) */
    int state_forces = 0;
    for (int k = 0; k < n; k++) state_forces |= (L->force[k]->flags & NSDAE_EXPR_HAS_VAR) != 0;
    if (!force_pattern(L, c, s, state_forces)) goto nomem;
    if (!compile(L, mass, c->mass_nnz, in, n, 0, &c->mass) ||
        !compile(L, L->force, n, in, 2 * n, state_forces ? 2 * n : 0, &c->force) ||
        !compile(L, gap, nc, in, n, 0, &c->gap) || !compile(L, grad, nnz, in, n, 0, &c->grad))
        goto fail;
    if (L->nfric > 0) {
        for (int k = 0; k < nc; k++) gap[k] = L->contacts[k].tvar >= 0 ? L->contacts[k].tangent : X_C(L->p, 0.0);
        for (int k = 0; k < nc; k++)
            if (!gap[k]) goto nomem;
        if (!compile(L, gap, nc, in, n, n, &c->tangent)) goto fail;
        s->tangent_jacobian = cb_tangent_jacobian;
    }
    /* constant M: no leaf left in any entry (the stepper then factors it once) */
    s->mass_constant = 1;
    for (int k = 0; k < c->mass_nnz; k++)
        if (mass[k]->flags & NSDAE_EXPR_HAS_VAR) s->mass_constant = 0;
    s->mass = cb_mass;
    s->mass_values = cb_mass_values;
    s->forces = cb_forces;
    s->force_jacobian = state_forces ? cb_force_jacobian : NULL;
    s->force_jacobian_values = cb_force_values;
    s->gaps = cb_gaps;
    s->gap_jacobian = cb_jacobian;
    s->gap_jacobian_values = cb_jacobian_values;
    s->ctx = c;
    s->ctx_free = lag_eval_free;
    free(gap);
    free(grad);
    free(mass);
    free(in);
    return 1;
nomem:
    nsdae_lag_nomem(L);
fail:
    lag_eval_free(c);
    free(gap);
    free(grad);
    free(mass);
    free(in);
    return 0;
}
