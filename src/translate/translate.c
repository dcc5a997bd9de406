/* Model IR -> MLCS: unknowns, phases, rows, then the matrices of every phase
 * (E y' = A y + B lambda + b, w = C y + D lambda + c; examples/LANGUAGE.md). */
#include "translate/translate_internal.h"
#include "translate/experiment.h"

#include "model/expr_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void tctx_free(tctx *T)
{
    for (int u = 0; u < T->nu; u++) free(T->uname[u]);
    nsdae_names_free(&T->unames);
    free(T->uname); free(T->u_site); free(T->u_var); free(T->vel); free(T->u_of_vel);
    free(T->sites);
    for (int p = 0; p < T->nphases; p++) {
        free(T->phases[p].rows.v);
        free(T->phases[p].active);
        free(T->phases[p].choice);
    }
    free(T->phases);
}

void nsdae_translate_info_free(nsdae_translate_info *info)
{
    if (!info) return;
    free(info->y_role); free(info->y_var); free(info->l_var);
    free(info);
}

/* Value of a coefficient that must be constant; refuses time-dependent ones. */
static int coef_value(tctx *T, const nsdae_expr *c, const nsdae_equation *eq, int u, int order, double *v)
{
    *v = 0.0;
    if (c->kind == NSDAE_EXPR_CONST) {
        *v = c->value;
        return 1;
    }
    char name[300];
    snprintf(name, sizeof name, order ? "der(%s)" : "%s", T->uname[u]);
    if (c->flags & NSDAE_EXPR_HAS_TIME)
        nsdae_tr_fail(T, eq, "the coefficient of '%s' depends on time: an MLCS needs constant coefficients", name);
    else
        nsdae_tr_fail(T, eq, "the coefficient of '%s' is not a finite constant (division by zero?)", name);
    return 0;
}

/* The constant or time-dependent remainder of a row: constant into *v, time part into the forcing. */
static int rest_value(tctx *T, tphase_ctx *pc, int phase, char which, int row, const nsdae_expr *r,
                      const nsdae_equation *eq, double sign, double *v)
{
    if (r->kind == NSDAE_EXPR_CONST) {
        *v = r->value != 0.0 ? sign * r->value : 0.0;
        return 1;
    }
    if (r->flags & NSDAE_EXPR_HAS_VAR) {
        nsdae_tr_fail(T, eq, "internal: remainder depends on the unknowns");
        return 0;
    }
    *v = 0.0;
    const nsdae_expr *term = sign < 0 ? X_NEG(T->p, r) : r;
    if (!term || !nsdae_tr_phase_ctx_add_term(pc, phase, which, row, term)) {
        nsdae_tr_nomem(T);
        return 0;
    }
    return 1;
}

/* The entries of one matrix of one phase, as the translator finds them (row by row). */
typedef struct entries {
    int *row, *col;
    double *val;
    int n, cap;
} entries;

static int add_entry(tctx *T, entries *m, int i, int j, double v)
{
    if (v == 0.0) return 1;
    if (m->n == m->cap) {
        int cap = m->cap ? 2 * m->cap : 64;
        int *r = realloc(m->row, (size_t)cap * sizeof *r);
        if (r) m->row = r;
        int *c = realloc(m->col, (size_t)cap * sizeof *c);
        if (c) m->col = c;
        double *x = realloc(m->val, (size_t)cap * sizeof *x);
        if (x) m->val = x;
        if (!r || !c || !x) {
            nsdae_tr_nomem(T);
            return 0;
        }
        m->cap = cap;
    }
    m->row[m->n] = i;
    m->col[m->n] = j;
    m->val[m->n++] = v;
    return 1;
}

static int cmp_leaf(const void *a, const void *b)
{
    int x = ((const nsdae_affine_term *)a)->leaf, y = ((const nsdae_affine_term *)b)->leaf;
    return x < y ? -1 : x > y;
}

/* The affine terms of e (leaf 2u + order of unknown u), sorted by unknown then order: the order
 * in which a slot per unknown was read, so that the first offending coefficient is reported. */
