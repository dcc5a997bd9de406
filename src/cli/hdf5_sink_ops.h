/* The HDF5 sink's entry points as the module nsdae_hdf5.so exports them (hdf5_module.c), read by
 * the command's loader (hdf5_sink.c). The sink is a module because libhdf5 brings 36 shared
 * libraries (curl, TLS, Kerberos, LDAP): linked into the command, loading them cost every nsdae
 * process about 23 ms of its 53 ms of processor time (perf stat; a 10-diode ladder's 200 steps
 * take 0.3 ms). Only runs that write HDF5, and `--version`, load it. */
#ifndef NSDAE_CLI_HDF5_SINK_OPS_H
#define NSDAE_CLI_HDF5_SINK_OPS_H

#include "cli/hdf5_sink.h"

/* The table's symbol in the module and its layout's number: a module of another build (another
 * version, another run_meta) is refused, not called. */
#define HDF5_SINK_OPS_SYMBOL "nsdae_hdf5_sink_ops"
#define HDF5_SINK_OPS_ABI 1
#define HDF5_SINK_MODULE_FILE "nsdae_hdf5.so"

typedef struct hdf5_sink_ops {
    int abi;
    const char *nsdae_version; /* NSDAE_VERSION of the module's build */
    size_t run_meta_size;      /* sizeof(run_meta) in the module's build */
    int (*open)(const char *path, const nsdae_run_columns *cols, nsdae_csv_thinning thin, hdf5_sink **out,
                char *why, size_t why_size);
    int (*write)(hdf5_sink *s, const nsdae_run_record *rec, char *why, size_t why_size);
    int (*finish)(hdf5_sink *s, const run_meta *meta, char *why, size_t why_size);
    long (*last_k)(const hdf5_sink *s);
    double (*last_t)(const hdf5_sink *s);
    void (*destroy)(hdf5_sink *s);
    void (*library_version)(unsigned *major, unsigned *minor, unsigned *release);
} hdf5_sink_ops;

#endif
