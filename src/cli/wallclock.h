/* Monotonic wall-clock seconds, for progress lines and summaries. */
#ifndef NSDAE_CLI_WALLCLOCK_H
#define NSDAE_CLI_WALLCLOCK_H

#include <time.h>

static inline double wallclock_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
