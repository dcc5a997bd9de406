/* A progress line on stderr for runs that last more than a second, only when stderr is a terminal. */
#ifndef NSDAE_CLI_PROGRESS_H
#define NSDAE_CLI_PROGRESS_H

#include "cli/wallclock.h"

#include <stdio.h>
#include <unistd.h>

typedef struct progress {
    int enabled;
    long total;
    double started, last;
} progress;

static inline void progress_start(progress *p, long total)
{
    p->enabled = isatty(STDERR_FILENO);
    p->total = total;
    p->started = p->last = wallclock_seconds();
}

static inline void progress_tick(progress *p, long k, double t)
{
    if (!p->enabled || k % 256 != 0) return;
    double now = wallclock_seconds();
    if (now - p->started > 1.0 && now - p->last > 0.25) {
        fprintf(stderr, "\r  step %ld/%ld  t = %-14.8g", k, p->total, t);
        p->last = now;
    }
}

/* Clears the line if one was drawn; returns the elapsed seconds. */
static inline double progress_end(progress *p)
{
    double elapsed = wallclock_seconds() - p->started;
    if (p->enabled && elapsed > 1.0) fputs("\r\033[K", stderr);
    return elapsed;
}

#endif
