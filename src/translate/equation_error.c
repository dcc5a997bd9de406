/* Shared by the MLCS and the Lagrangian translators so that their refusals read alike. */
#include "translate/equation_error.h"

#include <stdio.h>

nsdae_status translate_equation_error(nsdae_error *err, nsdae_status status, const nsdae_model *m,
                                      const nsdae_equation *eq, const char *fmt, va_list ap)
{
    char msg[400];
    vsnprintf(msg, sizeof msg, fmt, ap);
    const char *file = nsdae_model_filename(m);
    if (eq)
        return nsdae_error_set(err, status, "%s:%d:%d: equation '%.120s': %s", file, eq->pos.line, eq->pos.col,
                               eq->text, msg);
    return nsdae_error_set(err, status, "%s: %s", file, msg);
}
