/* nsdae: one status enum for every stage, and an error record that carries the message. */
#ifndef NSDAE_STATUS_H
#define NSDAE_STATUS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum nsdae_status {
    NSDAE_OK = 0,
    NSDAE_INVALID_INPUT,   /* sizes, NaN/Inf, bad option or model: the message says which */
    NSDAE_NO_SOLUTION,     /* a complementarity problem (or a step) has no solution */
    NSDAE_NUMERICAL,       /* singular or ill-conditioned system, solver breakdown */
    NSDAE_PARSE,           /* malformed model text: the message is file:line:col: ... */
    NSDAE_UNSUPPORTED,     /* well-formed but outside what nsdae can translate or analyse */
    NSDAE_NOMEM,
    NSDAE_IO,
    NSDAE_LIMIT            /* a size or count limit was reached */
} nsdae_status;

#define NSDAE_ERROR_MESSAGE_SIZE 512

/* Room for a scheme name carried by a system (mlcs.h, lagrangian.h), its terminating NUL included. */
#define NSDAE_SCHEME_NAME_SIZE 16

/* Filled by a failing call when the caller passes one; may be NULL everywhere. */
typedef struct nsdae_error {
    nsdae_status status;
    char message[NSDAE_ERROR_MESSAGE_SIZE];
} nsdae_error;

const char *nsdae_strerror(nsdae_status status);

/* Records status and a printf-style message in err (if not NULL); returns status so that
 * callers can write `return nsdae_error_set(err, NSDAE_INVALID_INPUT, "...", ...);`. */
nsdae_status nsdae_error_set(nsdae_error *err, nsdae_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Clears err to NSDAE_OK with an empty message. */
void nsdae_error_clear(nsdae_error *err);

#ifdef __cplusplus
}
#endif

#endif
