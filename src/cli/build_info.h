/* What this nsdae is: its version and commit, and the versions of the libraries it runs on, for
 * `nsdae --version` and the run sidecar (sidecar.h). */
#ifndef NSDAE_CLI_BUILD_INFO_H
#define NSDAE_CLI_BUILD_INFO_H

#include <stdio.h>

/* nsdae_version() and nsdae_git_commit() of the library run with (version.h). */
const char *build_info_version(void);
const char *build_info_commit(void);

typedef struct dependency_version {
    const char *name;
    char version[96];
} dependency_version;

#define BUILD_INFO_NDEPS 5

/* What build_info_dependencies says of HDF5, which lives in a module loaded on first use
 * (hdf5_sink_ops.h): loading it costs a process its 36 libraries, twice the rest of a small run. */
typedef enum build_info_hdf5 {
    BUILD_INFO_HDF5_LOAD,     /* load the module: the library's own run-time report (--version, HDF5 runs) */
    BUILD_INFO_HDF5_IF_LOADED /* the run-time report if the module is loaded, else the headers' version */
} build_info_hdf5;

/* Siconos numerics, OpenBLAS, LAPACK, SUNDIALS, HDF5: the versions of the libraries linked (LAPACK
 * and OpenBLAS as they report themselves at run time; Siconos and SUNDIALS as built against; HDF5
 * as hdf5 says). */
void build_info_dependencies(dependency_version deps[BUILD_INFO_NDEPS], build_info_hdf5 hdf5);

#endif
