/* Test helpers: .nsm contact models (text or examples/NAME.nsm) translated into the Lagrangian
 * contact form, with parameter overrides. */
#ifndef NSDAE_TEST_LAG_HELPERS_H
#define NSDAE_TEST_LAG_HELPERS_H

#include <criterion/criterion.h>

#include "examples/builtin.h"
#include <nsdae/translate_lagrangian.h>

#include <stdio.h>
#include <string.h>

static inline nsdae_status lag_translate_text(const char *src, nsdae_lagrangian **out, nsdae_error *err)
{
    nsdae_model *m = NULL;
    *out = NULL;
    nsdae_status st = nsdae_model_parse_string(src, strlen(src), "t.nsm", &m, err);
    if (st == NSDAE_OK) st = nsdae_translate_lagrangian(m, out, err);
    nsdae_model_destroy(m); /* the system must not need the model any more */
    return st;
}

static inline nsdae_lagrangian *lag_file(const char *path, const nsdae_param_value *params, int nparams)
{
    nsdae_model *m = NULL;
    nsdae_lagrangian *s = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_model_parse_file(path, &m, &err), NSDAE_OK, "%s", err.message);
    for (int k = 0; k < nparams; k++)
        cr_assert_eq(nsdae_model_set_param(m, params[k].name, params[k].value, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(nsdae_translate_lagrangian(m, &s, &err), NSDAE_OK, "%s", err.message);
    nsdae_model_destroy(m);
    return s;
}

static inline nsdae_lagrangian *lag_example(const char *name, const nsdae_param_value *params, int nparams)
{
    char path[512];
    snprintf(path, sizeof path, "%s/examples/%s.nsm", NSDAE_SOURCE_DIR, name);
    return lag_file(path, params, nparams);
}

#endif
