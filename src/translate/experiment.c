/* The experiment's defaults carried by a translated system (experiment.h). */
#include "translate/experiment.h"

#include <stdio.h>

void nsdae_tr_experiment_defaults(const nsdae_model *m, double *stop, double *step,
                                  char scheme[NSDAE_SCHEME_NAME_SIZE], double *theta, double *gamma)
{
    const nsdae_experiment *x = nsdae_model_experiment(m);
    *stop = x->stop;
    *step = x->step;
    /* a longer name is no scheme's: truncated, it is still refused by name where it is read */
    snprintf(scheme, NSDAE_SCHEME_NAME_SIZE, "%s", x->scheme ? x->scheme : "");
    *theta = x->theta;
    *gamma = x->gamma;
}
