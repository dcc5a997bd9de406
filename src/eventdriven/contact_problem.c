/* The contact form's mode DAE for IDA (unknowns and equations in contact_internal.h), its roots
 * (an open contact's gap reaching 0, a closed contact's force reaching 0) and its rows, and the
 * public entry nsdae_events_run_contact. The Jacobian is IDA's difference quotients: the contact
 * form gives M, F and G as callbacks, not their derivatives. */
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

/* Open: the gap; closed: the force. Both end the mode when they reach 0 from above. */
static int contact_roots(double t, const double *z, double *gout, void *self)
{
    (void)t;
    contact_problem *cp = self;
    if (cp->s->gaps(z, cp->g, cp->s->ctx)) return 1;
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
    int *active = calloc((size_t)cp->nc + 1, sizeof *active);
    double *P = calloc((size_t)cp->nc + 1, sizeof *P);
    int nactive = 0;
    for (int c = 0; c < cp->nc; c++) {
        active[c] = cp->closed[c];
        nactive += cp->closed[c];
        if (kind == 2) P[c] = cp->P[c];
    }
    nsdae_contact_record rec = {k, t, z, z + cp->nd, P, active, nactive, 0.0, NULL}; /* no friction here */
    int rc = active && P ? cp->on_row(&rec, cp->ctx) : 1;
    free(active);
    free(P);
    return rc;
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
    free(cp->closed);
    free(cp->label);
    free(cp->M);
    free(cp->F);
    free(cp->G);
    free(cp->g);
    free(cp->Mf);
    free(cp->P);
    free(cp->pre);
    free(cp->mult_atol);
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

static nsdae_status contact_alloc(contact_problem *cp, nsdae_error *err)
{
    const int nd = cp->nd, nc = cp->nc;
    cp->closed = calloc((size_t)nc + 1, 1);
    cp->label = calloc((size_t)nc + 2, 1);
    cp->M = calloc((size_t)nd * nd, sizeof *cp->M);
    cp->Mf = calloc((size_t)nd * nd, sizeof *cp->Mf);
    cp->F = calloc((size_t)nd, sizeof *cp->F);
    cp->G = calloc((size_t)nc * nd + 1, sizeof *cp->G);
    cp->g = calloc((size_t)nc + 1, sizeof *cp->g);
    cp->P = calloc((size_t)nc + 1, sizeof *cp->P);
    cp->pre = calloc((size_t)2 * nd, sizeof *cp->pre);
    cp->mult_atol = calloc((size_t)2 * nc + 1, sizeof *cp->mult_atol);
    cp->state_names = calloc((size_t)2 * nd, sizeof *cp->state_names);
    cp->impulse_names = calloc((size_t)nc + 1, sizeof *cp->impulse_names);
    if (!cp->closed || !cp->label || !cp->M || !cp->Mf || !cp->F || !cp->G || !cp->g || !cp->P || !cp->pre || !cp->mult_atol ||
        !cp->state_names || !cp->impulse_names)
        return nsdae_error_set(err, NSDAE_NOMEM, "event-driven contact engine: out of memory");
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
    cp.s = s;
    cp.o = ed_options_resolved(o);
    cp.nd = s->ndof;
    cp.nc = s->ncontacts;
    cp.n = 2 * s->ndof + 2 * s->ncontacts;
    cp.on_row = on_row;
    cp.on_event = on_event;
    cp.ctx = ctx;
    cp.sum = sum;
    st = contact_alloc(&cp, err);
    if (!st) {
        ed_problem p = {cp.n, cp.nc, &cp, contact_residual, NULL, contact_roots, contact_mode_setup, NULL,
                        contact_event, contact_row, contact_label, NULL, 0, NULL};   /* dense LU */
        st = ed_run(&p, &cp.o, sum, err);
    }
    sum->modes_visited = cp.modes.n;
    contact_free(&cp);
    return st;
}
