/* MLCS reference systems built into nsdae (no model file needed), with their exact solutions where
 * known. Fixtures for the tests, the benchmarks and `nsdae --example`; not part of the library API. */
#ifndef NSDAE_BUILTIN_H
#define NSDAE_BUILTIN_H

#include <nsdae/mlcs.h>
#include <nsdae/status.h>

typedef struct nsdae_param_value {
    const char *name;
    double value;
} nsdae_param_value;

/* Names, NULL-terminated, and a one-line description of each. */
const char *const *nsdae_builtin_names(void);
const char *nsdae_builtin_description(const char *name);

/* Builds the example with its default parameters, then applies the overrides (an unknown
 * parameter name is INVALID_INPUT naming it and listing the known ones). */
nsdae_status nsdae_builtin_create(const char *name, const nsdae_param_value *params, int nparams,
                                  nsdae_mlcs **out, nsdae_error *err);

/* Exact differential state at time T for the example with these parameters, written to x (as
 * many entries as differential unknowns, in order). Returns 0 when no closed form is known for
 * these parameters. */
int nsdae_builtin_exact(const char *name, const nsdae_param_value *params, int nparams, double T, double *x);

/* The example's parameters and their defaults, in order: up to max of them into names and
 * defaults; returns how many it has (0 for an unknown name). */
int nsdae_builtin_params(const char *name, const char **names, double *defaults, int max);

#endif
