/* Run tables (table.h): our CSV and Siconos' whitespace .ref tables, read the same way, since both
 * are one time row per line with the time first. */
#include "cli/table.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int table_init(table *tb, int ncols, const char *const *names)
{
    memset(tb, 0, sizeof *tb);
    tb->names = calloc((size_t)ncols + 1, sizeof *tb->names);
    if (!tb->names) return 0;
    tb->ncols = ncols;
    for (int c = 0; c < ncols; c++) {
        char fallback[32];
        snprintf(fallback, sizeof fallback, "col%d", c + 1);
        tb->names[c] = strdup(names ? names[c] : fallback);
        if (!tb->names[c]) return 0;
    }
    tb->named = names != NULL;
    return 1;
}

int table_append(table *tb, const double *row)
{
    if (tb->nrows == tb->cap) {
        long cap = tb->cap ? 2 * tb->cap : 256;
        double *d = realloc(tb->data, (size_t)cap * (size_t)tb->ncols * sizeof *d);
        if (!d) return 0;
        tb->data = d;
        tb->cap = cap;
    }
    memcpy(&TABLE_AT(tb, tb->nrows, 0), row, (size_t)tb->ncols * sizeof *row);
    tb->nrows++;
    return 1;
}

/* Splits line in place at commas and whitespace; returns the number of fields (at most max). */
static int split(char *line, char **field, int max)
{
    int n = 0;
    for (char *save = NULL, *tok = strtok_r(line, ", \t\r\n", &save); tok; tok = strtok_r(NULL, ", \t\r\n", &save))
        if (n < max) field[n++] = tok;
        else return max + 1;
    return n;
}

/* All fields numbers: 1, and the values in v. */
static int numbers(char **field, int n, double *v)
{
    for (int i = 0; i < n; i++) {
        char *end;
        v[i] = strtod(field[i], &end);
        if (end == field[i] || *end) return 0;
    }
    return 1;
}

#define MAX_FIELDS 4096

typedef struct reader {
    FILE *f;
    char *line;
    size_t cap;
    long lineno;
    char *field[MAX_FIELDS + 1];
    double v[MAX_FIELDS + 1];
} reader;

/* The next line with content, split; -1 at the end. */
static int next_fields(reader *r)
{
    while (getline(&r->line, &r->cap, r->f) >= 0) {
        r->lineno++;
        char *p = r->line + strspn(r->line, " \t");
        if (*p == '#' || *p == '\n' || *p == '\r' || *p == '\0') continue;
        return split(p, r->field, MAX_FIELDS);
    }
    return -1;
}

int table_read(const char *path, table *tb, char *why, size_t why_size)
{
    memset(tb, 0, sizeof *tb);
    why[0] = '\0';
    reader *r = calloc(1, sizeof *r);
    if (!r) return snprintf(why, why_size, "out of memory"), -1;
    r->f = fopen(path, "r");
    int rc = 0;
    if (!r->f) {
        snprintf(why, why_size, "%s: %s", path, strerror(errno));
        free(r);
        return -1;
    }
    double *pending = NULL;   /* a first numeric row, kept until the second line is seen */
    int npending = 0, n;
    while (rc == 0 && (n = next_fields(r)) >= 0) {
        if (n > MAX_FIELDS) {
            snprintf(why, why_size, "%s:%ld: more than %d columns", path, r->lineno, MAX_FIELDS);
            rc = -1;
        } else if (!numbers(r->field, n, r->v)) {
            if (tb->ncols || pending) {
                snprintf(why, why_size, "%s:%ld: '%s' is not a number", path, r->lineno, r->field[0]);
                rc = -1;
            } else if (!table_init(tb, n, (const char *const *)r->field)) rc = -1;
        } else if (!tb->ncols && !pending) {
            /* the first row, or Siconos' dimension line: decided by the next line */
            pending = malloc((size_t)n * sizeof *pending);
            if (!pending) rc = -1;
            else memcpy(pending, r->v, (size_t)n * sizeof *pending);
            npending = n;
        } else {
            if (!tb->ncols) {
                int dims = npending == 2 && n != 2 && pending[1] == (double)n;
                if (!table_init(tb, n, NULL) || (!dims && npending == n && !table_append(tb, pending))) rc = -1;
                else if (!dims && npending != n) {
                    snprintf(why, why_size, "%s:%ld: %d values, the first row has %d", path, r->lineno, n, npending);
                    rc = -2;
                }
            }
            if (rc == 0 && n != tb->ncols) {
                snprintf(why, why_size, "%s:%ld: %d values, expected %d", path, r->lineno, n, tb->ncols);
                rc = -2;
            } else if (rc == 0 && !table_append(tb, r->v)) rc = -1;
        }
    }
    if (rc == 0 && pending && !tb->ncols && (!table_init(tb, npending, NULL) || !table_append(tb, pending))) rc = -1;
    /* a two-column table whose first line is "ROWS 2", ROWS the rows after it: Siconos' dimensions */
    if (rc == 0 && pending && !tb->named && tb->ncols == 2 && npending == 2 && pending[1] == 2.0 &&
        pending[0] == (double)(tb->nrows - 1) && tb->nrows > 1 && TABLE_AT(tb, 0, 0) == pending[0]) {
        memmove(tb->data, tb->data + 2, (size_t)(tb->nrows - 1) * 2 * sizeof *tb->data);
        tb->nrows--;
    }
    if (rc == 0 && ferror(r->f)) {
        snprintf(why, why_size, "%s: reading failed: %s", path, strerror(errno));
        rc = -2;
    }
    if (rc == 0 && tb->nrows == 0) {
        snprintf(why, why_size, "%s: no rows of numbers", path);
        rc = -2;
    }
    if (rc == -1 && !why[0]) snprintf(why, why_size, "out of memory");
    free(pending);
    free(r->line);
    fclose(r->f);
    free(r);
    if (rc) table_free(tb);
    return rc ? -1 : 0;
}

int table_column(const table *tb, const char *name)
{
    for (int c = 0; c < tb->ncols; c++)
        if (strcmp(tb->names[c], name) == 0) return c;
    if (!tb->named) {
        char *end;
        long k = strtol(name, &end, 10);
        if (end != name && !*end && k >= 1 && k <= tb->ncols) return (int)k - 1;
    }
    return -1;
}

void table_free(table *tb)
{
    for (int c = 0; tb->names && c < tb->ncols; c++) free(tb->names[c]);
    free(tb->names);
    free(tb->data);
    memset(tb, 0, sizeof *tb);
}
