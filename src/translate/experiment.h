/* The model's experiment annotation as the defaults a translated system carries (mlcs.h,
 * lagrangian.h): one copy for both forms. */
#ifndef NSDAE_TRANSLATE_EXPERIMENT_H
#define NSDAE_TRANSLATE_EXPERIMENT_H

#include <nsdae/model.h>
#include <nsdae/status.h>

/* Copies stop, step, scheme (truncated to the field; "" when unset), theta and gamma. */
void nsdae_tr_experiment_defaults(const nsdae_model *m, double *stop, double *step,
                                  char scheme[NSDAE_SCHEME_NAME_SIZE], double *theta, double *gamma);

#endif
