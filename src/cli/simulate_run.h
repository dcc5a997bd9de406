/* The run of `nsdae simulate` for either engine: rows to the CSV sink (csv_sink.h) or HDF5
 * (hdf5_sink.h), the run's facts to a JSON sidecar (sidecar.h), and a plot (plot.h) at the end. */
#ifndef NSDAE_CLI_SIMULATE_RUN_H
#define NSDAE_CLI_SIMULATE_RUN_H

#include "cli/plot_select.h"
#include "cli/run_options.h"

typedef struct simulate_output {
    const char *path;          /* --out FILE, NULL: standard output */
    long every;                /* --every K */
    int hdf5;                  /* --format hdf5 (needs path) */
    const char *sidecar;       /* --sidecar FILE; NULL: PATH.json when path is given, else none */
    int no_sidecar;            /* --no-sidecar */
    plot_request plot;         /* --plot FILE.png, --vars, --phase */
} simulate_output;

/* Integrates the loaded model (MLCS steppers, or Moreau-Jean when ro->moreau) and writes its rows.
 * Returns the process exit status. */
int simulate_run(run_options *ro, const simulate_output *so);

#endif
