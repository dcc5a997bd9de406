/* The runs, table and plot of `nsdae converge`. */
#ifndef NSDAE_CLI_CONVERGENCE_H
#define NSDAE_CLI_CONVERGENCE_H

#include "cli/run_options.h"

typedef enum { CONVERGENCE_EXACT, CONVERGENCE_FINEST } convergence_reference;

/* Returns the process exit status (0 ok, 1 a run failed, 2 bad request). */
int convergence_study(const nsdae_mlcs *s, const nsdae_stepper_options *base, const run_options *ro,
                      convergence_reference ref, const long *steps, int nruns, const char *plot_path,
                      const char *csv_path);

#endif
