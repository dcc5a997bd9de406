/* Every solver the validation compares, each run in a child process with a time limit, so that
 * a solver that aborts the process or runs for minutes is a row of the table, not the end of it. */
#ifndef SICONOS_DATA_SOLVERS_H
#define SICONOS_DATA_SOLVERS_H

#include "load.h"

typedef enum solver_id {
    S_ENUMERATE,     /* nsdae_lcp_enumerate (m <= ENUM_MAX_M) */
    S_MINNORM,       /* nsdae_lcp_minnorm */
    S_NSDAE_ENUM,    /* nsdae_lcp_solve_siconos "enum" */
    S_NSDAE_LEMKE,   /* nsdae_lcp_solve_siconos "lemke" (pure LCPs) */
    S_RESTART,       /* nsdae_lcp_enumerate_siconos_restart: Siconos lcp_enum, every basic point */
    S_SIC_ENUM,      /* Siconos ENUM through its own driver */
    S_SIC_LEMKE,     /* Siconos Lemke through its own driver (an MLCP: on its Schur complement) */
    S_COUNT
} solver_id;

enum { ENUM_MAX_M = 20 };       /* 2^20 patterns: seconds; above, enumeration is not a test */
enum { RUN_NOT_RUN = -100, RUN_TIMEOUT = -101, RUN_CRASHED = -102 };

typedef struct run_result {
    int code;           /* nsdae_status, or the Siconos info; RUN_* above */
    double secs;        /* solver call only */
    double worst;       /* worst per-row violation (row_check) over every returned point */
    double norm;        /* || z || of the returned point (enumerations: the smallest) */
    int count;          /* points/pieces returned */
    int continuum;      /* enumerate: a continuum was reported */
    double rect_worst;  /* a file with a rectangular (M, q) form: its complete rows' worst relative residual */
    char msg[200];
} run_result;

const char *solver_name(solver_id s);
/* Runs solver s on f in a child process killed after limit_s seconds. */
void solver_run(const data_file *f, solver_id s, double limit_s, run_result *out);

#endif
