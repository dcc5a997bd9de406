/* nsdae analyze: text and JSON reports of the structural analysis of a model's modes. */
#ifndef NSDAE_CLI_ANALYZE_REPORT_H
#define NSDAE_CLI_ANALYZE_REPORT_H

#include <stdio.h>

#include <nsdae/structural.h>

/* The header of the text report: model, switches (with their choices, to build --mode codes). */
void nsdae_analyze_text_header(FILE *out, const nsdae_model *m, const nsdae_switches *list,
                               double nmodes);
void nsdae_analyze_text_mode(FILE *out, const nsdae_structural_mode *md, int number);

/* JSON: {"model": NAME, "switches": [...], "mode_count": N, "skipped": K, "modes": [...]} written
 * as begin, one call per mode, end. */
void nsdae_analyze_json_begin(FILE *out, const nsdae_model *m, const nsdae_switches *list,
                              double nmodes);
void nsdae_analyze_json_mode(FILE *out, const nsdae_structural_mode *md, int first);
void nsdae_analyze_json_end(FILE *out, double skipped);

#endif
