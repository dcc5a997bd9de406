/* A run as a table of doubles in memory: named columns (the first is the time), rows appended or
 * read from a file. Read by `nsdae plot` and `nsdae compare`, filled during `simulate --plot`. */
#ifndef NSDAE_CLI_TABLE_H
#define NSDAE_CLI_TABLE_H

#include <stddef.h>

typedef struct table {
    int ncols;
    char **names;          /* ncols, owned; "col1", "col2"... for a file without a header */
    int named;             /* the names came from a header line */
    long nrows, cap;
    double *data;          /* row-major, nrows x ncols */
} table;

#define TABLE_AT(tb, r, c) ((tb)->data[(size_t)(r) * (size_t)(tb)->ncols + (size_t)(c)])

/* An empty table with these column names (copied). Returns 0 when out of memory. */
int table_init(table *tb, int ncols, const char *const *names);

/* Appends one row of ncols values. Returns 0 when out of memory. */
int table_append(table *tb, const double *row);

/* Reads a run: our CSV (a header "t,a,b", comma-separated rows), or a whitespace-separated table
 * without header as Siconos writes its .ref files (an optional first line "ROWS COLS" giving the
 * dimensions is skipped). '#' lines and blank lines are skipped; "inf" and "nan" are numbers. Every
 * row must have the same number of values. Returns 0, or -1 with the reason (naming the file and
 * line) in why. */
int table_read(const char *path, table *tb, char *why, size_t why_size);

/* The column named name, or, for a table without header names, a 1-based number "3"; -1 if none. */
int table_column(const table *tb, const char *name);

void table_free(table *tb);

#endif
