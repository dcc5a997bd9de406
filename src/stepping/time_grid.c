/* The one time grid of every engine (time_grid.h). */
#include <nsdae/time_grid.h>
#include <nsdae/tolerances.h>

#include <float.h>
#include <limits.h>
#include <math.h>

nsdae_status nsdae_time_grid_make(double t0, double stop, long nsteps, double step, nsdae_time_grid *g,
                                  nsdae_error *err)
{
    if (!isfinite(t0) || !isfinite(stop) || !(stop > t0))
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "time grid: stop time %g must be finite and after t0 = %g",
                               stop, t0);
    const double span = stop - t0;
    if (nsteps > 0) {
        *g = (nsdae_time_grid){t0, stop, span / (double)nsteps, nsteps};
        return NSDAE_OK;
    }
    if (!(step > 0.0 && isfinite(step)))
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "time grid: step %g must be positive and finite", step);
    /* the relative slack merges a last step that is only rounding away from a full one */
    double n = ceil(span / step * (1.0 - NSDAE_TOL_STOP_TIME));
    if (!(n < (double)LONG_MAX))
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "time grid: step %g gives more than %ld steps to t = %g",
                               step, LONG_MAX, stop);
    /* a step longer than the span is one step of the span: h is what was used, not what was asked */
    *g = (nsdae_time_grid){t0, stop, n <= 1.0 ? span : step, n < 1.0 ? 1 : (long)n};
    return NSDAE_OK;
}

double nsdae_time_grid_time(const nsdae_time_grid *g, long k)
{
    return k >= g->n ? g->stop : g->t0 + (double)k * g->h;
}

double nsdae_time_grid_step(const nsdae_time_grid *g, long k)
{
    if (k + 1 < g->n)
        return g->h;
    /* The last step of a step count is a full one in exact arithmetic: stop - t_{n-1} misses h by
     * the rounding of the two times only (a few ulps of the larger), and an engine that caches its
     * step matrix refactored it for that (the 40-cell diode ladder: one KLU analysis, factor and
     * certificate, 64 allocations, at the last of 4000 steps). A truly shorter last step (a step
     * that does not divide the span) keeps its length. */
    double last = g->stop - nsdae_time_grid_time(g, k);
    double rounding = 8 * DBL_EPSILON * fmax(fabs(g->t0), fabs(g->stop));
    return fabs(last - g->h) <= rounding ? g->h : last;
}
