/* The MLCS stepper's sparse path: the step MLCP of step_mlcp.h (same rows, same weights), held in
 * compressed columns and solved through the complementarity rows only, when that is one
 * well-posed problem with a single solution.
 *
 *   [ W  Bh ] [ y1 ]   [ q_y ]   [ 0 ]        W = E1 - h (weights) A1 over the y rows,
 *   [ Ch D  ] [ l1 ] + [ q_l ] = [ w ]        0 <= w _|_ l1 >= 0 on every MLCS row.
 *
 * Eliminating y1 through W gives the LCP  w = S l1 + r,  S = D - Ch W^-1 Bh  (nl x nl). When the
 * symmetric part of S is positive definite, S is a P-matrix: the LCP, hence the step, has exactly
 * one solution, so the minimal-norm selection has nothing to choose and that point is the answer
 * (certificate, once per matrix: an LDL^T of a sparse symmetric n x n matrix whose positive
 * definiteness implies that of sym(S), sparse_cert.c; S itself is formed and factored densely only
 * when that proof fails). It is found by principal
 * pivoting over the complementarity pattern, starting from the previous step's pattern: for a
 * pattern A (rows whose multiplier is free and w = 0; the others l = 0) the step matrix with the
 * rows outside A replaced by unit rows is factored by KLU, which refactors in place while the
 * pattern stays (the usual case: a step changes few diodes, most steps none).
 *
 * Cost per step once warm: a sparse product for q, one KLU solve and a sparse product for w when
 * the pattern is the previous one; a KLU refactor per pattern change. Per (phase, h): a KLU
 * factor and the sparse certificate, O(nnz) for a ladder (2 ms at n = 960); nl solves and O(nl^3)
 * more when it fails (or when Lemke needs S). Nothing is allocated per step
 * except by KLU when a refactor is unstable and a fresh factorisation (new pivots) is needed. */
#ifndef NSDAE_STEPPING_SPARSE_STEP_H
#define NSDAE_STEPPING_SPARSE_STEP_H

#include <nsdae/mlcs.h>
#include <nsdae/status.h>

#include "stepping/csc.h"

#include <klu.h>

typedef struct sparse_phase {
    csc E, A, B, C, D;
    unsigned char *row_alg, *col_alg;   /* ny each: zero rows / columns of E */
} sparse_phase;

typedef struct sparse_step {
    int ny, nl, n, nphases;
    sparse_phase *ph;
    /* the step matrix of the current key (phase at t1, h, theta, gamma, gamma_relation) */
    int key_phase, key_gr, have_key;
    double key_h, key_theta, key_gamma;
    csc M;                  /* n x n: the pattern of M plus the diagonal of the multiplier block */
    int *diag;              /* nl: entry index of (ny+i, ny+i) in M */
    double *kval;           /* values of the pattern matrix (rows outside the pattern: unit rows) */
    int *lrowp, *lcol;      /* the MLCS rows of M in compressed rows (nl + 1, their entries): w per pivot */
    double *lval;
    double *cmax, *rs;      /* n each: max_i |M_ij| per column, sum_j |M_ij| / cmax_j per row (the check's
                             * rounding level, fixed per matrix) */
    klu_common common;
    klu_symbolic *sym;
    klu_numeric *num;
    unsigned char *active, *factored;  /* nl: the pattern asked, the pattern factored */
    int have_factor;
    /* the certificate, per key: 1 unique (sym(S) positive definite, proven), 0 not usable */
    int usable;
    double *S;              /* nl x nl column-major, formed on first need (dense certificate, Lemke); NULL before */
    double *q, *rhs, *w, *rowsum, *work;   /* n each (work: 2n) */
    double *chk;                           /* 5n: scratch of the per-row check */
    double *b0, *b1, *c0, *c1;             /* MLCS right-hand sides at t0, t1 */
    double *col_weight;                    /* ny */
    double residual;                       /* max-norm step residual at the last accepted point */
    long refactors, factors;               /* counters for the benchmark */
} sparse_step;

/* 1 when the MLCS can take the sparse path at all (every MLCS row complementarity); then reads
 * the phases into compressed columns. 0 (and nothing allocated) otherwise. -1 out of memory. */
int sparse_step_init(sparse_step *ss, const nsdae_mlcs *s);
void sparse_step_free(sparse_step *ss);

/* Forms the step from (t0, y0, lambda0) to t0 + h exactly as step_mlcp_build does and says
 * whether it has the single-solution certificate (1) or must go to the dense path (0); -1 out of
 * memory. Factoring and the certificate happen only when the key changes. */
int sparse_step_prepare(sparse_step *ss, const nsdae_mlcs *s, double t0, double h, double theta, double gamma,
                        int gamma_relation, const double *y0, const double *lambda0);

/* The step's unique solution into z (n) and w (n), checked row by row (sparse_lcp.h); sets
 * ss->residual (the residual step_mlcp_residual would give at z).
 * NSDAE_OK, or NUMERICAL when pivoting and Lemke both fail to give an accepted point (the caller
 * then solves the step densely). */
nsdae_status sparse_step_solve(sparse_step *ss, double *z, double *w, nsdae_error *err);

/* The max-norm residual of the step at z, as step_mlcp_residual. */
double sparse_step_residual(const sparse_step *ss, const double *z);

#endif