static int terms_of(tctx *T, nsdae_affine_work *w, const nsdae_expr *e, const nsdae_equation *eq,
                    nsdae_affine_term **terms, int *n, const nsdae_expr **rest)
{
    const nsdae_affine_term *t;
    nsdae_error e2;
    nsdae_status st = nsdae_expr_affine_terms(T->p, e, w, (const char *const *)T->uname, T->nu, &t, n, rest, &e2);
    if (st == NSDAE_UNSUPPORTED) nsdae_tr_fail(T, eq, "%s", e2.message);
    else if (st) nsdae_tr_nomem(T);
    if (st) return 0;
    *terms = (nsdae_affine_term *)t; /* w's own stack, ours until the next decomposition */
    if (*n > 1) /* no terms (C*der(vC) = -0 with C = 0) gives t = NULL, which qsort must not get */
        qsort(*terms, (size_t)*n, sizeof **terms, cmp_leaf);
    return 1;
}

/* The constant coefficients (v0, v1) of unknown u and its derivative from terms[*k ..] (which
 * name u), advancing *k past them. */
static int unknown_coefs(tctx *T, const nsdae_affine_term *terms, int n, int *k, const nsdae_equation *eq,
                         int *u, double *v0, double *v1)
{
    *u = terms[*k].leaf / 2;
    *v0 = *v1 = 0.0;
    for (; *k < n && terms[*k].leaf / 2 == *u; ++*k)
        if (!coef_value(T, terms[*k].coef, eq, *u, terms[*k].leaf % 2, terms[*k].leaf % 2 ? v1 : v0)) return 0;
    return 1;
}

/* The translated matrices of one phase: 0 E, 1 A, 2 B, 3 C, 4 D. */
typedef struct phase_entries {
    entries m[5];
} phase_entries;

/* Rows E y' = A y + B lambda + b of phase p. */
static void fill_y_rows(tctx *T, nsdae_affine_work *w, tphase_ctx *pc, nsdae_mlcs *s, phase_entries *pe, int p,
                        const int *col)
{
    for (int i = 0; i < s->ny && !T->st; i++) {
        const row *r = &T->phases[p].rows.v[i];
        const nsdae_expr *rest;
        nsdae_affine_term *t;
        int n;
        if (!terms_of(T, w, r->r, r->eq, &t, &n, &rest)) return;
        for (int k = 0; k < n && !T->st;) {
            int u;
            double v0, v1;
            if (!unknown_coefs(T, t, n, &k, r->eq, &u, &v0, &v1)) return;
            if (T->u_site[u] >= 0) {
                if (v1 != 0.0) {
                    nsdae_tr_fail(T, r->eq, "'%s' is a multiplier and cannot be differentiated", T->uname[u]);
                    return;
                }
                add_entry(T, &pe->m[2], i, col[u], -v0);
            } else {
                add_entry(T, &pe->m[0], i, col[u], v1);
                add_entry(T, &pe->m[1], i, col[u], -v0);
            }
        }
        if (!T->st) rest_value(T, pc, p, 'b', i, rest, r->eq, -1.0, &s->phases[p].b[i]);
    }
}

/* Rows w = C y + D lambda + c of phase p. */
static void fill_l_rows(tctx *T, nsdae_affine_work *w, tphase_ctx *pc, nsdae_mlcs *s, phase_entries *pe, int p,
                        const int *col)
{
    for (int k = 0; k < s->nl && !T->st; k++) {
        const site *x = &T->sites[k];
        int active = k < T->phases[p].cap_active && T->phases[p].active[k];
        if (!active) { /* w = lambda: the multiplier of an absent construct is 0 */
            add_entry(T, &pe->m[4], k, k, 1.0);
            continue;
        }
        const nsdae_expr *rest;
        nsdae_affine_term *t;
        int n;
        if (!terms_of(T, w, x->w, x->eq, &t, &n, &rest)) return;
        for (int q = 0; q < n && !T->st;) {
            int u;
            double v0, v1;
            if (!unknown_coefs(T, t, n, &q, x->eq, &u, &v0, &v1)) return;
            if (v1 != 0.0) {
                nsdae_tr_fail(T, x->eq, "der(%s) inside a set-valued relation: an MLCS relation holds between "
                                        "the unknowns, not their derivatives", T->uname[u]);
                return;
            }
            add_entry(T, &pe->m[T->u_site[u] >= 0 ? 4 : 3], k, col[u], v0);
        }
        if (!T->st) rest_value(T, pc, p, 'c', k, rest, x->eq, 1.0, &s->phases[p].c[k]);
    }
}

