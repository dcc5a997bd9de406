/* One step-record type for the output of every engine: a row is the time and the engine's columns,
 * all as doubles, described once per run by a column list (names and print format).
 *
 *   MLCS steppers:  t, y (ny), lambda (nl), nsol, res
 *   Moreau-Jean:    t, q (ndof), der(q) (ndof), P_c (ncontacts), Pt_c (contacts with friction), active_c
 *                   (ncontacts), res
 *
 * The engines keep their own richer callbacks (stepper.h, lagrangian.h); the functions below turn
 * one of their records into a run record, so a sink (csv_sink.h) serves them all, and the
 * event-driven engine adds one builder pair instead of one writer. Cost: O(columns) per record,
 * no allocation (the caller owns the value array).
 */
#ifndef NSDAE_RUN_RECORD_H
#define NSDAE_RUN_RECORD_H

#include <nsdae/moreau.h>
#include <nsdae/mlcs.h>
#include <nsdae/status.h>
#include <nsdae/stepper.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum nsdae_column_format {
    NSDAE_COLUMN_REAL = 0,    /* printed with the fewest digits that round-trip (number_text.h) */
    NSDAE_COLUMN_COUNT,       /* a whole number; +inf is printed "inf" (a continuum of solutions) */
    NSDAE_COLUMN_RESIDUAL     /* an error measure: 3 significant digits */
} nsdae_column_format;

typedef struct nsdae_run_columns {
    int n;                          /* columns after t */
    char **names;                   /* n, owned */
    nsdae_column_format *format;    /* n, owned */
} nsdae_run_columns;

typedef struct nsdae_run_record {
    long k;                   /* step number, 0 for the initial state */
    double t;
    const double *values;     /* the run's columns.n values; valid during the call only */
} nsdae_run_record;

/* Column lists of each engine's rows (unnamed unknowns get "y", "lambda", "q", "contact"). */
nsdae_status nsdae_run_columns_mlcs(const nsdae_mlcs *s, nsdae_run_columns *cols, nsdae_error *err);
nsdae_status nsdae_run_columns_contact(const nsdae_lagrangian *s, nsdae_run_columns *cols, nsdae_error *err);
void nsdae_run_columns_free(nsdae_run_columns *cols);

/* A record of each engine as a run record; values has room for the matching columns' n. */
nsdae_run_record nsdae_run_record_mlcs(const nsdae_mlcs *s, const nsdae_step_record *rec, double *values);
nsdae_run_record nsdae_run_record_contact(const nsdae_lagrangian *s, const nsdae_contact_record *rec,
                                          double *values);

#ifdef __cplusplus
}
#endif

#endif
