/* The time stepper against the event-driven engine, step count by step count (crosscheck_study.h).
 *
 * Both run on the same grid t_k = t0 + k h, so that a grid row of one has its twin in the other and
 * no interpolation enters the error. Implicit Euler with events is O(h) (Acary & Brogliato 2008,
 * section 10.1): the local error is O(h^2) between events, and an event is seen at the first grid
 * time after it, one step late at most. So every measure here should shrink like h:
 *   - the error at T and the largest error on the grid away from events (a row within a step of an
 *     event compares a state before the jump with one after it: O(1) for an impact, excluded);
 *   - the event time: the first row whose stepper mode differs from its first mode, against the
 *     engine's first event;
 *   - the state the stepper restarts with (at that row) against the engine's restart state.
 * Errors at the engine's own accuracy carry no order and enter no fit. */
#include "cli/crosscheck_study.h"

#include <nsdae/order_fit.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const xc_measure_key[XC_NMEASURES] = {"error_T", "error_grid", "event_time_error", "post_event_error"};
const char *const xc_measure_text[XC_NMEASURES] = {"error at T", "max error on the grid away from events",
                                                   "event-time error", "post-event state error"};

static int compare_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

static double distance(const double *a, const double *b, int n)
{
    double sq = 0;
    for (int k = 0; k < n; k++) sq += (a[k] - b[k]) * (a[k] - b[k]);
    return sqrt(sq);
}

/* An event after t0 (an event at t0 chooses the initial mode: nothing to locate). */
static int after_t0(const xc_system *sys, const xc_event *e)
{
    return e->t > sys->t0 + 1e-12 * (sys->stop - sys->t0);
}

static const xc_event *first_event(const xc_system *sys, const xc_track *eng)
{
    for (long e = 0; e < eng->nevents; e++)
        if (after_t0(sys, &eng->events[e])) return &eng->events[e];
    return NULL;
}

static int near_event(const xc_track *eng, double t, double h)
{
    for (long e = 0; e < eng->nevents; e++)
        if (fabs(t - eng->events[e].t) <= h * (1 + 1e-9)) return 1;
    return 0;
}

/* For each grid time k of the stepper, the engine's row at that time: its last row there, the
 * restart when an event falls on the grid (the stepper's row there is in the new phase too). */
static long *grid_twins(const xc_system *sys, const xc_track *eng, long n, double h)
{
    long *twin = malloc((size_t)(n + 1) * sizeof *twin);
    if (!twin) return NULL;
    for (long k = 0; k <= n; k++) twin[k] = -1;
    for (long r = 0; r < eng->rows.nrows; r++) {
        double t = TABLE_AT(&eng->rows, r, 0);
        long k = lround((t - sys->t0) / h);
        if (k >= 0 && k <= n && fabs(t - (sys->t0 + (double)k * h)) <= 1e-9 * h) twin[k] = r;
    }
    return twin;
}

/* The stepper's state at its switch (row: t then the states) against the engine's restart state
 * carried to that time along the engine's new mode, linearly up to its next row: the switch time's
 * offset (up to a step, measured by the event-time error) then does not count twice, while a wrong
 * restart (a missed impulse) still shows in full. */
static double post_event_error(const xc_system *sys, const xc_track *eng, const xc_event *ev, const double *row)
{
    const int nx = sys->nx;
    double sq = 0, dt = row[0] - ev->t;
    long next = -1;
    for (long r = 0; r < eng->rows.nrows && next < 0; r++)
        if (TABLE_AT(&eng->rows, r, 0) > ev->t) next = r;
    double span = next >= 0 ? TABLE_AT(&eng->rows, next, 0) - ev->t : 0;
    for (int k = 0; k < nx; k++) {
        double x = ev->post[k];
        if (span > 0) x += (TABLE_AT(&eng->rows, next, k + 1) - ev->post[k]) * dt / span;
        sq += (row[k + 1] - x) * (row[k + 1] - x);
    }
    return sqrt(sq);
}

/* The measures of one step count. Returns 0, or 1 after printing. */
static int compare_run(const xc_system *sys, const char *cmd, const xc_track *eng, const xc_track *ts, xc_result *res)
{
    const int nx = sys->nx;
    const long n = res->n;
    const double h = res->h;
    long *twin = grid_twins(sys, eng, n, h);
    if (!twin) {
        fprintf(stderr, "nsdae %s: out of memory\n", cmd);
        return 1;
    }
    int rc = 0;
    res->err[XC_ERR_T] = res->err[XC_ERR_GRID] = NAN;
    double worst = 0;
    for (long k = 0; k < ts->rows.nrows && !rc; k++) {
        const double *x = &TABLE_AT(&ts->rows, k, 1), t = TABLE_AT(&ts->rows, k, 0);
        long r = k <= n ? twin[k] : -1;
        if (r < 0 || fabs(TABLE_AT(&eng->rows, r, 0) - t) > 1e-9 * h) {
            fprintf(stderr, "nsdae %s: N = %ld: the event-driven run has no row at the grid time t = %.17g\n", cmd,
                    n, t);
            rc = 1;
            break;
        }
        double e = distance(x, &TABLE_AT(&eng->rows, r, 1), nx);
        if (k == n) res->err[XC_ERR_T] = e;
        if (near_event(eng, t, h)) res->excluded++;
        else worst = fmax(worst, e);
    }
    res->err[XC_ERR_GRID] = res->excluded <= n ? worst : NAN;
    const xc_event *ev = first_event(sys, eng);
    res->err[XC_ERR_EVENT_TIME] = res->err[XC_ERR_POST] = res->event_time_signed = NAN;
    if (ev && ts->switch_row >= 0) {
        res->event_time_signed = TABLE_AT(&ts->rows, ts->switch_row, 0) - ev->t;
        res->err[XC_ERR_EVENT_TIME] = fabs(res->event_time_signed);
        res->err[XC_ERR_POST] = post_event_error(sys, eng, ev, &TABLE_AT(&ts->rows, ts->switch_row, 0));
    }
    res->stepper_changes = ts->mode_changes;
    free(twin);
    return rc;
}