/* The matrices of every phase, compressed. */
static void fill_matrices(tctx *T, tphase_ctx *pc, nsdae_mlcs *s, const int *col)
{
    nsdae_affine_work *w = NULL;
    phase_entries pe;
    memset(&pe, 0, sizeof pe);
    nsdae_error e2;
    if (nsdae_affine_work_create(T->nu, 2, &w, &e2)) {
        nsdae_tr_nomem(T);
        return;
    }
    static const char names[] = "EABCD";
    for (int p = 0; p < T->nphases && !T->st; p++) {
        fill_y_rows(T, w, pc, s, &pe, p, col);
        fill_l_rows(T, w, pc, s, &pe, p, col);
        for (int q = 0; q < 5; q++) {
            entries *m = &pe.m[q];
            if (!T->st && nsdae_mlcs_set_entries(s, p, names[q], m->row, m->col, m->val, m->n, &e2)) nsdae_tr_nomem(T);
            m->n = 0;
        }
    }
    for (int q = 0; q < 5; q++) {
        free(pe.m[q].row); free(pe.m[q].col); free(pe.m[q].val);
    }
    nsdae_affine_work_destroy(w);
}

static int assemble(tctx *T, nsdae_mlcs **out, nsdae_translate_info **info)
{
    const nsdae_model *m = T->m;
    int nu = T->nu, nl = T->nsites, ny = 0;
    int *col = malloc((size_t)nu * sizeof *col);
    if (!col) { nsdae_tr_nomem(T); return 0; }
    for (int u = 0; u < nu; u++) col[u] = T->u_site[u] >= 0 ? T->u_site[u] : ny++;
    if (ny == 0) {
        free(col);
        nsdae_tr_fail(T, NULL, "the model has no unknown left for the differential-algebraic part");
        return 0;
    }
    for (int p = 0; p < T->nphases; p++)
        if (T->phases[p].rows.n != ny) {
            free(col);
            nsdae_tr_fail(T, NULL, "%d equations for %d unknowns%s (after relaxation: relations count with their "
                                   "multipliers); the model must be square",
                          T->phases[p].rows.n, ny, T->nphases > 1 ? " in a time-guarded phase" : "");
            return 0;
        }
    nsdae_mlcs *s;
    nsdae_error e2;
    if (nsdae_mlcs_create_sparse(ny, nl, T->nphases, &s, &e2)) {
        free(col);
        nsdae_tr_nomem(T);
        return 0;
    }
    tphase_ctx *pc = nsdae_tr_phase_ctx_create(T);
    if (!pc) {
        nsdae_tr_nomem(T);
        goto fail;
    }
    fill_matrices(T, pc, s, col);
    for (int k = 0; k < nl && !T->st; k++) {
        s->kind[k] = T->sites[k].kind;
        s->lo[k] = T->sites[k].kind == NSDAE_ROW_BOX ? T->sites[k].lo : 0.0;
        s->hi[k] = T->sites[k].kind == NSDAE_ROW_BOX ? T->sites[k].hi : INFINITY;
    }
    for (int u = 0; u < nu && !T->st; u++) {
        if (nsdae_mlcs_set_name(s, T->u_site[u] >= 0 ? 'l' : 'y', col[u], T->uname[u], &e2)) nsdae_tr_nomem(T);
        if (T->u_site[u] >= 0) continue;
        if (T->u_var[u] >= 0) s->y0[col[u]] = nsdae_model_start_value(m, T->u_var[u], 0);
        else if (T->u_of_vel[u] >= 0) s->y0[col[u]] = nsdae_model_start_value(m, T->u_of_vel[u], 1);
    }
    nsdae_tr_experiment_defaults(m, &s->stop_time, &s->step, s->scheme, &s->theta, &s->gamma);
    if (!T->st && !nsdae_tr_phase_ctx_install(pc, s)) nsdae_tr_nomem(T); /* owned by s from here */
    if (!T->st && nsdae_mlcs_validate(s, &e2)) /* on the compressed form: O(entries) */
        nsdae_tr_fail(T, NULL, "the translated MLCS is invalid: %s", e2.message);
    /* small systems dense at once (2 MB per ny x ny matrix at the limit): what every consumer read
     * before the compressed form, and cheaper than asking for it */
    if (!T->st && s->ny + s->nl <= NSDAE_TRANSLATE_DENSE_AT_ONCE && nsdae_mlcs_dense(s, &e2)) nsdae_tr_nomem(T);
    if (T->st) goto fail;
    if (info) {
        nsdae_translate_info *in = calloc(1, sizeof *in);
        if (in) {
            in->ny = ny;
            in->nl = nl;
            in->nphases = T->nphases;
            in->y_role = calloc((size_t)ny, sizeof *in->y_role);
            in->y_var = calloc((size_t)ny, sizeof *in->y_var);
            in->l_var = calloc((size_t)nl + 1, sizeof *in->l_var);
        }
        int *diff = malloc((size_t)ny * sizeof *diff);
        if (!in || !in->y_role || !in->y_var || !in->l_var || !diff) {
            free(diff);
            nsdae_translate_info_free(in);
            nsdae_tr_nomem(T);
            goto fail;
        }
        nsdae_mlcs_differential(s, diff);
        for (int u = 0; u < nu; u++) {
            if (T->u_site[u] >= 0) {
                in->l_var[col[u]] = T->u_var[u];
            } else {
                in->y_var[col[u]] = T->u_var[u];
                in->y_role[col[u]] = diff[col[u]] ? NSDAE_ROLE_DIFFERENTIAL : NSDAE_ROLE_ALGEBRAIC;
            }
        }
        for (int k = 0; k < nl; k++) {
            if (s->kind[k] == NSDAE_ROW_EQUALITY) in->n_equality++;
            else if (s->kind[k] == NSDAE_ROW_BOX) in->n_box++;
            else in->n_complementarity++;
        }
        free(diff);
        *info = in;
    }
    free(col);
    *out = s;
    return 1;
fail:
    free(col);
    if (s->ctx != pc) nsdae_tr_phase_ctx_free(pc);
    nsdae_mlcs_destroy(s);
    return 0;
}

