/* Test helpers: load an example model (examples/NAME.nsm) and run it to a final state. */
#ifndef NSDAE_TEST_EXAMPLE_RUN_H
#define NSDAE_TEST_EXAMPLE_RUN_H

#include <criterion/criterion.h>

#include <nsdae/model.h>
#include <nsdae/stepper.h>
#include <nsdae/translate.h>

#include <stdio.h>

static inline nsdae_mlcs *load_example(const char *name, nsdae_translate_info **info)
{
    char path[512];
    snprintf(path, sizeof path, "%s/examples/%s.nsm", NSDAE_SOURCE_DIR, name);
    nsdae_model *m = NULL;
    nsdae_mlcs *s = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_model_parse_file(path, &m, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(nsdae_translate_mlcs(m, &s, info, &err), NSDAE_OK, "%s", err.message);
    nsdae_model_destroy(m);
    return s;
}

/* Index of the unknown y named `name`. */
static inline int y_index(const nsdae_mlcs *s, const char *name)
{
    for (int j = 0; j < s->ny; j++)
        if (s->y_names[j] && strcmp(s->y_names[j], name) == 0) return j;
    cr_assert_fail("no unknown named %s", name);
    return -1;
}

#endif
