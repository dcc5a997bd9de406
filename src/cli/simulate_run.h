/* The run of `nsdae simulate` for either engine, rows to the one CSV sink (csv_sink.h). */
#ifndef NSDAE_CLI_SIMULATE_RUN_H
#define NSDAE_CLI_SIMULATE_RUN_H

#include "cli/run_options.h"

/* Integrates the loaded model (MLCS steppers, or Moreau-Jean when ro->moreau) and writes its CSV
 * to out_path (NULL: standard output), every K-th step. Returns the process exit status. */
int simulate_run(run_options *ro, const char *out_path, long every);

#endif
