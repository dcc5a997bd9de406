/* Parameter tables of the built-in examples, and their overrides from the command line. */
#ifndef NSDAE_BUILTIN_PARAMS_H
#define NSDAE_BUILTIN_PARAMS_H

#include "examples/builtin.h"

#include <stddef.h>

typedef struct builtin_param {
    const char *name;
    double value;
} builtin_param;

/* p[i] = defaults[i].value for the entries up to the first NULL name (at most max), then each
 * override by name. An unknown name or a non-finite value is INVALID_INPUT naming the example and
 * listing its parameters. */
nsdae_status builtin_params_resolve(const char *example, const builtin_param *defaults, int max,
                                    const nsdae_param_value *over, int nover, double *p, nsdae_error *err);

/* The names and defaults of a parameter table (up to its first NULL name, at most ndefaults) into
 * names and values, at most max of them; returns how many the table has. */
int builtin_params_list(const builtin_param *defaults, int ndefaults, const char **names, double *values, int max);

/* Writes "a, b, c" (the first count names, stopping at a NULL) into buf. */
void builtin_list_names(char *buf, size_t size, const char *const *names, int count);

#endif
