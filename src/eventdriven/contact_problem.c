/* The contact form's mode DAE for IDA (unknowns and equations in contact_internal.h), its roots
 * (an open contact's gap reaching 0, a closed contact's force reaching 0) and its rows, and the
 * public entry nsdae_events_run_contact. Two ways to solve IDA's Newton systems (eventdriven.h,
 * linsol): dense LU with IDA's difference-quotient Jacobian (the residual on the dense M and G,
 * O(ndof^2) per evaluation: the small systems the oracles were validated on), or KLU on
 * contact_columns.c's pattern with its analytic Jacobian, the residual in compressed form,
 * O(nonzeros) per evaluation. */
#include "eventdriven/contact_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int contact_eval(contact_problem *cp, double t, const double *q, const double *v)
{
    const nsdae_lagrangian *s = cp->s;
    int rc = s->mass(q, cp->M, s->ctx);
    if (!rc) rc = s->forces(t, q, v, cp->F, s->ctx);
    if (!rc && cp->nc) rc = s->gaps(q, cp->g, s->ctx);
    if (!rc && cp->nc) rc = s->gap_jacobian(q, cp->G, s->ctx);
    return rc;
}

static int contact_residual(double t, const double *z, const double *zp, double *r, void *self)
{
    contact_problem *cp = self;
    const int nd = cp->nd, nc = cp->nc;
    const double *q = z, *v = z + nd, *lam = z + 2 * nd, *mu = z + 2 * nd + nc;
    if (contact_eval(cp, t, q, v)) return 1;
    for (int i = 0; i < nd; i++) {
        double rq = zp[i] - v[i], rv = -cp->F[i];
        for (int j = 0; j < nd; j++) rv += cp->M[i + j * nd] * zp[nd + j];
        for (int c = 0; c < nc; c++) {
            rq -= cp->G[c + i * nc] * mu[c];
            rv -= cp->G[c + i * nc] * lam[c];
        }
        r[i] = rq;
        r[nd + i] = rv;
    }
    for (int c = 0; c < nc; c++) {
        if (cp->closed[c]) {
            double gv = 0;
            for (int j = 0; j < nd; j++) gv += cp->G[c + j * nc] * v[j];
            r[2 * nd + c] = cp->g[c];
            r[2 * nd + nc + c] = gv;
        } else {
            r[2 * nd + c] = lam[c];
            r[2 * nd + nc + c] = mu[c];
        }
    }
    return 0;
}

/* The same residual in compressed form: M's lower triangle (symmetric product), G's rows. */
static int contact_residual_sparse(double t, const double *z, const double *zp, double *r, void *self)
{
    contact_problem *cp = self;
    const nsdae_lagrangian *s = cp->sys;
    const int nd = cp->nd, nc = cp->nc;
    const double *q = z, *v = z + nd, *lam = z + 2 * nd, *mu = z + 2 * nd + nc, *a = zp + nd;
    if (s->forces(t, q, v, cp->F, s->ctx)) return 1;
    if (nc && (s->gaps(q, cp->g, s->ctx) || contact_rows_evaluate(&cp->Gr, s, q))) return 1;
    if (!s->mass_constant && mass_columns_evaluate(&cp->Mc, s, q)) return 1;
    const mass_columns *M = &cp->Mc;
    const contact_rows *G = &cp->Gr;
    for (int i = 0; i < nd; i++) {
        r[i] = zp[i] - v[i];
        r[nd + i] = -cp->F[i];
    }
    for (int j = 0; j < nd; j++)
        for (int e = M->colptr[j]; e < M->colptr[j + 1]; e++) {
            const int i = M->rows[e];
            r[nd + i] += M->val[e] * a[j];
            if (i != j) r[nd + j] += M->val[e] * a[i];
        }
    for (int c = 0; c < nc; c++) {
        double gv = 0;
        for (int e = G->rowptr[c]; e < G->rowptr[c + 1]; e++) {
            const int j = G->cols[e];
            r[j] -= G->val[e] * mu[c];
            r[nd + j] -= G->val[e] * lam[c];
            gv += G->val[e] * v[j];
        }
        r[2 * nd + c] = cp->closed[c] ? cp->g[c] : lam[c];
        r[2 * nd + nc + c] = cp->closed[c] ? gv : mu[c];
    }
    return 0;
}

