/* Diagnostics of the restart analysis (Benveniste et al. 2026, section 7.1 and diagnostics D1-D8): a code,
 * a message, and the names of the array equations and variables involved. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impulse/impulse_diag.h"

static char *dup_text(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p) memcpy(p, s, n);
    return p;
}

nsdae_impulse_diag *imp_diag_add(nsdae_impulse_result *r, const char *code, const char *fmt, ...)
{
    nsdae_impulse_diag *d = realloc(r->diags, (size_t)(r->ndiags + 1) * sizeof *d);
    if (!d) return NULL;
    r->diags = d;
    d = &r->diags[r->ndiags];
    memset(d, 0, sizeof *d);
    snprintf(d->code, sizeof d->code, "%s", code);
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    d->message = dup_text(buf);
    if (!d->message) return NULL;
    r->ndiags++;
    return d;
}

static int push_name(char ***list, int *n, const char *name)
{
    for (int i = 0; i < *n; i++)
        if (!strcmp((*list)[i], name)) return 0;
    char **p = realloc(*list, (size_t)(*n + 1) * sizeof *p);
    if (!p) return -1;
    *list = p;
    p[*n] = dup_text(name);
    if (!p[*n]) return -1;
    (*n)++;
    return 0;
}

int imp_diag_eq(const imp_ctx *cx, const imp_array *a, nsdae_impulse_diag *d, int e)
{
    char buf[256];
    imp_aeq_name(cx, a, &a->e[e], buf, sizeof buf);
    return push_name(&d->equations, &d->nequations, buf);
}

int imp_diag_var(const imp_ctx *cx, const imp_array *a, nsdae_impulse_diag *d, int v)
{
    char buf[256];
    imp_avar_name(cx, &a->v[v], buf, sizeof buf);
    return push_name(&d->variables, &d->nvariables, buf);
}

void imp_diags_free(nsdae_impulse_result *r)
{
    for (int i = 0; i < r->ndiags; i++) {
        nsdae_impulse_diag *d = &r->diags[i];
        free(d->message);
        for (int k = 0; k < d->nequations; k++) free(d->equations[k]);
        for (int k = 0; k < d->nvariables; k++) free(d->variables[k]);
        free(d->equations);
        free(d->variables);
    }
    free(r->diags);
    r->diags = NULL;
    r->ndiags = 0;
}
