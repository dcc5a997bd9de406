/* The progress line of a long run: on stderr only, redrawn in place ("\r") at most four times a
 * second after the first second, with the share done, the rate and the time left:
 *
 *     42.0%  step 4200/10000  t = 4.2  12345 steps/s  ETA 0:00:05
 *
 * Drawn only when stderr is a terminal and the rows do not go to that terminal too: a CSV on a
 * terminal stdout would be cut by the redrawn line, so then there is no progress line at all. */
#ifndef NSDAE_CLI_PROGRESS_H
#define NSDAE_CLI_PROGRESS_H

#include <stddef.h>

typedef struct progress {
    int enabled;
    long total;
    double started, last;
} progress;

/* rows_on_stdout: the run's rows are written to standard output. */
void progress_start(progress *p, long total, int rows_on_stdout);

/* Step k of total reached at time t. Cheap when nothing is drawn (one test per 256 steps). */
void progress_tick(progress *p, long k, double t);

/* Clears the line if one was drawn; returns the elapsed seconds. */
double progress_end(progress *p);

/* The text of the line for step k of total at time t after elapsed seconds (no "\r"); also used by
 * the tests. Returns buf. */
char *progress_format(char *buf, size_t size, long k, long total, double t, double elapsed);

#endif
