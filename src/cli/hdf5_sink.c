/* The command's side of the HDF5 sink (hdf5_sink.h): the module nsdae_hdf5.so (hdf5_sink_ops.h
 * says why it is one) is loaded on first use, from beside the command (the build tree) or from
 * <libdir>/nsdae relative to it (an installed tree, which is relocatable: the path is the
 * command's own, not the configured prefix). */
#include "cli/hdf5_sink_ops.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef NSDAE_HDF5_MODULE_FROM_BIN
#define NSDAE_HDF5_MODULE_FROM_BIN "../lib/nsdae"
#endif

static const hdf5_sink_ops *loaded;

/* The running command's directory ("" if /proc does not say). */
static void command_dir(char *dir, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", dir, size - 1);
    dir[n > 0 ? n : 0] = '\0';
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
}

/* A module at path whose table matches this build, or NULL with the reason in err. Bound lazily,
 * as the libraries the command starts with are: RTLD_NOW binds every call site of libhdf5's 36
 * libraries up front, 8.7 M instructions more for `nsdae --version` (58.3 M against 49.6 M,
 * callgrind) and 7.6 M more for a 200-step HDF5 run. The module and libhdf5 are found by soname
 * and the table's check below refuses another build's module, so a symbol missing at a call is
 * no likelier than in a linked command. */
static const hdf5_sink_ops *try_module(const char *path, char *err, size_t err_size)
{
    void *h = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(err, err_size, "%s", e ? e : "dlopen failed");
        return NULL;
    }
    const hdf5_sink_ops *o = dlsym(h, HDF5_SINK_OPS_SYMBOL);
    if (o && o->abi == HDF5_SINK_OPS_ABI && strcmp(o->nsdae_version, NSDAE_VERSION) == 0 &&
        o->run_meta_size == sizeof(run_meta))
        return o;
    snprintf(err, err_size, "%.300s is not this nsdae's (%s)", path, o ? "another build" : "no sink table");
    dlclose(h);
    return NULL;
}

static const hdf5_sink_ops *sink_ops(char *why, size_t why_size)
{
    if (loaded)
        return loaded;
    char dir[PATH_MAX], path[2][PATH_MAX + 64], err[512] = "";
    command_dir(dir, sizeof dir);
    snprintf(path[0], sizeof path[0], "%s/%s", dir, HDF5_SINK_MODULE_FILE);
    snprintf(path[1], sizeof path[1], "%s/%s/%s", dir, NSDAE_HDF5_MODULE_FROM_BIN, HDF5_SINK_MODULE_FILE);
    for (int i = 0; i < 2 && !loaded; i++)
        if (access(path[i], F_OK) == 0)
            loaded = try_module(path[i], err, sizeof err);
    if (!loaded)
        snprintf(why, why_size, "HDF5 output needs the module %s: %s", path[1],
                 err[0] ? err : "not installed (nor beside the command)");
    return loaded;
}

int hdf5_sink_open(const char *path, const nsdae_run_columns *cols, nsdae_csv_thinning thin, hdf5_sink **out,
                   char *why, size_t why_size)
{
    *out = NULL;
    const hdf5_sink_ops *o = sink_ops(why, why_size);
    return o ? o->open(path, cols, thin, out, why, why_size) : -1;
}

/* The functions below take a sink, which only exists once the module is loaded. */
int hdf5_sink_write(hdf5_sink *s, const nsdae_run_record *rec, char *why, size_t why_size)
{
    return loaded->write(s, rec, why, why_size);
}

int hdf5_sink_finish(hdf5_sink *s, const run_meta *meta, char *why, size_t why_size)
{
    return loaded->finish(s, meta, why, why_size);
}

long hdf5_sink_last_k(const hdf5_sink *s)
{
    return loaded->last_k(s);
}

double hdf5_sink_last_t(const hdf5_sink *s)
{
    return loaded->last_t(s);
}

void hdf5_sink_destroy(hdf5_sink *s)
{
    if (s && loaded)
        loaded->destroy(s);
}

int hdf5_sink_library_version(unsigned version[3], char *why, size_t why_size)
{
    const hdf5_sink_ops *o = sink_ops(why, why_size);
    if (!o)
        return -1;
    o->library_version(&version[0], &version[1], &version[2]);
    return 0;
}

int hdf5_sink_loaded(void)
{
    return loaded != NULL;
}
