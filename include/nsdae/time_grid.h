/* The fixed-step time grid shared by every engine (the MLCS steppers, Moreau-Jean, and the
 * event-driven engine's output grid).
 *
 *   nsteps > 0:  h = (stop - t0) / nsteps, t_k = t0 + k h
 *   else step h: t_k = t0 + k h for k < n, t_n = stop, n = ceil((stop - t0) / h) with a last step
 *                shorter than NSDAE_TOL_STOP_TIME relative merged into the one before it
 *
 * The last point is stop exactly (not t0 + n h, which misses it by rounding), so a run's last row
 * is at the stop time the user asked for. Every full step has length exactly h: t_{k+1} - t_k
 * wobbles in the last bit, and an engine that caches its step matrix would see a new matrix at
 * every step. Cost: O(1) per call, no allocation; a grid is a value, safe to share between threads.
 */
#ifndef NSDAE_TIME_GRID_H
#define NSDAE_TIME_GRID_H

#include <nsdae/status.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nsdae_time_grid {
    double t0, stop;   /* stop > t0 */
    double h;          /* nominal step; the last one may be shorter */
    long n;            /* number of steps, >= 1 */
} nsdae_time_grid;

/* Builds the grid on [t0, stop] from a step count (nsteps > 0) or else a step (step > 0).
 * INVALID_INPUT naming the value when stop <= t0, a bound is not finite, neither nsteps nor step
 * is usable, or the step count does not fit a long. */
nsdae_status nsdae_time_grid_make(double t0, double stop, long nsteps, double step, nsdae_time_grid *g,
                                  nsdae_error *err);

/* t_k for 0 <= k <= n; t_n is stop exactly. */
double nsdae_time_grid_time(const nsdae_time_grid *g, long k);

/* Length of step k + 1 (from t_k to t_{k+1}): exactly h, except a shortened last step. A last step
 * within a few ulps of h (stop - t_{n-1} of a step count) is h too: the run still ends at t_n =
 * stop, off t_{n-1} + h by that rounding only. */
double nsdae_time_grid_step(const nsdae_time_grid *g, long k);

#ifdef __cplusplus
}
#endif

#endif
