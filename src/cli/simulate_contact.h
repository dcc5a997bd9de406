/* The contact-model path of `nsdae simulate` (--scheme moreau). */
#ifndef NSDAE_CLI_SIMULATE_CONTACT_H
#define NSDAE_CLI_SIMULATE_CONTACT_H

#include "cli/run_options.h"

/* Returns the process exit status. */
int simulate_contact(const run_options *ro, const char *out_path, long every);

#endif
