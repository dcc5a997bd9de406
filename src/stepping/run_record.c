/* Every engine's rows as one record type (run_record.h). */
#include <nsdae/run_record.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static nsdae_status columns_alloc(nsdae_run_columns *cols, int n, nsdae_error *err)
{
    cols->n = n;
    cols->names = calloc((size_t)n, sizeof *cols->names);
    cols->format = calloc((size_t)n, sizeof *cols->format);
    if (cols->names && cols->format) return NSDAE_OK;
    nsdae_run_columns_free(cols);
    return nsdae_error_set(err, NSDAE_NOMEM, "run columns: out of memory");
}

/* Column j is prefix + name + suffix, name falling back to fallback. */
static nsdae_status set_column(nsdae_run_columns *cols, int j, const char *prefix, const char *name,
                               const char *fallback, const char *suffix, nsdae_column_format format,
                               nsdae_error *err)
{
    if (!name) name = fallback;
    size_t size = strlen(prefix) + strlen(name) + strlen(suffix) + 1;
    cols->names[j] = malloc(size);
    if (!cols->names[j]) return nsdae_error_set(err, NSDAE_NOMEM, "run columns: out of memory");
    snprintf(cols->names[j], size, "%s%s%s", prefix, name, suffix);
    cols->format[j] = format;
    return NSDAE_OK;
}

nsdae_status nsdae_run_columns_mlcs(const nsdae_mlcs *s, nsdae_run_columns *cols, nsdae_error *err)
{
    nsdae_status st = columns_alloc(cols, s->ny + s->nl + 2, err);
    int j = 0;
    for (int i = 0; st == NSDAE_OK && i < s->ny; i++)
        st = set_column(cols, j++, "", s->y_names ? s->y_names[i] : NULL, "y", "", NSDAE_COLUMN_REAL, err);
    for (int i = 0; st == NSDAE_OK && i < s->nl; i++)
        st = set_column(cols, j++, "", s->l_names ? s->l_names[i] : NULL, "lambda", "", NSDAE_COLUMN_REAL, err);
    if (st == NSDAE_OK) st = set_column(cols, j++, "", "nsol", "", "", NSDAE_COLUMN_COUNT, err);
    if (st == NSDAE_OK) st = set_column(cols, j++, "", "res", "", "", NSDAE_COLUMN_RESIDUAL, err);
    if (st != NSDAE_OK) nsdae_run_columns_free(cols);
    return st;
}

/* Contacts with friction: their tangential percussions get a column each (Pt_<contact>). */
static int nfrictional(const nsdae_lagrangian *s)
{
    int f = 0;
    for (int c = 0; c < s->ncontacts; c++) f += s->friction[c] > 0.0;
    return f;
}

nsdae_status nsdae_run_columns_contact(const nsdae_lagrangian *s, nsdae_run_columns *cols, nsdae_error *err)
{
    const int n = s->ndof, m = s->ncontacts;
    nsdae_status st = columns_alloc(cols, 2 * n + 2 * m + 1 + nfrictional(s), err);
    int j = 0;
    for (int i = 0; st == NSDAE_OK && i < n; i++)
        st = set_column(cols, j++, "", s->q_names[i], "q", "", NSDAE_COLUMN_REAL, err);
    for (int i = 0; st == NSDAE_OK && i < n; i++)
        st = set_column(cols, j++, "der(", s->q_names[i], "q", ")", NSDAE_COLUMN_REAL, err);
    for (int c = 0; st == NSDAE_OK && c < m; c++)
        st = set_column(cols, j++, "P_", s->c_names[c], "contact", "", NSDAE_COLUMN_REAL, err);
    for (int c = 0; st == NSDAE_OK && c < m; c++)
        if (s->friction[c] > 0.0)
            st = set_column(cols, j++, "Pt_", s->c_names[c], "contact", "", NSDAE_COLUMN_REAL, err);
    for (int c = 0; st == NSDAE_OK && c < m; c++)
        st = set_column(cols, j++, "active_", s->c_names[c], "contact", "", NSDAE_COLUMN_COUNT, err);
    if (st == NSDAE_OK) st = set_column(cols, j++, "", "res", "", "", NSDAE_COLUMN_RESIDUAL, err);
    if (st != NSDAE_OK) nsdae_run_columns_free(cols);
    return st;
}

void nsdae_run_columns_free(nsdae_run_columns *cols)
{
    for (int j = 0; cols->names && j < cols->n; j++) free(cols->names[j]);
    free(cols->names);
    free(cols->format);
    *cols = (nsdae_run_columns){0, NULL, NULL};
}

nsdae_run_record nsdae_run_record_mlcs(const nsdae_mlcs *s, const nsdae_step_record *rec, double *values)
{
    memcpy(values, rec->y, (size_t)s->ny * sizeof *values);
    memcpy(values + s->ny, rec->lambda, (size_t)s->nl * sizeof *values);
    /* nsol -1 is a continuum of solutions */
    values[s->ny + s->nl] = rec->nsol < 0 ? INFINITY : (double)rec->nsol;
    values[s->ny + s->nl + 1] = rec->residual;
    return (nsdae_run_record){rec->k, rec->t, values};
}

nsdae_run_record nsdae_run_record_contact(const nsdae_lagrangian *s, const nsdae_contact_record *rec,
                                          double *values)
{
    const int n = s->ndof, m = s->ncontacts;
    memcpy(values, rec->q, (size_t)n * sizeof *values);
    memcpy(values + n, rec->v, (size_t)n * sizeof *values);
    memcpy(values + 2 * n, rec->P, (size_t)m * sizeof *values);
    int j = 2 * n + m;
    for (int c = 0; c < m; c++)
        if (s->friction[c] > 0.0) values[j++] = rec->Pt ? rec->Pt[c] : 0.0;
    for (int c = 0; c < m; c++) values[j++] = rec->active[c];
    values[j] = rec->residual;
    return (nsdae_run_record){rec->k, rec->t, values};
}
