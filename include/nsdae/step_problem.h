/* nsdae: the MLCP of one theta-method step of an MLCS (the problem nsdae_stepper_run solves at
 * every step, stepper.h), for callers that solve the steps themselves: a benchmark of another
 * solution-selection rule, a study of the solutions a step has.
 *
 * Unknowns z = (y1, lambda1): ny equality rows (the discretised E y' = A y + B lambda + b), then
 * the nl rows of the MLCS with their kinds and bounds. Filling costs O((ny + nl)^2); one object
 * is not to be shared between threads.
 */
#ifndef NSDAE_STEP_PROBLEM_H
#define NSDAE_STEP_PROBLEM_H

#include <nsdae/lcp.h>
#include <nsdae/mlcs.h>
#include <nsdae/status.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nsdae_step_problem nsdae_step_problem;

/* Keeps s (not copied: it must outlive the object). */
nsdae_status nsdae_step_problem_create(const nsdae_mlcs *s, nsdae_step_problem **out, nsdae_error *err);
void nsdae_step_problem_destroy(nsdae_step_problem *p);

/* The MLCP of the step from (t0, y0, lambda0) to t0 + h with these weights of the differential rows
 * (theta = gamma = 1: implicit Euler). y0: ny; lambda0: the previous multipliers, NULL for zeros
 * (used only when gamma < 1). The view points into p and is valid until the next call or _destroy. */
const nsdae_mlcp *nsdae_step_problem_build(nsdae_step_problem *p, double t0, double h, double theta,
                                           double gamma, const double *y0, const double *lambda0);

#ifdef __cplusplus
}
#endif

#endif
