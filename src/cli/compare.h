/* Deviation between two runs, column by column, at the times of the first run: the second run's
 * value at the same time (rows at equal times) or linearly interpolated between its rows. */
#ifndef NSDAE_CLI_COMPARE_H
#define NSDAE_CLI_COMPARE_H

#include "cli/table.h"

typedef struct column_deviation {
    int col_a, col_b;          /* columns of the two tables */
    double max_abs;            /* max |a - b| over the compared times */
    double at_t;               /* the time of max_abs */
    double max_rel;            /* max_abs over the column's scale max(|a|, |b|); 0 when both are 0 */
} column_deviation;

typedef struct compare_result {
    long ntimes;               /* times compared */
    int interpolated;          /* the times differ: b was interpolated at a's times */
    long outside;              /* times of a outside b's time range, not compared */
} compare_result;

/* Compares the n column pairs dev[i].col_a / dev[i].col_b, filling the rest of dev. Times equal to
 * within 1e-12 relative in every row are "common"; otherwise b must have non-decreasing times and is
 * interpolated (at a repeated time, an event, the later row is used). Returns 0, or -1 with why. */
int compare_tables(const table *a, const table *b, column_deviation *dev, int n, compare_result *res, char *why,
                   size_t why_size);

#endif
