/* The CSV sink of every engine: a header line of column names, then one line per run record
 * (run_record.h), to a stream the caller opened.
 *
 * Rows are whole: each is formatted into a buffer and handed to the stream in one fwrite, and a
 * caller that stops between records (a signal flag checked in its callback) then finishes the
 * sink, so the file never ends inside a row. Every write and flush is checked: the first failure
 * (a full disk, /dev/full, a closed pipe) is NSDAE_IO naming the output and the system's reason,
 * and the sink writes nothing after it. Not thread-safe (one sink per stream); O(columns) per row.
 */
#ifndef NSDAE_CSV_SINK_H
#define NSDAE_CSV_SINK_H

#include <nsdae/run_record.h>
#include <nsdae/status.h>

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nsdae_csv_sink nsdae_csv_sink;

/* Which records become rows: every K-th step (k % every == 0) and always the step last_step,
 * so the row at the stop time is never dropped. every = 1 writes every record. */
typedef struct nsdae_csv_thinning {
    long every;       /* >= 1 */
    long last_step;   /* the grid's n (time_grid.h) */
} nsdae_csv_thinning;

/* Writes the header "t,<names>" to out (not closed by the sink). name is used in messages
 * ("standard output", a path). cols is copied. */
nsdae_status nsdae_csv_sink_open(FILE *out, const char *name, const nsdae_run_columns *cols,
                                 nsdae_csv_thinning thin, nsdae_csv_sink **sink, nsdae_error *err);

/* Writes rec when it is due; flushes the stream every 1000 steps so a long run is visible. */
nsdae_status nsdae_csv_sink_write(nsdae_csv_sink *sink, const nsdae_run_record *rec, nsdae_error *err);

/* Flushes the stream and checks it for an earlier error. */
nsdae_status nsdae_csv_sink_finish(nsdae_csv_sink *sink, nsdae_error *err);

/* The last row written: its step and time (k = -1 before the first). */
long nsdae_csv_sink_last_k(const nsdae_csv_sink *sink);
double nsdae_csv_sink_last_t(const nsdae_csv_sink *sink);

void nsdae_csv_sink_destroy(nsdae_csv_sink *sink);

#ifdef __cplusplus
}
#endif

#endif
