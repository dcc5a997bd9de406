/* The JSON sidecar of a run, RUN.csv.json next to RUN.csv: every fact needed to redo the run and to
 * know what produced it (run_meta.h), one object, keys in the order added. */
#ifndef NSDAE_CLI_SIDECAR_H
#define NSDAE_CLI_SIDECAR_H

#include "cli/run_meta.h"

#include <stddef.h>

/* Writes m as JSON to path. Returns 0, or -1 with the reason in why. */
int sidecar_write(const char *path, const run_meta *m, char *why, size_t why_size);

#endif