nsdae_status nsdae_translate_mlcs(const nsdae_model *m, nsdae_mlcs **out, nsdae_translate_info **info,
                                  nsdae_error *err)
{
    *out = NULL;
    if (info) *info = NULL;
    if (!m) return nsdae_error_set(err, NSDAE_INVALID_INPUT, "translate: no model");
    nsdae_status fst = nsdae_model_check_finite(m, err);
    if (fst != NSDAE_OK) return fst;
    tctx T;
    memset(&T, 0, sizeof T);
    T.m = m;
    T.err = err;
    T.nvars = nsdae_model_nvars(m);
    /* the MLCS keeps no expression: what translation builds dies with T.p (its tapes are copies) */
    nsdae_status pst = nsdae_expr_pool_create_over(nsdae_model_pool(m), &T.p, err);
    if (pst != NSDAE_OK) return pst;
    T.vel = malloc(((size_t)T.nvars + 1) * sizeof *T.vel);
    if (!T.vel) {
        nsdae_expr_pool_destroy(T.p);
        return nsdae_error_set(err, NSDAE_NOMEM, "translate: out of memory");
    }
    for (int j = 0; j < T.nvars && !T.st; j++) {
        T.vel[j] = -1;
        int u = nsdae_tr_new_unknown(&T, nsdae_model_var(m, j)->name);
        if (u >= 0) T.u_var[u] = j;
    }
    /* second-order variables get a velocity unknown named der(x) */
    for (int j = 0; j < T.nvars && !T.st; j++) {
        if (nsdae_model_var(m, j)->max_order < 2) continue;
        char name[300];
        snprintf(name, sizeof name, "der(%s)", nsdae_model_var(m, j)->name);
        int u = nsdae_tr_new_unknown(&T, name);
        if (u < 0) break;
        T.vel[j] = u;
        T.u_of_vel[u] = j;
    }
    if (!T.st) nsdae_tr_enumerate_phases(&T);
    for (int p = 0; p < T.nphases && !T.st; p++) {
        T.cur = p;
        nsdae_tr_collect(&T, -1, -1, &T.phases[p].rows, 0);
        for (int j = 0; j < T.nvars && !T.st; j++) /* der(x) = v_x */
            if (T.vel[j] >= 0)
                nsdae_tr_push_row(&T, &T.phases[p].rows,
                                  X_SUB(T.p, nsdae_expr_var(T.p, j, 1), nsdae_expr_var(T.p, T.vel[j], 0)), NULL);
    }
    if (!T.st && nsdae_expr_pool_failed(T.p)) nsdae_tr_nomem(&T);
    if (!T.st) assemble(&T, out, info);
    nsdae_status st = T.st;
    tctx_free(&T);
    nsdae_expr_pool_destroy(T.p);
    return st;
}
