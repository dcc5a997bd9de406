/* The public face of one step's MLCP (step_problem.h): the stepper's own builder behind an
 * opaque handle, so that a caller solving the steps itself builds exactly the problem
 * nsdae_stepper_run solves. */
#include <nsdae/step_problem.h>

#include "stepping/step_mlcp.h"

#include <stdlib.h>

struct nsdae_step_problem {
    const nsdae_mlcs *s;
    step_mlcp sm;
};

nsdae_status nsdae_step_problem_create(const nsdae_mlcs *s, nsdae_step_problem **out, nsdae_error *err)
{
    *out = NULL;
    if (!s) return nsdae_error_set(err, NSDAE_INVALID_INPUT, "step problem: no system");
    nsdae_step_problem *p = calloc(1, sizeof *p);
    if (!p) return nsdae_error_set(err, NSDAE_NOMEM, "step problem: out of memory");
    p->s = s;
    nsdae_status st = step_mlcp_init(&p->sm, s, err);
    if (st != NSDAE_OK) {
        free(p);
        return st;
    }
    *out = p;
    return NSDAE_OK;
}

void nsdae_step_problem_destroy(nsdae_step_problem *p)
{
    if (!p) return;
    step_mlcp_free(&p->sm);
    free(p);
}

const nsdae_mlcp *nsdae_step_problem_build(nsdae_step_problem *p, double t0, double h, double theta,
                                           double gamma, const double *y0, const double *lambda0)
{
    step_mlcp_build(&p->sm, p->s, t0, h, theta, gamma, 0, y0, lambda0);
    return &p->sm.problem;
}
