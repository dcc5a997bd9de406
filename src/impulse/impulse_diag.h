/* Diagnostics of the restart analysis (internal). */
#ifndef NSDAE_IMPULSE_DIAG_H
#define NSDAE_IMPULSE_DIAG_H

#include "impulse/impulse_internal.h"

/* Appends a diagnostic; NULL when out of memory. */
nsdae_impulse_diag *imp_diag_add(nsdae_impulse_result *r, const char *code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Add the name of array equation e / variable v (no duplicates); -1 when out of memory. */
int imp_diag_eq(const imp_ctx *cx, const imp_array *a, nsdae_impulse_diag *d, int e);
int imp_diag_var(const imp_ctx *cx, const imp_array *a, nsdae_impulse_diag *d, int v);
void imp_diags_free(nsdae_impulse_result *r);

#endif
