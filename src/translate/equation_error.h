/* The one format of a translation error about a model equation: "file:line:col: equation '...': why". */
#ifndef NSDAE_EQUATION_ERROR_H
#define NSDAE_EQUATION_ERROR_H

#include <nsdae/model.h>

#include <stdarg.h>

/* Formats fmt/ap as the reason and records it in err, located at eq (or at the file when eq is
 * NULL). Returns status. */
nsdae_status translate_equation_error(nsdae_error *err, nsdae_status status, const nsdae_model *m,
                                      const nsdae_equation *eq, const char *fmt, va_list ap);

#endif
