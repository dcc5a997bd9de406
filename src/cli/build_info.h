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

/* Siconos numerics, OpenBLAS, LAPACK, SUNDIALS, HDF5: the versions of the libraries linked (HDF5,
 * LAPACK and OpenBLAS as they report themselves at run time; Siconos and SUNDIALS as built against). */
void build_info_dependencies(dependency_version deps[BUILD_INFO_NDEPS]);

#endif
