/* Test helpers: analyse one mode of a model file under tests/structural/models or examples. */
#ifndef NSDAE_TEST_MODEL_HELPERS_H
#define NSDAE_TEST_MODEL_HELPERS_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include <nsdae/structural.h>

typedef struct analysed {
    nsdae_model *m;
    nsdae_switches *sw;
    int nsw;                    /* the long switches: digits of a mode code */
    nsdae_structural_mode *md;
    const nsdae_structural_result *r;
} analysed;

static inline analysed analyse_mode(const char *relpath, const char *code)
{
    analysed a = {0};
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", NSDAE_SOURCE_DIR, relpath);
    nsdae_error err = {0};
    cr_assert_eq(nsdae_model_parse_file(path, &a.m, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(nsdae_mode_switches(a.m, &a.sw, &err), NSDAE_OK, "%s", err.message);
    a.nsw = a.sw->ncode;
    int choice[64] = {0};
    cr_assert_lt(a.sw->n, 64);
    cr_assert_eq(nsdae_mode_parse(a.sw, code, choice, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(nsdae_structural_mode_analyze(a.m, a.sw, choice, &a.md, &err), NSDAE_OK, "%s", err.message);
    a.r = a.md->result;
    return a;
}

static inline void release(analysed *a)
{
    nsdae_structural_mode_destroy(a->md);
    nsdae_mode_switches_destroy(a->sw);
    nsdae_model_destroy(a->m);
}

static inline int eq_named(const nsdae_structural_result *r, const char *name)
{
    for (int i = 0; i < r->neq; i++) if (strcmp(r->eq_names[i], name) == 0) return i;
    cr_assert_fail("no equation '%s'", name);
    return -1;
}

static inline int var_named(const nsdae_structural_result *r, const char *name)
{
    for (int j = 0; j < r->nvar; j++) if (strcmp(r->var_names[j], name) == 0) return j;
    cr_assert_fail("no unknown '%s'", name);
    return -1;
}

static inline int in_list(const nsdae_structural_deriv *list, int n, int var, int order)
{
    for (int k = 0; k < n; k++) if (list[k].var == var && list[k].order == order) return 1;
    return 0;
}

/* The latent equations as a set: exactly the named ones, each differentiated `times` times. */
static inline void assert_latent(const nsdae_structural_result *r, const char *const *names, const int *times, int n)
{
    int count = 0;
    for (int i = 0; i < r->neq; i++) if (r->c[i] > 0) count++;
    cr_assert_eq(count, n, "number of latent equations");
    for (int k = 0; k < n; k++) cr_assert_eq(r->c[eq_named(r, names[k])], times[k], "%s", names[k]);
}

#endif