/* contact_columns.c's Newton matrix at (t, z), M, G and dF/d(q, v) evaluated there. */
static int contact_jacobian_csc(double t, double cj, const double *z, const double *zp, sunindextype *colp,
                                sunindextype *rowi, double *val, void *self)
{
    (void)zp;
    contact_problem *cp = self;
    const nsdae_lagrangian *s = cp->sys;
    const contact_columns *cc = cp->cols;
    const double *q = z, *v = z + cp->nd;
    if (cp->nc && contact_rows_evaluate(&cp->Gr, s, q)) return 1;
    if (!s->mass_constant && mass_columns_evaluate(&cp->Mc, s, q)) return 1;
    if (s->force_colptr[2 * cp->nd] > 0 && s->force_jacobian_values(t, q, v, cc->fv, s->ctx)) return 1;
    for (int j = 0; j <= cc->n; j++) colp[j] = cc->colp[j];
    for (long k = 0; k < cc->nnz; k++) rowi[k] = cc->rowi[k];
    contact_columns_jacobian(cc, s, &cp->Mc, &cp->Gr, cp->closed, cj, val);
    return 0;
}

/* Open: the gap; closed: the force. Both end the mode when they reach 0 from above. */
static int contact_roots(double t, const double *z, double *gout, void *self)
{
    (void)t;
    contact_problem *cp = self;
    if (cp->sys->gaps(z, cp->g, cp->sys->ctx)) return 1;
    for (int c = 0; c < cp->nc; c++) gout[c] = cp->closed[c] ? z[2 * cp->nd + c] : cp->g[c];
    return 0;
}

static void contact_mode_setup(double *id, double *atol, int *dirs, void *self)
{
    contact_problem *cp = self;
    for (int i = 0; i < cp->n; i++) id[i] = i < 2 * cp->nd ? 1.0 : 0.0;
    for (int i = 2 * cp->nd; i < cp->n; i++) atol[i] = cp->mult_atol[i - 2 * cp->nd];
    for (int c = 0; c < cp->nc; c++) dirs[c] = -1;
}

static int contact_row(long k, double t, const double *z, const double *zp, int kind, void *self)
{
    (void)zp;
    contact_problem *cp = self;
    int nactive = 0;
    for (int c = 0; c < cp->nc; c++) {
        cp->row_active[c] = cp->closed[c];
        nactive += cp->closed[c];
        cp->row_P[c] = kind == 2 ? cp->P[c] : 0.0;
    }
    /* no friction here */
    nsdae_contact_record rec = {k, t, z, z + cp->nd, cp->row_P, cp->row_active, nactive, 0.0, NULL};
    return cp->on_row(&rec, cp->ctx);
}

static const char *contact_label(void *self)
{
    return contact_label_of(self);
}

const char *contact_label_of(contact_problem *cp)
{
    for (int c = 0; c < cp->nc; c++) cp->label[c] = cp->closed[c] ? 'c' : 'o';
    cp->label[cp->nc] = 0;
    return cp->nc ? cp->label : "-";
}

static void free_names(char **names, int n)
{
    if (names)
        for (int i = 0; i < n; i++) free(names[i]);
    free(names);
}

static void contact_free(contact_problem *cp)
{
    free(cp->closed), free(cp->label), free(cp->M), free(cp->F), free(cp->G), free(cp->g);
    free(cp->P), free(cp->pre), free(cp->mult_atol);
    free(cp->S), free(cp->idx), free(cp->pos), free(cp->mark), free(cp->gstart);
    free(cp->qv), free(cp->zc), free(cp->gd), free(cp->qK), free(cp->zK), free(cp->acc), free(cp->qs);
    free(cp->W), free(cp->X), free(cp->gplus), free(cp->row_active), free(cp->row_P), free(cp->unit.band);
    mass_columns_free(&cp->Mc);
    mass_factor_free(&cp->Mf);
    contact_rows_free(&cp->Gr);
    contact_rows_free(&cp->Gs);
    if (cp->cols) contact_columns_free(cp->cols);
    free(cp->cols);
    contact_view_free(&cp->view);
    free_names(cp->state_names, 2 * cp->nd);
    free_names(cp->impulse_names, cp->nc);
    ed_mode_set_free(&cp->modes);
}

