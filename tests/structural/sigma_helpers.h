/* Test helpers: build a signature matrix from names and a row-major table, look names up. */
#ifndef NSDAE_TEST_SIGMA_HELPERS_H
#define NSDAE_TEST_SIGMA_HELPERS_H

#include <criterion/criterion.h>
#include <string.h>

#include <nsdae/structural.h>

#define N_ NSDAE_SIGMA_NONE

static inline nsdae_sigma *make_sigma(int neq, int nvar, const char *const *eqs, const char *const *vars,
                                      const int *table)
{
    nsdae_sigma *s = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_sigma_create(neq, nvar, &s, &err), NSDAE_OK, "%s", err.message);
    for (int i = 0; i < neq; i++) cr_assert_eq(nsdae_sigma_set_name(s, 'e', i, eqs[i], &err), NSDAE_OK);
    for (int j = 0; j < nvar; j++) cr_assert_eq(nsdae_sigma_set_name(s, 'v', j, vars[j], &err), NSDAE_OK);
    for (int i = 0; i < neq; i++)
        for (int j = 0; j < nvar; j++)
            cr_assert_eq(nsdae_sigma_set(s, i, j, table[i * nvar + j], &err), NSDAE_OK, "%s", err.message);
    return s;
}

static inline nsdae_structural_result *analyze(const nsdae_sigma *s)
{
    nsdae_structural_result *r = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_structural_analyze(s, &r, &err), NSDAE_OK, "%s", err.message);
    cr_assert_not_null(r);
    return r;
}

static inline int eq_index(const nsdae_structural_result *r, const char *name)
{
    for (int i = 0; i < r->neq; i++) if (strcmp(r->eq_names[i], name) == 0) return i;
    cr_assert_fail("no equation %s", name);
    return -1;
}

static inline int var_index(const nsdae_structural_result *r, const char *name)
{
    for (int j = 0; j < r->nvar; j++) if (strcmp(r->var_names[j], name) == 0) return j;
    cr_assert_fail("no unknown %s", name);
    return -1;
}

/* Whether the list holds x_var^(order). */
static inline int has_deriv(const nsdae_structural_deriv *list, int n, int var, int order)
{
    for (int k = 0; k < n; k++) if (list[k].var == var && list[k].order == order) return 1;
    return 0;
}

/* The block that solves equation i, or -1. */
static inline int block_of(const nsdae_structural_result *r, int i)
{
    for (int b = 0; b < r->nblocks; b++)
        for (int k = 0; k < r->blocks[b].n; k++) if (r->blocks[b].eqs[k] == i) return b;
    return -1;
}

#endif
