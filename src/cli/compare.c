/* Run comparison (compare.h). The relative deviation is taken against the column's scale, not
 * pointwise: a trajectory through zero (every oscillation) would otherwise show an infinite
 * relative error at its zero crossings for an absolute deviation at round-off. */
#include "cli/compare.h"

#include <math.h>
#include <stdio.h>

static int same_times(const table *a, const table *b)
{
    if (a->nrows != b->nrows) return 0;
    for (long r = 0; r < a->nrows; r++) {
        double ta = TABLE_AT(a, r, 0), tb = TABLE_AT(b, r, 0);
        if (fabs(ta - tb) > 1e-12 * fmax(1.0, fmax(fabs(ta), fabs(tb)))) return 0;
    }
    return 1;
}

/* b's value of column c at time t, between its rows j-1 and j where t_{j-1} <= t <= t_j; *j moves
 * forward only (a's times increase). Returns 0 when t is outside b's range. */
static int interpolate(const table *b, int c, double t, long *j, double *v)
{
    long n = b->nrows;
    if (t < TABLE_AT(b, 0, 0) || t > TABLE_AT(b, n - 1, 0)) return 0;
    while (*j < n - 1 && TABLE_AT(b, *j, 0) < t) (*j)++;
    /* the later of rows at the same time: the value after an event */
    while (*j < n - 1 && TABLE_AT(b, *j + 1, 0) == t) (*j)++;
    double t1 = TABLE_AT(b, *j, 0);
    if (t1 == t || *j == 0) {
        *v = TABLE_AT(b, *j, c);
        return 1;
    }
    double t0 = TABLE_AT(b, *j - 1, 0), w = (t - t0) / (t1 - t0);
    *v = (1 - w) * TABLE_AT(b, *j - 1, c) + w * TABLE_AT(b, *j, c);
    return 1;
}

int compare_tables(const table *a, const table *b, column_deviation *dev, int n, compare_result *res, char *why,
                   size_t why_size)
{
    *res = (compare_result){0, !same_times(a, b), 0};
    for (long r = 1; res->interpolated && r < b->nrows; r++)
        if (TABLE_AT(b, r, 0) < TABLE_AT(b, r - 1, 0)) {
            snprintf(why, why_size, "the second run's times decrease at row %ld (%g after %g)", r + 1,
                     TABLE_AT(b, r, 0), TABLE_AT(b, r - 1, 0));
            return -1;
        }
    for (int i = 0; i < n; i++) {
        column_deviation *d = &dev[i];
        double scale = 0;
        d->max_abs = 0;
        d->at_t = NAN;
        long j = 0, compared = 0, outside = 0;
        for (long r = 0; r < a->nrows; r++) {
            double t = TABLE_AT(a, r, 0), va = TABLE_AT(a, r, d->col_a), vb;
            if (!res->interpolated) vb = TABLE_AT(b, r, d->col_b);
            else if (!interpolate(b, d->col_b, t, &j, &vb)) {
                outside++;
                continue;
            }
            compared++;
            double diff = fabs(va - vb);
            if (isnan(diff) && !(isnan(va) && isnan(vb))) diff = INFINITY; /* a nan against a number */
            if (diff > d->max_abs || (isnan(d->at_t) && !isnan(diff))) {
                d->max_abs = isnan(diff) ? 0 : diff;
                d->at_t = t;
            }
            if (isfinite(va)) scale = fmax(scale, fabs(va));
            if (isfinite(vb)) scale = fmax(scale, fabs(vb));
        }
        d->max_rel = d->max_abs == 0 ? 0 : scale > 0 ? d->max_abs / scale : INFINITY;
        res->ntimes = compared;
        res->outside = outside;
    }
    if (n > 0 && res->ntimes == 0) {
        snprintf(why, why_size, "the runs share no time range (first: %g to %g, second: %g to %g)", TABLE_AT(a, 0, 0),
                 TABLE_AT(a, a->nrows - 1, 0), TABLE_AT(b, 0, 0), TABLE_AT(b, b->nrows - 1, 0));
        return -1;
    }
    return 0;
}