static char *name_of(const char *fmt, const char *name, const char *fallback, int i)
{
    char buf[256];
    if (name) snprintf(buf, sizeof buf, fmt, name);
    else {
        char tmp[64];
        snprintf(tmp, sizeof tmp, "%s%d", fallback, i + 1);
        snprintf(buf, sizeof buf, fmt, tmp);
    }
    size_t len = strlen(buf) + 1;
    char *c = malloc(len);
    if (c) memcpy(c, buf, len);
    return c;
}

/* Everything a run needs; the dense M and G only on the dense path. */
static nsdae_status contact_alloc(contact_problem *cp, nsdae_error *err)
{
    const int nd = cp->nd, nc = cp->nc, dense = !cp->cols;
    const size_t C = (size_t)nc + 2, D = (size_t)nd + 1;
    cp->closed = calloc(C, 1);
    cp->label = calloc(C, 1);
    if (dense) {
        cp->M = calloc((size_t)nd * nd, sizeof *cp->M);
        cp->G = calloc((size_t)nc * nd + 1, sizeof *cp->G);
    }
    cp->F = calloc(D, sizeof *cp->F);
    cp->g = calloc(C, sizeof *cp->g);
    cp->P = calloc(C, sizeof *cp->P);
    cp->pre = calloc(2 * D, sizeof *cp->pre);
    cp->mult_atol = calloc(2 * C, sizeof *cp->mult_atol);
    cp->S = malloc(C * sizeof(int)), cp->idx = malloc(C * sizeof(int)), cp->pos = malloc(C * sizeof(int));
    cp->mark = calloc(C, sizeof(int)), cp->gstart = malloc(C * sizeof(int)), cp->row_active = malloc(C * sizeof(int));
    cp->qv = malloc(C * sizeof(double)), cp->zc = malloc(C * sizeof(double)), cp->gd = malloc(C * sizeof(double));
    cp->qK = malloc(C * sizeof(double)), cp->zK = malloc(C * sizeof(double)), cp->row_P = malloc(C * sizeof(double));
    cp->acc = malloc(D * sizeof(double)), cp->qs = malloc(D * sizeof(double));
    cp->unit = (mass_factor){.n = nd, .kd = 0, .band = malloc(D * sizeof(double))};
    cp->state_names = calloc(2 * D, sizeof *cp->state_names);
    cp->impulse_names = calloc(C, sizeof *cp->impulse_names);
    nsdae_error e2;
    int readers = mass_columns_init(&cp->Mc, cp->sys, &e2) == NSDAE_OK &&
                  (nc == 0 || (contact_rows_init(&cp->Gr, cp->sys, &e2) == NSDAE_OK &&
                               contact_rows_init(&cp->Gs, cp->sys, &e2) == NSDAE_OK));
    if (!readers || !cp->closed || !cp->label || (dense && (!cp->M || !cp->G)) || !cp->F || !cp->g || !cp->P ||
        !cp->pre || !cp->mult_atol || !cp->S || !cp->idx || !cp->pos || !cp->mark || !cp->gstart || !cp->row_active ||
        !cp->qv || !cp->zc || !cp->gd || !cp->qK || !cp->zK || !cp->row_P || !cp->acc || !cp->qs || !cp->unit.band ||
        !cp->state_names || !cp->impulse_names)
        return nsdae_error_set(err, NSDAE_NOMEM, "event-driven contact engine: out of memory");
    for (int c = 0; c < nc; c++) cp->pos[c] = -1;
    if (nc && !cp->Gr.dense && !(cp->gplus = malloc(((size_t)cp->Gr.rowptr[nc] + 1) * sizeof *cp->gplus)))
        return nsdae_error_set(err, NSDAE_NOMEM, "event-driven contact engine: out of memory");
    for (int j = 0; j < nd; j++) cp->unit.band[j] = 1.0;
    for (int i = 0; i < nd; i++) {
        const char *nm = cp->s->q_names ? cp->s->q_names[i] : NULL;
        cp->state_names[i] = name_of("%s", nm, "q", i);
        cp->state_names[nd + i] = name_of("der(%s)", nm, "q", i);
        if (!cp->state_names[i] || !cp->state_names[nd + i])
            return nsdae_error_set(err, NSDAE_NOMEM, "event-driven contact engine: out of memory");
    }
    for (int c = 0; c < nc; c++) {
        cp->impulse_names[c] = name_of("P_%s", cp->s->c_names ? cp->s->c_names[c] : NULL, "contact", c);
        if (!cp->impulse_names[c]) return nsdae_error_set(err, NSDAE_NOMEM, "event-driven contact engine: out of memory");
    }
    return NSDAE_OK;
}

