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
    /* A file whose (M, q) form is rectangular but which also stores the square ABCD form
     * (Rectangular_mlcp.dat): the ABCD form is the problem solved, note says why, and the
     * rectangular form's rows whose data the file holds completely (rect_rows of them, all
     * equality rows) are checked against the same answer. */
    char note[256];
    int rect_rows, rect_cols;
    double *rect_M, *rect_q;   /* rect_rows x rect_cols column-major, rect_rows */
} data_file;

/* 0 on success; -1 when Siconos' reader fails (message in f->skip). */
int data_file_load(const char *dir, const char *name, data_file *f);
void data_file_free(data_file *f);

#endif
