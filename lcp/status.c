/* The status strings and error record shared by every nsdae stage. It lives in the lowest
 * library (nsdae_lcp) so that lcp/ needs nothing from src/. */
#include <nsdae/status.h>

#include <stdarg.h>
#include <stdio.h>

const char *nsdae_strerror(nsdae_status status)
{
    switch (status) {
    case NSDAE_OK: return "ok";
    case NSDAE_INVALID_INPUT: return "invalid input";
    case NSDAE_NO_SOLUTION: return "no solution";
    case NSDAE_NUMERICAL: return "numerical failure";
    case NSDAE_PARSE: return "parse error";
    case NSDAE_UNSUPPORTED: return "unsupported";
    case NSDAE_NOMEM: return "out of memory";
    case NSDAE_IO: return "input/output error";
    case NSDAE_LIMIT: return "limit reached";
    }
    return "unknown status";
}

nsdae_status nsdae_error_set(nsdae_error *err, nsdae_status status, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
        err->status = status;
    }
    return status;
}

void nsdae_error_clear(nsdae_error *err)
{
    if (err) {
        err->status = NSDAE_OK;
        err->message[0] = '\0';
    }
}