nsdae_status nsdae_events_run_contact(const nsdae_lagrangian *s, const nsdae_events_options *o,
                                      nsdae_contact_callback on_row, nsdae_event_callback on_event, void *ctx,
                                      nsdae_events_summary *summary, nsdae_error *err)
{
    nsdae_events_summary local;
    nsdae_events_summary *sum = summary ? summary : &local;
    memset(sum, 0, sizeof *sum);
    sum->first_accumulation = NAN;
    if (!s || !o || !on_row) return nsdae_error_set(err, NSDAE_INVALID_INPUT, "event-driven run: system, options and row callback are required");
    nsdae_status st = nsdae_lagrangian_validate(s, err);
    if (st) return st;
    /* Coulomb friction is a Moreau-Jean feature (moreau_jean.c): refused rather than dropped */
    for (int c = 0; c < s->ncontacts; c++)
        if (s->friction && s->friction[c] > 0.0)
            return nsdae_error_set(err, NSDAE_UNSUPPORTED, "event-driven run: contact %d has friction (mu = %g); "
                                   "the event-driven engine is frictionless, use the Moreau-Jean scheme", c,
                                   s->friction[c]);
    contact_problem cp = {0};
    cp.s = cp.sys = s;
    cp.o = ed_options_resolved(o);
    cp.nd = s->ndof;
    cp.nc = s->ncontacts;
    cp.n = 2 * s->ndof + 2 * s->ncontacts;
    cp.on_row = on_row;
    cp.on_event = on_event;
    cp.ctx = ctx;
    cp.sum = sum;
    if (o->linsol < NSDAE_EVENTS_LINSOL_AUTO || o->linsol > NSDAE_EVENTS_LINSOL_SPARSE)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "event-driven run: linsol %d is none of auto, dense, sparse",
                               (int)o->linsol);
    /* AUTO: KLU from NSDAE_EVENTS_SPARSE_MIN unknowns when the system gives its structure (a
     * translated one does); without it the dense path, which such a system is anyway */
    const int structured = s->mass_colptr && s->force_colptr && (s->ncontacts == 0 || s->gap_rowptr);
    const int sparse = o->linsol == NSDAE_EVENTS_LINSOL_SPARSE ||
                       (o->linsol == NSDAE_EVENTS_LINSOL_AUTO && structured && cp.n >= NSDAE_EVENTS_SPARSE_MIN);
    if (sparse) {
        if (contact_view_create(&cp.view, s) || !(cp.cols = malloc(sizeof *cp.cols)) ||
            contact_columns_create(cp.cols, &cp.view.sys))
            st = nsdae_error_set(err, NSDAE_NOMEM,
                                 "event-driven contact engine: out of memory for the compressed columns");
        cp.sys = &cp.view.sys;
    }
    if (!st) st = contact_alloc(&cp, err);
    if (!st) {
        ed_problem p = {cp.n, cp.nc, &cp, contact_residual, NULL, contact_roots, contact_mode_setup, NULL,
                        contact_event, contact_row, contact_label, NULL, 0, NULL};   /* dense LU */
        if (cp.cols) {
            p.residual = contact_residual_sparse;
            p.nnz = cp.cols->nnz;
            p.jacobian_csc = contact_jacobian_csc;
        }
        st = ed_run(&p, &cp.o, sum, err);
    }
    sum->modes_visited = cp.modes.n;
    contact_free(&cp);
    return st;
}
