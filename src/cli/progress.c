/* The progress line (progress.h). The rate is the mean over the whole run so far, not the last
 * interval: step costs vary with the mode (several solutions, a continuum), and the mean gives an
 * ETA that does not jump about. */
#include "cli/progress.h"
#include "cli/wallclock.h"

#include <stdio.h>
#include <unistd.h>

void progress_start(progress *p, long total, int rows_on_stdout)
{
    p->enabled = isatty(STDERR_FILENO) && !(rows_on_stdout && isatty(STDOUT_FILENO));
    p->total = total;
    p->started = p->last = wallclock_seconds();
}

/* "h:mm:ss" of a non-negative number of seconds, "?" when unknown. */
static void put_duration(char *buf, size_t size, double seconds)
{
    if (!(seconds >= 0) || seconds > 1e9) {
        snprintf(buf, size, "?");
        return;
    }
    long s = (long)(seconds + 0.5);
    snprintf(buf, size, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
}

char *progress_format(char *buf, size_t size, long k, long total, double t, double elapsed)
{
    double share = total > 0 ? (double)k / (double)total : 0.0;
    double rate = elapsed > 0 ? (double)k / elapsed : 0.0;
    char eta[32];
    put_duration(eta, sizeof eta, rate > 0 ? (double)(total - k) / rate : -1.0);
    snprintf(buf, size, "%5.1f%%  step %ld/%ld  t = %.8g  %.0f steps/s  ETA %s", 100.0 * share, k, total, t, rate,
             eta);
    return buf;
}

void progress_tick(progress *p, long k, double t)
{
    if (!p->enabled || k % 256 != 0) return;
    double now = wallclock_seconds();
    if (now - p->started > 1.0 && now - p->last > 0.25) {
        char line[160];
        /* "\033[K" clears what a longer previous line left */
        fprintf(stderr, "\r%s\033[K", progress_format(line, sizeof line, k, p->total, t, now - p->started));
        p->last = now;
    }
}

double progress_end(progress *p)
{
    double elapsed = wallclock_seconds() - p->started;
    if (p->enabled && elapsed > 1.0) fputs("\r\033[K", stderr);
    return elapsed;
}
