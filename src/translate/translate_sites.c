/* Bookkeeping shared by the translation files: unknowns (with unique names), rows, set-valued
 * rows (sites) with their activity per phase, messages, and the affine decomposition in every
 * unknown. */
#include "translate/translate_internal.h"

#include "translate/equation_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void nsdae_tr_fail(tctx *T, const nsdae_equation *eq, const char *fmt, ...)
{
    if (T->st) return;
    va_list ap;
    va_start(ap, fmt);
    T->st = translate_equation_error(T->err, NSDAE_UNSUPPORTED, T->m, eq, fmt, ap);
    va_end(ap);
}

void nsdae_tr_nomem(tctx *T)
{
    if (!T->st) T->st = nsdae_error_set(T->err, NSDAE_NOMEM, "translate: out of memory");
}

size_t nsdae_tr_print(tctx *T, const nsdae_expr *e, char *buf, size_t size)
{
    return nsdae_expr_print(e, (const char *const *)T->uname, T->nu, NULL, 0, buf, size);
}

int nsdae_tr_new_unknown(tctx *T, const char *name)
{
    if (T->nu == T->cap_u) {
        int cap = T->cap_u ? 2 * T->cap_u : 16;
        char **n = realloc(T->uname, (size_t)cap * sizeof *n);
        if (n) T->uname = n;
        int *s = realloc(T->u_site, (size_t)cap * sizeof *s);
        if (s) T->u_site = s;
        int *v = realloc(T->u_var, (size_t)cap * sizeof *v);
        if (v) T->u_var = v;
        int *w = realloc(T->u_of_vel, (size_t)cap * sizeof *w);
        if (w) T->u_of_vel = w;
        if (!n || !s || !v || !w) {
            nsdae_tr_nomem(T);
            return -1;
        }
        T->cap_u = cap;
    }
    /* Names are unique: a repeated construct name gets a #k suffix. */
    char buf[300];
    snprintf(buf, sizeof buf, "%s", name);
    for (int k = 2, clash = 1; clash; k++) {
        clash = 0;
        if (nsdae_names_find(&T->unames, buf, strlen(buf), NULL) != NAME_NONE) clash = 1;
        if (clash) snprintf(buf, sizeof buf, "%s#%d", name, k);
    }
    T->uname[T->nu] = strdup(buf);
    if (!T->uname[T->nu] ||
        !nsdae_names_add(&T->unames, T->uname[T->nu], strlen(T->uname[T->nu]), NAME_VAR, T->nu)) {
        nsdae_tr_nomem(T);
        return -1;
    }
    T->u_site[T->nu] = -1;
    T->u_var[T->nu] = -1;
    T->u_of_vel[T->nu] = -1;
    return T->nu++;
}

int nsdae_tr_push_row(tctx *T, row_list *l, const nsdae_expr *r, const nsdae_equation *eq)
{
    if (!r) {
        nsdae_tr_nomem(T);
        return 0;
    }
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 16;
        row *v = realloc(l->v, (size_t)cap * sizeof *v);
        if (!v) {
            nsdae_tr_nomem(T);
            return 0;
        }
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = (row){r, eq};
    return 1;
}

static int mark_active(tctx *T, int s)
{
    phase_data *ph = &T->phases[T->cur];
    if (s >= ph->cap_active) {
        int cap = ph->cap_active ? 2 * ph->cap_active : 16;
        while (cap <= s) cap *= 2;
        unsigned char *a = realloc(ph->active, (size_t)cap);
        if (!a) {
            nsdae_tr_nomem(T);
            return 0;
        }
        memset(a + ph->cap_active, 0, (size_t)(cap - ph->cap_active));
        ph->active = a;
        ph->cap_active = cap;
    }
    ph->active[s] = 1;
    return 1;
}

int nsdae_tr_site(tctx *T, site_key key, const void *ptr, int a, int b, int c, nsdae_row_kind kind, double lo,
                  double hi, const nsdae_equation *eq, const char *lambda_name, int lambda)
{
    if (T->st) return -1;
    for (int s = 0; s < T->nsites; s++) {
        const site *x = &T->sites[s];
        if (x->key == key && x->key_ptr == ptr && x->key_a == a && x->key_b == b && x->key_c == c)
            return mark_active(T, s) ? s : -1;
    }
    if (T->nsites == T->cap_sites) {
        int cap = T->cap_sites ? 2 * T->cap_sites : 8;
        site *v = realloc(T->sites, (size_t)cap * sizeof *v);
        if (!v) {
            nsdae_tr_nomem(T);
            return -1;
        }
        T->sites = v;
        T->cap_sites = cap;
    }
    if (lambda < 0) lambda = nsdae_tr_new_unknown(T, lambda_name);
    if (lambda < 0) return -1;
    int s = T->nsites++;
    T->sites[s] = (site){key, ptr, a, b, c, kind, lo, hi, NULL, lambda, eq};
    T->u_site[lambda] = s;
    return mark_active(T, s) ? s : -1;
}

void nsdae_tr_set_site_w(tctx *T, int s, const nsdae_expr *w)
{
    if (!w) nsdae_tr_nomem(T);
    else T->sites[s].w = w;
}

int nsdae_tr_affine(tctx *T, const nsdae_expr *e, const nsdae_equation *eq, const nsdae_expr **coef,
                    const nsdae_expr **rest)
{
    nsdae_leaf *leaves = malloc((size_t)(2 * T->nu + 1) * sizeof *leaves);
    if (!leaves) {
        nsdae_tr_nomem(T);
        return 0;
    }
    for (int u = 0; u < T->nu; u++) {
        leaves[2 * u] = (nsdae_leaf){u, 0};
        leaves[2 * u + 1] = (nsdae_leaf){u, 1};
    }
    nsdae_error e2;
    nsdae_status st = nsdae_expr_affine(T->p, e, leaves, 2 * T->nu, (const char *const *)T->uname, T->nu, NULL, 0,
                                        coef, rest, &e2);
    free(leaves);
    if (st == NSDAE_UNSUPPORTED) nsdae_tr_fail(T, eq, "%s", e2.message);
    else if (st) nsdae_tr_nomem(T);
    return st == NSDAE_OK;
}
