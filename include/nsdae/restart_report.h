/* nsdae restart report: the restart analysis (nsdae/impulse.h) of a whole model, as the command
 * `nsdae restart` prints it, in one call (JSON or text): every mode change (pairs of long modes
 * joined by a guard crossing or a complementarity switch, the elastic cascades of contacts with a
 * restitution, the `when` cascades), or with left limits the numeric restart of one change (given,
 * or the one whose guard vanishes and is being crossed there).
 *
 *   double *left = NULL, time = 0;
 *   nsdae_restart_parse_left(m, "x=0.6,y=-0.8,der(x)=1,der(y)=-1", &left, &time, &err);
 *   nsdae_restart_request rq = {left, time, NULL, NULL, -1, 0};
 *   char *json = NULL; int failed = 0;
 *   nsdae_restart_report(m, &rq, &json, &failed, &err);    ... nsdae_restart_report_free(json); free(left);
 *
 * JSON: {"model": NAME, "transitions": [{"from", "to", "via", "diagnostics", "height",
 * "impulse_orders", "restart_equations", "undetermined", ["restart", "impulses", "restart_error",
 * "sign_error", "brute_force",] "status"}]} (issue 10). Cost: one analysis per change; with more
 * than NSDAE_RESTART_ALL_LIMIT long modes only a named change is analysed. Reentrant: nothing is
 * kept between calls, m is read only.
 */
#ifndef NSDAE_RESTART_REPORT_H
#define NSDAE_RESTART_REPORT_H

#include <nsdae/model.h>
#include <nsdae/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Left limits are read up to this derivative order (der(der(der(x)))). */
#define NSDAE_RESTART_MAX_ORDER 3
/* Every change is analysed when there are at most this many long modes. */
#define NSDAE_RESTART_ALL_LIMIT 4096.0

/* Parses "NAME=VALUE,..." (x=.., der(x)=.., der(der(x))=.., time=..; values not given are 0) into
 * *left, (NSDAE_RESTART_MAX_ORDER + 1) x nvars order-major, and *time. free() it, or
 * nsdae_restart_report_free (the same free(), for callers that do not share the C library's heap).
 * NSDAE_INVALID_INPUT naming the item otherwise. */
nsdae_status nsdae_restart_parse_left(const nsdae_model *m, const char *text, double **left, double *time,
                                      nsdae_error *err);

typedef struct nsdae_restart_request {
    const double *left;     /* left limits as nsdae_restart_parse_left gives them; NULL: every change,
                               no numeric restart */
    double time;            /* the event time (time guards, time-dependent inputs) */
    const char *from, *to;  /* mode codes of `nsdae analyze --mode` (both or neither; with left only);
                               NULL: the change is found at the left limits */
    int height;             /* < 0: search K in [K_*, K^*]; else this K only */
    int text;               /* 0: JSON; 1: the command's text report */
} nsdae_restart_request;

/* Writes the report into *report (free it with nsdae_restart_report_free). *restart_failed (may be
 * NULL) is set when a numeric restart failed (D7, a violated fact, no convergence: the report says
 * why). Errors: NSDAE_INVALID_INPUT (a bad mode code, from without to), NSDAE_NO_SOLUTION (no change
 * or several at the left limits: name it), NSDAE_LIMIT (too many long modes to list), NSDAE_NOMEM. */
nsdae_status nsdae_restart_report(const nsdae_model *m, const nsdae_restart_request *req, char **report,
                                  int *restart_failed, nsdae_error *err);
void nsdae_restart_report_free(char *report);

#ifdef __cplusplus
}
#endif

#endif
