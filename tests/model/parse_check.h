/* Test helper: a model text that must fail with NSDAE_PARSE and a "t.nsm:LINE:COL: message"
 * naming what was expected, at the right place. */
#ifndef NSDAE_TEST_PARSE_CHECK_H
#define NSDAE_TEST_PARSE_CHECK_H

#include <criterion/criterion.h>
#include <nsdae/model.h>

#include <stdio.h>
#include <string.h>

static inline void check_bad(const char *src, const char *where, const char *what)
{
    nsdae_model *m = NULL;
    nsdae_error err;
    nsdae_error_clear(&err);
    nsdae_status st = nsdae_model_parse_string(src, strlen(src), "t.nsm", &m, &err);
    cr_assert_eq(st, NSDAE_PARSE, "expected a parse error for:\n%s\ngot status %d (%s)", src, st, err.message);
    cr_assert_null(m);
    char prefix[64];
    snprintf(prefix, sizeof prefix, "t.nsm:%s: ", where);
    cr_expect(strncmp(err.message, prefix, strlen(prefix)) == 0, "position: want '%s', message '%s'", prefix,
              err.message);
    cr_expect(strstr(err.message, what) != NULL, "message '%s' lacks '%s'", err.message, what);
}

#endif
