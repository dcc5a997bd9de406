/* The signature matrix: allocation, names, entries. */
#include <nsdae/structural.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *copy_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p) memcpy(p, s, n);
    return p;
}

void nsdae_sigma_destroy(nsdae_sigma *s)
{
    if (!s) return;
    for (int i = 0; s->eq_names && i < s->neq; i++) free(s->eq_names[i]);
    for (int j = 0; s->var_names && j < s->nvar; j++) free(s->var_names[j]);
    free(s->eq_names);
    free(s->var_names);
    free(s->s);
    free(s);
}

nsdae_status nsdae_sigma_create(int neq, int nvar, nsdae_sigma **out, nsdae_error *err)
{
    *out = NULL;
    /* The bound keeps neq * nvar and every index sum well inside int. */
    if (neq < 0 || nvar < 0 || neq > 100000 || nvar > 100000 || (long long)neq * nvar > 50000000LL)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT,
                               "structural: signature matrix size %d x %d (need 0..100000 each, at most 5e7 entries)",
                               neq, nvar);
    nsdae_sigma *s = calloc(1, sizeof *s);
    if (!s) return nsdae_error_set(err, NSDAE_NOMEM, "structural: out of memory");
    s->neq = neq;
    s->nvar = nvar;
    s->s = malloc(((size_t)neq * (size_t)nvar + 1) * sizeof *s->s);
    s->eq_names = calloc((size_t)neq + 1, sizeof *s->eq_names);
    s->var_names = calloc((size_t)nvar + 1, sizeof *s->var_names);
    int ok = s->s && s->eq_names && s->var_names;
    for (int i = 0; ok && i < neq; i++) {
        char buf[32];
        snprintf(buf, sizeof buf, "e%d", i + 1);
        ok = (s->eq_names[i] = copy_string(buf)) != NULL;
    }
    for (int j = 0; ok && j < nvar; j++) {
        char buf[32];
        snprintf(buf, sizeof buf, "x%d", j + 1);
        ok = (s->var_names[j] = copy_string(buf)) != NULL;
    }
    if (!ok) {
        nsdae_sigma_destroy(s);
        return nsdae_error_set(err, NSDAE_NOMEM, "structural: out of memory");
    }
    for (size_t k = 0; k < (size_t)neq * (size_t)nvar; k++) s->s[k] = NSDAE_SIGMA_NONE;
    *out = s;
    return NSDAE_OK;
}

nsdae_status nsdae_sigma_set_name(nsdae_sigma *s, char which, int index, const char *name, nsdae_error *err)
{
    if (!s || !name || (which != 'e' && which != 'v'))
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "structural: set_name needs a matrix, 'e' or 'v', and a name");
    int n = which == 'e' ? s->neq : s->nvar;
    if (index < 0 || index >= n)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "structural: %s index %d out of range 0..%d",
                               which == 'e' ? "equation" : "unknown", index, n - 1);
    char *p = copy_string(name);
    if (!p) return nsdae_error_set(err, NSDAE_NOMEM, "structural: out of memory");
    char **names = which == 'e' ? s->eq_names : s->var_names;
    free(names[index]);
    names[index] = p;
    return NSDAE_OK;
}

static nsdae_status check_entry(const nsdae_sigma *s, int i, int j, int order, nsdae_error *err)
{
    if (!s || i < 0 || i >= s->neq || j < 0 || j >= s->nvar)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "structural: entry (%d, %d) outside the %d x %d signature matrix",
                               i, j, s ? s->neq : 0, s ? s->nvar : 0);
    if (order != NSDAE_SIGMA_NONE && (order < 0 || order > NSDAE_SIGMA_MAX_ORDER))
        return nsdae_error_set(err, NSDAE_INVALID_INPUT,
                               "structural: derivative order %d of '%s' in '%s' (need 0..%d)", order,
                               s->var_names[j], s->eq_names[i], NSDAE_SIGMA_MAX_ORDER);
    return NSDAE_OK;
}

nsdae_status nsdae_sigma_set(nsdae_sigma *s, int i, int j, int order, nsdae_error *err)
{
    nsdae_status st = check_entry(s, i, j, order, err);
    if (st != NSDAE_OK) return st;
    s->s[(size_t)i * s->nvar + j] = order;
    return NSDAE_OK;
}

nsdae_status nsdae_sigma_raise(nsdae_sigma *s, int i, int j, int order, nsdae_error *err)
{
    nsdae_status st = check_entry(s, i, j, order, err);
    if (st != NSDAE_OK) return st;
    int *e = &s->s[(size_t)i * s->nvar + j];
    if (order > *e) *e = order; /* NSDAE_SIGMA_NONE is INT_MIN, below every order */
    return NSDAE_OK;
}

int nsdae_sigma_get(const nsdae_sigma *s, int i, int j)
{
    if (!s || i < 0 || i >= s->neq || j < 0 || j >= s->nvar) return NSDAE_SIGMA_NONE;
    return s->s[(size_t)i * s->nvar + j];
}
