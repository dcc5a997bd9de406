/* What `nsdae crosscheck` writes: the table (text), the same as CSV and as JSON, and the plots. */
#ifndef NSDAE_CLI_CROSSCHECK_REPORT_H
#define NSDAE_CLI_CROSSCHECK_REPORT_H

#include "cli/crosscheck_study.h"

#include <stdio.h>

typedef struct xc_heading {
    const char *label;              /* the model's path or example name */
    const char *scheme;             /* the time stepper's scheme */
} xc_heading;

void xc_report_table(FILE *out, const xc_heading *hd, const xc_system *sys, const xc_study *st);
void xc_report_csv(FILE *out, const xc_study *st);
void xc_report_json(FILE *out, const xc_heading *hd, const xc_system *sys, const xc_study *st);

/* Writes to path ("-": standard output) with one of the writers above. Returns 0 or 1 after printing. */
int xc_report_file(const char *cmd, const char *flag, const char *path, const xc_heading *hd, const xc_system *sys,
                   const xc_study *st, void (*write)(FILE *, const xc_heading *, const xc_system *, const xc_study *));

/* The CSV writer in the shape xc_report_file takes. */
void xc_report_csv_file(FILE *out, const xc_heading *hd, const xc_system *sys, const xc_study *st);

/* The log-log plot of every measure against h to png_path, and the overlay of the trajectories to
 * png_path with "_overlay" before its extension. Returns 0 or 1 after printing. */
int xc_report_plots(const char *cmd, const char *png_path, const xc_heading *hd, const xc_system *sys,
                    const xc_study *st);

#endif
