/* A run written as HDF5 (`simulate --format hdf5`): one 1-D double dataset per column ("/t",
 * "/x1", ...), chunked and extended as rows come, in the column order of the CSV; the run's facts
 * (run_meta.h) as attributes of the root group, and each dataset's print format ("real", "count",
 * "residual") as its attribute "format". For runs too large for text: 8 bytes per value, read by
 * h5py, MATLAB, Julia without parsing.
 *
 * Rows are buffered (HDF5_SINK_CHUNK per column) and written a chunk at a time; the thinning rule
 * is the CSV sink's (csv_sink.h). Every HDF5 failure is reported once, naming the file. The sink
 * lives in a module loaded on first use (hdf5_sink_ops.h): a missing module is an open failure. */
#ifndef NSDAE_CLI_HDF5_SINK_H
#define NSDAE_CLI_HDF5_SINK_H

#include "cli/run_meta.h"

#include <nsdae/csv_sink.h>
#include <nsdae/run_record.h>

#include <stddef.h>

typedef struct hdf5_sink hdf5_sink;

/* Creates (truncates) path with a dataset per column. Returns 0, or -1 with the reason in why. */
int hdf5_sink_open(const char *path, const nsdae_run_columns *cols, nsdae_csv_thinning thin, hdf5_sink **out,
                   char *why, size_t why_size);

/* Writes rec when it is due (the CSV sink's rule). Returns 0 or -1 with why. */
int hdf5_sink_write(hdf5_sink *s, const nsdae_run_record *rec, char *why, size_t why_size);

/* Flushes the buffered rows and writes the attributes. Returns 0 or -1 with why. */
int hdf5_sink_finish(hdf5_sink *s, const run_meta *meta, char *why, size_t why_size);

long hdf5_sink_last_k(const hdf5_sink *s);
double hdf5_sink_last_t(const hdf5_sink *s);

/* Closes the file (after finish, or to abandon it). */
void hdf5_sink_destroy(hdf5_sink *s);

/* The HDF5 library's own version (H5get_libversion) as the module sees it: 0, or -1 with why
 * (the module cannot be loaded: hdf5_sink_ops.h). */
int hdf5_sink_library_version(unsigned version[3], char *why, size_t why_size);

/* 1 once the module is loaded (by an open or a version query), else 0: loads nothing. */
int hdf5_sink_loaded(void);

#endif
