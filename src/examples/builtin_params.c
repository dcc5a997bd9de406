/* Shared by the MLCS and the contact built-ins so that both answer --param the same way. */
#include "examples/builtin_params.h"

#include <math.h>
#include <string.h>

void builtin_list_names(char *buf, size_t size, const char *const *names, int count)
{
    buf[0] = '\0';
    for (int i = 0; i < count && names[i]; i++) {
        strncat(buf, i ? ", " : "", size - strlen(buf) - 1);
        strncat(buf, names[i], size - strlen(buf) - 1);
    }
}

nsdae_status builtin_params_resolve(const char *example, const builtin_param *defaults, int max,
                                    const nsdae_param_value *over, int nover, double *p, nsdae_error *err)
{
    int np = 0;
    const char *names[32];
    for (; np < max && np < 32 && defaults[np].name; np++) {
        p[np] = defaults[np].value;
        names[np] = defaults[np].name;
    }
    for (int k = 0; k < nover; k++) {
        int i = 0;
        while (i < np && strcmp(names[i], over[k].name) != 0) i++;
        if (i == np) {
            char known[256];
            builtin_list_names(known, sizeof known, names, np);
            return nsdae_error_set(err, NSDAE_INVALID_INPUT, "example %s has no parameter '%s' (it has: %s)",
                                   example, over[k].name, known);
        }
        if (!isfinite(over[k].value))
            return nsdae_error_set(err, NSDAE_INVALID_INPUT, "parameter %s must be finite", over[k].name);
        p[i] = over[k].value;
    }
    return NSDAE_OK;
}

int builtin_params_list(const builtin_param *defaults, int ndefaults, const char **names, double *values, int max)
{
    int n = 0;
    for (; n < ndefaults && defaults[n].name; n++)
        if (n < max) {
            names[n] = defaults[n].name;
            values[n] = defaults[n].value;
        }
    return n;
}
