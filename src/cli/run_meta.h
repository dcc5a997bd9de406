/* The facts of a run, as a flat list of named texts and numbers, written by the JSON sidecar
 * (sidecar.h) and as HDF5 attributes (hdf5_sink.h) from the one list. A key "group.name" puts
 * name inside the object group in JSON (one level); HDF5 keeps the dotted name. */
#ifndef NSDAE_CLI_RUN_META_H
#define NSDAE_CLI_RUN_META_H

#include "cli/run_options.h"

#define RUN_META_MAX 160

typedef struct meta_entry {
    char key[160];
    int is_text;
    char text[512];
    double number;
} meta_entry;

typedef struct run_meta {
    meta_entry e[RUN_META_MAX];
    int n;
    int dropped;          /* entries beyond RUN_META_MAX (a model with very many parameters) */
} run_meta;

void meta_text(run_meta *m, const char *key, const char *text);
void meta_number(run_meta *m, const char *key, double v);

/* What is known before the run: nsdae's version and commit, the libraries' versions, the model
 * (path and sha256 of a file, or the example's name) and its parameters after the overrides, the
 * command and scheme. HDF5's version is the loaded library's when writes_hdf5 (the run loads it
 * anyway), else the version built against: a run without HDF5 output never loads it (build_info.h). */
void run_meta_begin(run_meta *m, const char *command, const run_options *ro, int writes_hdf5);

#endif
