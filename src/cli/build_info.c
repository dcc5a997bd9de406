/* Versions (build_info.h). nsdae's own come from the library (version.h); a library's own run-time
 * report is preferred to its header's, since the library loaded may not be the one compiled
 * against. */
#include "cli/build_info.h"
#include "cli/hdf5_sink.h"

#include <H5public.h> /* the version macros only: the command does not link libhdf5 */
#include <lapacke.h>
#include <nsdae/version.h>
#include <sundials/sundials_config.h>

#include <string.h>

#ifndef NSDAE_SICONOS_VERSION
#define NSDAE_SICONOS_VERSION "unknown"
#endif

/* OpenBLAS's own report ("OpenBLAS 0.3.21 DYNAMIC_ARCH ..."); declared here since its cblas.h
 * would clash with LAPACKE's complex types. */
extern char *openblas_get_config(void);

const char *build_info_version(void)
{
    return nsdae_version();
}

const char *build_info_commit(void)
{
    return nsdae_git_commit();
}

void build_info_dependencies(dependency_version deps[BUILD_INFO_NDEPS], build_info_hdf5 hdf5)
{
    deps[0].name = "siconos-numerics";
    snprintf(deps[0].version, sizeof deps[0].version, "%s", NSDAE_SICONOS_VERSION);
    deps[1].name = "openblas";
    const char *cfg = openblas_get_config();
    /* "OpenBLAS 0.3.21 ..." -> "0.3.21" */
    if (cfg && strncmp(cfg, "OpenBLAS ", 9) == 0) snprintf(deps[1].version, sizeof deps[1].version, "%.*s",
                                                          (int)strcspn(cfg + 9, " "), cfg + 9);
    else snprintf(deps[1].version, sizeof deps[1].version, "%s", cfg ? cfg : "unknown");
    lapack_int major = 0, minor = 0, patch = 0;
    LAPACKE_ilaver(&major, &minor, &patch);
    deps[2].name = "lapack";
    snprintf(deps[2].version, sizeof deps[2].version, "%d.%d.%d", (int)major, (int)minor, (int)patch);
    deps[3].name = "sundials";
    snprintf(deps[3].version, sizeof deps[3].version, "%s", SUNDIALS_VERSION);
    unsigned h5[3];
    char why[512];
    deps[4].name = "hdf5";
    if (hdf5 == BUILD_INFO_HDF5_IF_LOADED && !hdf5_sink_loaded())
        snprintf(deps[4].version, sizeof deps[4].version, "%d.%d.%d", H5_VERS_MAJOR, H5_VERS_MINOR, H5_VERS_RELEASE);
    else if (hdf5_sink_library_version(h5, why, sizeof why) == 0)
        snprintf(deps[4].version, sizeof deps[4].version, "%u.%u.%u", h5[0], h5[1], h5[2]);
    else
        snprintf(deps[4].version, sizeof deps[4].version, "not loaded (module nsdae_hdf5.so unavailable)");
}
