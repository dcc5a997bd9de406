/* Reads one Siconos test-data file with Siconos' own reader functions (Debian's
 * libsiconos-numerics) into a dense nsdae MLCP, and keeps the Siconos problem for its solvers. */
#ifndef SICONOS_DATA_LOAD_H
#define SICONOS_DATA_LOAD_H

#include <nsdae/lcp.h>

typedef struct data_file {
    char name[256];
    int is_lcp;             /* lcp_*.dat: a LinearComplementarityProblem file */
    int n, m;               /* equality and complementarity rows */
    int eq_first;           /* the equality rows are rows 0..n-1 */
    double *M, *q;          /* N x N column-major, N = n + m */
    nsdae_row_kind *kind;
    nsdae_mlcp p;
    void *siconos;          /* LinearComplementarityProblem* or MixedLinearComplementarityProblem* */
    char skip[128];         /* non-empty: outside nsdae's form (the reason) */
} data_file;

/* 0 on success; -1 when Siconos' reader fails (message in f->skip). */
int data_file_load(const char *dir, const char *name, data_file *f);
void data_file_free(data_file *f);

#endif
