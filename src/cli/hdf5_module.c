/* HDF5 output (hdf5_sink.h), built as the module nsdae_hdf5.so (hdf5_sink_ops.h). Each column
 * is an extendible 1-D dataset with chunks of HDF5_SINK_CHUNK doubles: a chunk is 32 KiB, large
 * enough that a million-row run takes a few hundred writes per column, small enough that a short
 * run wastes little. */
#include "cli/hdf5_sink_ops.h"

#include <hdf5.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HDF5_SINK_CHUNK 4096

struct hdf5_sink {
    hid_t file;
    int ncols;                /* datasets: t and the run's columns */
    hid_t *dset;
    double *buf;              /* ncols x HDF5_SINK_CHUNK, column-major: column c at buf + c * CHUNK */
    long buffered, written;   /* rows in buf, rows already in the file */
    nsdae_csv_thinning thin;
    long last_k;
    double last_t;
    char path[1024];
};

static int fail(const hdf5_sink *s, const char *what, char *why, size_t why_size)
{
    snprintf(why, why_size, "writing %s failed (HDF5: %s)", s->path, what);
    return -1;
}

static const char *format_name(nsdae_column_format f)
{
    return f == NSDAE_COLUMN_COUNT ? "count" : f == NSDAE_COLUMN_RESIDUAL ? "residual" : "real";
}

static int set_text_attribute(hid_t obj, const char *name, const char *text)
{
    hid_t type = H5Tcopy(H5T_C_S1), space = H5Screate(H5S_SCALAR);
    H5Tset_size(type, strlen(text) + 1);
    H5Tset_cset(type, H5T_CSET_UTF8);
    hid_t a = H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    int ok = a >= 0 && H5Awrite(a, type, text) >= 0;
    if (a >= 0) H5Aclose(a);
    H5Sclose(space);
    H5Tclose(type);
    return ok;
}

static int set_number_attribute(hid_t obj, const char *name, double v)
{
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(obj, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT);
    int ok = a >= 0 && H5Awrite(a, H5T_NATIVE_DOUBLE, &v) >= 0;
    if (a >= 0) H5Aclose(a);
    H5Sclose(space);
    return ok;
}

/* One extendible dataset of doubles named name. */
static hid_t create_column(hid_t file, const char *name)
{
    hsize_t dims = 0, maxdims = H5S_UNLIMITED, chunk = HDF5_SINK_CHUNK;
    hid_t space = H5Screate_simple(1, &dims, &maxdims), plist = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(plist, 1, &chunk);
    hid_t d = H5Dcreate2(file, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, plist, H5P_DEFAULT);
    H5Pclose(plist);
    H5Sclose(space);
    return d;
}

static int module_open(const char *path, const nsdae_run_columns *cols, nsdae_csv_thinning thin, hdf5_sink **out,
                       char *why, size_t why_size)
{
    *out = NULL;
    hdf5_sink *s = calloc(1, sizeof *s);
    if (!s) return snprintf(why, why_size, "out of memory"), -1;
    snprintf(s->path, sizeof s->path, "%s", path);
    s->ncols = cols->n + 1;
    s->thin = thin;
    s->last_k = -1;
    s->dset = calloc((size_t)s->ncols, sizeof *s->dset);
    s->buf = malloc((size_t)s->ncols * HDF5_SINK_CHUNK * sizeof *s->buf);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* no HDF5 error stack on stderr: our message says it */
    s->file = s->dset && s->buf ? H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT) : -1;
    *out = s;
    if (!s->dset || !s->buf) return snprintf(why, why_size, "out of memory"), -1;
    if (s->file < 0) return fail(s, "cannot create the file", why, why_size);
    for (int c = 0; c < s->ncols; c++) {
        const char *name = c ? cols->names[c - 1] : "t";
        s->dset[c] = create_column(s->file, name);
        if (s->dset[c] < 0 || !set_text_attribute(s->dset[c], "format", c ? format_name(cols->format[c - 1]) : "real")) {
            char what[256];
            snprintf(what, sizeof what, "cannot create dataset '%s'", name);
            return fail(s, what, why, why_size);
        }
    }
    return 0;
}

