/* The CSV sink of every engine (csv_sink.h). */
#include <nsdae/csv_sink.h>
#include <nsdae/number_text.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Longest text of one value: "-1.2345678901234567e-308" is 24 characters; a comma before it. */
#define CELL_MAX 26
/* Flush period in steps: rows of a long run reach the file while it runs, at a cost that does not
 * show (one write per 1000 rows). */
#define FLUSH_EVERY 1000

struct nsdae_csv_sink {
    FILE *out;
    char *name;
    nsdae_run_columns cols;   /* the format array only; names are not needed after the header */
    nsdae_csv_thinning thin;
    char *row;                /* one row's text */
    size_t row_size;
    int failed;
    long last_k;
    double last_t;
};

static nsdae_status io_error(nsdae_csv_sink *s, const char *what, int errnum, nsdae_error *err)
{
    s->failed = 1;
    return nsdae_error_set(err, NSDAE_IO, "writing %s failed (%s): %s", s->name, what,
                           errnum ? strerror(errnum) : "stream error");
}

/* One fwrite for the whole text; a short write or a stream error is reported. */
static nsdae_status put(nsdae_csv_sink *s, const char *text, size_t len, nsdae_error *err)
{
    errno = 0;
    if (fwrite(text, 1, len, s->out) != len || ferror(s->out)) return io_error(s, "write", errno, err);
    return NSDAE_OK;
}

nsdae_status nsdae_csv_sink_open(FILE *out, const char *name, const nsdae_run_columns *cols,
                                 nsdae_csv_thinning thin, nsdae_csv_sink **sink, nsdae_error *err)
{
    if (thin.every < 1)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "csv sink: every %ld must be >= 1", thin.every);
    nsdae_csv_sink *s = calloc(1, sizeof *s);
    size_t header = 2;
    for (int j = 0; j < cols->n; j++) header += strlen(cols->names[j]) + 1;
    if (s) {
        s->out = out;
        s->thin = thin;
        s->last_k = -1;
        s->name = malloc(strlen(name) + 1);
        s->cols.n = cols->n;
        s->cols.format = calloc((size_t)cols->n + 1, sizeof *s->cols.format);
        s->row_size = (size_t)(cols->n + 1) * CELL_MAX + 2;
        if (s->row_size < header) s->row_size = header;
        s->row = malloc(s->row_size);
    }
    if (!s || !s->name || !s->cols.format || !s->row) {
        nsdae_csv_sink_destroy(s);
        return nsdae_error_set(err, NSDAE_NOMEM, "csv sink: out of memory");
    }
    strcpy(s->name, name);
    memcpy(s->cols.format, cols->format, (size_t)cols->n * sizeof *cols->format);
    size_t used = (size_t)snprintf(s->row, s->row_size, "t");
    for (int j = 0; j < cols->n; j++)
        used += (size_t)snprintf(s->row + used, s->row_size - used, ",%s", cols->names[j]);
    s->row[used++] = '\n';
    nsdae_status st = put(s, s->row, used, err);
    if (st != NSDAE_OK) {
        nsdae_csv_sink_destroy(s);
        return st;
    }
    *sink = s;
    return NSDAE_OK;
}

static size_t format_cell(char *buf, size_t size, double v, nsdae_column_format f)
{
    int n;
    if (f == NSDAE_COLUMN_RESIDUAL) n = snprintf(buf, size, ",%.3g", v);
    else if (f == NSDAE_COLUMN_COUNT && isinf(v)) n = snprintf(buf, size, ",inf");
    else {
        char text[NSDAE_SHORTEST_SIZE];
        nsdae_shortest_text(text, sizeof text, v);
        n = snprintf(buf, size, ",%s", text);
    }
    return n < 0 ? 0 : (size_t)n;
}

nsdae_status nsdae_csv_sink_write(nsdae_csv_sink *s, const nsdae_run_record *rec, nsdae_error *err)
{
    if (s->failed) return nsdae_error_set(err, NSDAE_IO, "writing %s failed earlier", s->name);
    if (rec->k % s->thin.every == 0 || rec->k == s->thin.last_step) {
        char t_text[NSDAE_SHORTEST_SIZE];
        nsdae_shortest_text(t_text, sizeof t_text, rec->t);
        size_t used = (size_t)snprintf(s->row, s->row_size, "%s", t_text);
        for (int j = 0; j < s->cols.n; j++)
            used += format_cell(s->row + used, s->row_size - used, rec->values[j], s->cols.format[j]);
        s->row[used++] = '\n';
        nsdae_status st = put(s, s->row, used, err);
        if (st != NSDAE_OK) return st;
        s->last_k = rec->k;
        s->last_t = rec->t;
    }
    errno = 0;
    if (rec->k % FLUSH_EVERY == 0 && fflush(s->out) != 0) return io_error(s, "flush", errno, err);
    return NSDAE_OK;
}

nsdae_status nsdae_csv_sink_finish(nsdae_csv_sink *s, nsdae_error *err)
{
    if (s->failed) return nsdae_error_set(err, NSDAE_IO, "writing %s failed earlier", s->name);
    errno = 0;
    if (fflush(s->out) != 0 || ferror(s->out)) return io_error(s, "flush", errno, err);
    return NSDAE_OK;
}

long nsdae_csv_sink_last_k(const nsdae_csv_sink *s)
{
    return s->last_k;
}

double nsdae_csv_sink_last_t(const nsdae_csv_sink *s)
{
    return s->last_t;
}

void nsdae_csv_sink_destroy(nsdae_csv_sink *s)
{
    if (!s) return;
    free(s->name);
    free(s->cols.format);
    free(s->row);
    free(s);
}
