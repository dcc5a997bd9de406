/* Monotonic wall-clock seconds for the benchmarks (the library has no clock of its own to offer). */
#ifndef NSDAE_BENCH_CLOCK_H
#define NSDAE_BENCH_CLOCK_H

#include <time.h>

static inline double bench_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