/* The engine's accuracy, under which a difference says nothing about the stepper: a hundred times
 * IDA's error test on the largest state (local errors accumulate over the steps), and for event
 * times IDA's root location, to rtol of the time scale. */
static void floors(const xc_system *sys, const xc_track *eng, double *floor)
{
    double scale = 0;
    for (long r = 0; r < eng->rows.nrows; r++)
        for (int k = 1; k <= sys->nx; k++) scale = fmax(scale, fabs(TABLE_AT(&eng->rows, r, k)));
    double state = 100 * (sys->rtol * scale + sys->atol);
    floor[XC_ERR_T] = floor[XC_ERR_GRID] = floor[XC_ERR_POST] = state;
    floor[XC_ERR_EVENT_TIME] = 100 * sys->rtol * fmax(fabs(sys->stop), fabs(sys->t0));
}

static void fit_orders(xc_study *st)
{
    double *h = calloc((size_t)st->nruns, sizeof *h), *e = calloc((size_t)st->nruns, sizeof *e);
    for (int m = 0; m < XC_NMEASURES; m++) {
        st->order[m] = NAN;
        st->used[m] = 0;
        if (!h || !e) continue;
        for (int r = 0; r < st->nruns; r++) {
            h[r] = st->runs[r].h;
            double v = st->runs[r].err[m];
            e[r] = isfinite(v) && v > st->floor[m] ? v : 0; /* 0: left out of the fit */
        }
        st->order[m] = nsdae_order_fit(h, e, st->nruns, &st->used[m]);
    }
    free(h);
    free(e);
}

/* One step count: both runs and their measures; the coarsest and finest runs are kept. */
static int study_one(const xc_system *sys, const char *cmd, int r, xc_study *st)
{
    xc_track eng, ts;
    int rc = xc_run_engine(sys, cmd, st->runs[r].n, &eng);
    if (!rc) rc = xc_run_stepper(sys, cmd, st->runs[r].n, &ts);
    else memset(&ts, 0, sizeof ts);
    if (!rc) rc = compare_run(sys, cmd, &eng, &ts, &st->runs[r]);
    if (!rc && r == st->nruns - 1) {
        const xc_event *ev = first_event(sys, &eng);
        st->engine = eng.sum;
        st->engine_events = 0;
        for (long e = 0; e < eng.nevents; e++) st->engine_events += after_t0(sys, &eng.events[e]);
        if (ev) {
            st->first = *ev;
            st->first.pre = st->first.post = NULL;
        }
        floors(sys, &eng, st->floor);
        st->fine_engine = eng;
        st->fine_ts = ts;
        return 0;
    }
    if (!rc && r == 0) {
        st->coarse_ts = ts;
        memset(&ts, 0, sizeof ts);
    }
    xc_track_free(&eng);
    xc_track_free(&ts);
    return rc;
}

int xc_study_run(const xc_system *sys, const char *cmd, const long *steps, int nruns, xc_study *st)
{
    memset(st, 0, sizeof *st);
    st->first.t = NAN;
    st->nruns = nruns;
    st->runs = calloc((size_t)nruns, sizeof *st->runs);
    long *sorted = calloc((size_t)nruns, sizeof *sorted);
    if (!st->runs || !sorted) {
        free(sorted);
        fprintf(stderr, "nsdae %s: out of memory\n", cmd);
        return 1;
    }
    memcpy(sorted, steps, (size_t)nruns * sizeof *sorted);
    qsort(sorted, (size_t)nruns, sizeof *sorted, compare_long); /* coarse to fine */
    int rc = 0;
    for (int r = 0; r < nruns && !rc; r++) {
        st->runs[r].n = sorted[r];
        st->runs[r].h = (sys->stop - sys->t0) / (double)sorted[r];
        rc = study_one(sys, cmd, r, st);
    }
    free(sorted);
    if (!rc) fit_orders(st);
    return rc;
}

void xc_study_free(xc_study *st)
{
    free(st->runs);
    xc_track_free(&st->coarse_ts);
    xc_track_free(&st->fine_ts);
    xc_track_free(&st->fine_engine);
    memset(st, 0, sizeof *st);
}
