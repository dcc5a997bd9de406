/* State shared by the translation files (not public). */
#ifndef NSDAE_TRANSLATE_INTERNAL_H
#define NSDAE_TRANSLATE_INTERNAL_H

#include "model/names.h"

#include <nsdae/mode.h>
#include <nsdae/translate.h>

/* A set-valued row: w = (affine expression in the unknowns), paired with multiplier `lambda`. */
typedef enum site_key { KEY_NODE, KEY_EQ, KEY_BLOCK } site_key;

typedef struct site {
    site_key key;
    const void *key_ptr;      /* KEY_NODE: the relaxed argument node */
    int key_a, key_b, key_c;  /* KEY_NODE: function kind; KEY_EQ: equation; KEY_BLOCK: block, cond, 0 step/1 minus */
    nsdae_row_kind kind;
    double lo, hi;
    const nsdae_expr *w;
    int lambda;               /* unknown index */
    const nsdae_equation *eq; /* for messages */
} site;

/* One row E y' = A y + B lambda + b written as residual r(y', y, lambda, t) = 0. */
typedef struct row {
    const nsdae_expr *r;
    const nsdae_equation *eq; /* NULL for velocity rows */
} row;

typedef struct row_list {
    row *v;
    int n, cap;
} row_list;

typedef struct phase_data {
    row_list rows;
    unsigned char *active;    /* per site */
    int cap_active;
    int *choice;              /* per block: selected branch of a time-guarded block, -1 otherwise */
} phase_data;

typedef struct tctx {
    const nsdae_model *m;
    nsdae_expr_pool *p;
    nsdae_error *err;
    nsdae_status st;
    int nvars;

    /* unknowns: model variables first (index = variable index), then velocities, then multipliers */
    int nu, cap_u;
    char **uname;
    name_table unames;        /* uname -> unknown: the uniqueness check of a new name in O(1) */
    int *u_site;              /* site whose multiplier this unknown is, or -1 */
    int *u_var;               /* model variable, or -1 */
    int *vel;                 /* per model variable: its velocity unknown, or -1 */
    int *u_of_vel;            /* per unknown: the variable whose velocity it is, or -1 */

    site *sites;
    int nsites, cap_sites;

    phase_data *phases;
    int nphases, cur;
} tctx;

/* Sets an UNSUPPORTED error "file:line:col: equation 'text': message" (eq may be NULL). */
void nsdae_tr_fail(tctx *T, const nsdae_equation *eq, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void nsdae_tr_nomem(tctx *T);
int nsdae_tr_new_unknown(tctx *T, const char *name);
int nsdae_tr_push_row(tctx *T, row_list *l, const nsdae_expr *r, const nsdae_equation *eq);
/* Finds or creates a site; marks it active in the current phase. Returns its index, -1 on error. */
int nsdae_tr_site(tctx *T, site_key key, const void *ptr, int a, int b, int c, nsdae_row_kind kind, double lo,
                  double hi, const nsdae_equation *eq, const char *lambda_name, int lambda);
void nsdae_tr_set_site_w(tctx *T, int s, const nsdae_expr *w);
size_t nsdae_tr_print(tctx *T, const nsdae_expr *e, char *buf, size_t size);

/* Parameters bound, der(der(x)) reduced, abs/min/max/sign relaxed into multipliers. */
const nsdae_expr *nsdae_tr_prepare(tctx *T, const nsdae_expr *e, const nsdae_equation *eq);
const nsdae_expr *nsdae_tr_bind(tctx *T, const nsdae_expr *e);

/* The rows of one (block, branch) in the current phase, recursively (block -1: top level). */
void nsdae_tr_collect(tctx *T, int block, int branch, row_list *out, int in_state);

/* Affine coefficients of e in every unknown (orders 0 and 1): coef[2u + order]. */
int nsdae_tr_affine(tctx *T, const nsdae_expr *e, const nsdae_equation *eq, const nsdae_expr **coef,
                    const nsdae_expr **rest);

/* Phases and forcing: enumeration of time-guard combinations and the owned callback context. */
int nsdae_tr_enumerate_phases(tctx *T);
typedef struct tphase_ctx tphase_ctx;
tphase_ctx *nsdae_tr_phase_ctx_create(tctx *T);
int nsdae_tr_phase_ctx_add_term(tphase_ctx *c, int phase, char which, int row, const nsdae_expr *e);
/* Compiles the terms and hands c to s (which then owns it); 0 when out of memory (c not handed). */
int nsdae_tr_phase_ctx_install(tphase_ctx *c, nsdae_mlcs *s);
void nsdae_tr_phase_ctx_free(void *c);

#endif