/* Appends the buffered rows to every dataset. */
static int flush_rows(hdf5_sink *s, char *why, size_t why_size)
{
    if (s->buffered == 0) return 0;
    hsize_t start = (hsize_t)s->written, count = (hsize_t)s->buffered, total = start + count;
    for (int c = 0; c < s->ncols; c++) {
        if (H5Dset_extent(s->dset[c], &total) < 0) return fail(s, "cannot extend a dataset", why, why_size);
        hid_t file_space = H5Dget_space(s->dset[c]), mem_space = H5Screate_simple(1, &count, NULL);
        H5Sselect_hyperslab(file_space, H5S_SELECT_SET, &start, NULL, &count, NULL);
        herr_t st = H5Dwrite(s->dset[c], H5T_NATIVE_DOUBLE, mem_space, file_space, H5P_DEFAULT,
                             s->buf + (size_t)c * HDF5_SINK_CHUNK);
        H5Sclose(mem_space);
        H5Sclose(file_space);
        if (st < 0) return fail(s, "cannot write rows (disk full?)", why, why_size);
    }
    s->written += s->buffered;
    s->buffered = 0;
    return 0;
}

static int module_write(hdf5_sink *s, const nsdae_run_record *rec, char *why, size_t why_size)
{
    if (rec->k % s->thin.every != 0 && rec->k != s->thin.last_step) return 0;
    s->buf[s->buffered] = rec->t;
    for (int c = 1; c < s->ncols; c++) s->buf[(size_t)c * HDF5_SINK_CHUNK + (size_t)s->buffered] = rec->values[c - 1];
    s->buffered++;
    s->last_k = rec->k;
    s->last_t = rec->t;
    return s->buffered == HDF5_SINK_CHUNK ? flush_rows(s, why, why_size) : 0;
}

static int module_finish(hdf5_sink *s, const run_meta *meta, char *why, size_t why_size)
{
    if (flush_rows(s, why, why_size) != 0) return -1;
    hid_t root = H5Gopen2(s->file, "/", H5P_DEFAULT);
    int ok = root >= 0;
    for (int i = 0; ok && meta && i < meta->n; i++) {
        const meta_entry *e = &meta->e[i];
        ok = e->is_text ? set_text_attribute(root, e->key, e->text) : set_number_attribute(root, e->key, e->number);
    }
    if (ok && meta && meta->dropped) ok = set_number_attribute(root, "entries_left_out", meta->dropped);
    if (root >= 0) H5Gclose(root);
    if (!ok) return fail(s, "cannot write the run's attributes", why, why_size);
    return H5Fflush(s->file, H5F_SCOPE_GLOBAL) < 0 ? fail(s, "flush", why, why_size) : 0;
}

static long module_last_k(const hdf5_sink *s)
{
    return s->last_k;
}

static double module_last_t(const hdf5_sink *s)
{
    return s->last_t;
}

static void module_destroy(hdf5_sink *s)
{
    if (!s) return;
    for (int c = 0; s->dset && c < s->ncols; c++)
        if (s->dset[c] > 0) H5Dclose(s->dset[c]);
    if (s->file >= 0) H5Fclose(s->file);
    free(s->dset);
    free(s->buf);
    free(s);
}

static void module_library_version(unsigned *major, unsigned *minor, unsigned *release)
{
    H5get_libversion(major, minor, release);
}

/* the module's one exported symbol (the build gives it default visibility, hdf5_sink_ops.h) */
const hdf5_sink_ops nsdae_hdf5_sink_ops = {
    HDF5_SINK_OPS_ABI, NSDAE_VERSION, sizeof(run_meta), module_open, module_write, module_finish,
    module_last_k, module_last_t, module_destroy, module_library_version,
};
