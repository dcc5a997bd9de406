/* nsdae complementarity layer (libnsdae_lcp): dense mixed linear complementarity problems.
 *
 *   w = M z + q,  row i typed:
 *     NSDAE_ROW_EQUALITY         w_i = 0, z_i free
 *     NSDAE_ROW_COMPLEMENTARITY  0 <= w_i  _|_  z_i >= 0
 *     NSDAE_ROW_BOX              z_i in [lo_i, hi_i], -w_i in N_[lo_i,hi_i](z_i)
 *                                (lo_i = z_i: w_i >= 0; lo_i < z_i < hi_i: w_i = 0; z_i = hi_i: w_i <= 0;
 *                                 lo_i may be -INFINITY, hi_i +INFINITY)
 *
 * Rows may come in any order. Box rows are converted internally to two complementarity rows
 * each; every result is reported in the caller's variables (z, w of size `size`).
 * Knows nothing about models.
 */
#ifndef NSDAE_LCP_H
#define NSDAE_LCP_H

#include <nsdae/status.h>

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum nsdae_row_kind {
    NSDAE_ROW_EQUALITY = 0,
    NSDAE_ROW_COMPLEMENTARITY = 1,
    NSDAE_ROW_BOX = 2
} nsdae_row_kind;

/* A problem is a view on caller-owned arrays: nothing is copied or freed by the layer. */
typedef struct nsdae_mlcp {
    int size;                    /* number of rows = number of unknowns z, >= 1 */
    const double *M;             /* size x size, column-major: M[i + j*size] */
    const double *q;             /* size */
    const nsdae_row_kind *kind;  /* size; NULL means all complementarity (a pure LCP) */
    const double *lo, *hi;       /* size each; read only for box rows; may be NULL when no box row */
} nsdae_mlcp;

/* Checks sizes, kinds, NaN/Inf, box bounds (lo <= hi, not both infinite on one side... ). */
nsdae_status nsdae_mlcp_validate(const nsdae_mlcp *p, nsdae_error *err);

/* The worst violation of z over the rows of p, each row against its own terms (residual of
 * w = M z + q recomputed from z, signs, complementarity, box law; rounding of the row ignored),
 * as every solver of this layer accepts answers: accept with <= NSDAE_TOL_RESIDUAL (tolerances.h).
 * +INFINITY for NaN/Inf or when memory runs out. Cost O(size^2), one allocation above size 16; a point
 * far larger than its data (lcp/check.c) is re-solved on its own pattern, one SVD: O(size^3). */
double nsdae_mlcp_row_violation(const nsdae_mlcp *p, const double *z);
/* The same verdict on the caller's scratch of NSDAE_MLCP_CHECK_SCRATCH(size) doubles: nothing
 * allocated (a time stepper checks every step; only the far-point case above allocates). */
#define NSDAE_MLCP_CHECK_SCRATCH(n) (11 * (size_t)(n))
double nsdae_mlcp_row_violation_scratch(const nsdae_mlcp *p, const double *z, double *scratch);

/* ---- one solution through Siconos numerics ------------------------------------------- */

/* Solver names: "enum" (SICONOS_MLCP_ENUM, any problem), "lemke" (SICONOS_LCP_LEMKE, pure LCP:
 * no equality or box row), "lcp-enum" (SICONOS_LCP_ENUM, pure LCP). Unknown name: INVALID_INPUT.
 * z and w have `size` entries. NO_SOLUTION when the solver finds none or its answer fails the
 * per-row check (every row against its own terms; never NaN/Inf). Lemke and LCP ENUM run
 * without Siconos' ||q||-relative post-check, on the caller's data and, when its entries span
 * more than 2^200 or that fails, on the equilibrated data. Never aborts, never prints. */
nsdae_status nsdae_lcp_solve_siconos(const nsdae_mlcp *p, const char *solver, double *z, double *w,
                                     nsdae_error *err);

/* ---- one solution of a positive definite LCP, warm: block principal pivoting ------------ */

/* For a pure LCP whose M is symmetric positive definite (a contact LCP: W = G M^-1 G^T of
 * independent contact rows), solved many times by one caller (a time stepper). Block principal
 * pivoting (Judice & Pires 1994): the rows with z_i > 0 on entry or q_i < 0 start free (w_i = 0),
 * each iteration solves the free rows' principal system by Cholesky (banded when that submatrix
 * is) and exchanges every row whose sign it breaks, one row by Murty's rule after three exchanges
 * that did not reduce their number. A time stepper passes the last step's answer in z (the
 * 100-bead column, impacts running through the stack: 3.8 iterations a solve). The point passes the per-row
 * check (nsdae_mlcp_row_violation) before it is returned. When it cannot (a principal system not
 * positive definite, M not symmetric, no convergence within 2 size + 10 iterations, or the check
 * refuses the point), the call falls back to Lemke's method on the workspace (as
 * nsdae_lcp_solve_lemke_ws), then, when that fails too, to nsdae_lcp_solve_siconos("lemke"), which
 * allocates, and counts both. Otherwise nothing is allocated for a size up to the workspace's
 * capacity. Not thread safe: one workspace per thread. */
typedef struct nsdae_lcp_pivot_ws nsdae_lcp_pivot_ws;
typedef struct nsdae_lcp_pivot_stats {
    long calls, iterations;  /* solves, and pivoting iterations over them */
    long fallbacks;          /* calls answered by Lemke instead (the workspace's, or Siconos') */
    long siconos;            /* of them, by Siconos' Lemke */
} nsdae_lcp_pivot_stats;
nsdae_status nsdae_lcp_pivot_ws_create(int capacity, nsdae_lcp_pivot_ws **out, nsdae_error *err);
void nsdae_lcp_pivot_ws_destroy(nsdae_lcp_pivot_ws *ws);   /* NULL is a no-op */
nsdae_status nsdae_lcp_solve_pivot_ws(nsdae_lcp_pivot_ws *ws, const nsdae_mlcp *p, double *z, double *w,
                                      nsdae_error *err);
nsdae_lcp_pivot_stats nsdae_lcp_pivot_ws_stats(const nsdae_lcp_pivot_ws *ws);

/* ---- one solution of any LCP, warm: Lemke's method ------------------------------------ */

/* For a pure LCP without the structure block pivoting needs (not symmetric, not positive
 * definite: the facet form of a 2-D friction problem), solved many times by one caller. Lemke's
 * complementary pivoting from the artificial start with a lexicographic ratio test (degenerate
 * rows, q_i = 0, do not cycle), the final basis re-solved by LU; the point passes the per-row
 * check (nsdae_mlcp_row_violation) before it is returned. NO_SOLUTION when Lemke ends on a ray
 * (for a copositive-plus M: the LCP has no solution; otherwise it proves nothing), reaches its
 * pivot limit, or the check refuses the point: nothing else is tried, the caller chooses its
 * fallback (nsdae_lcp_solve_siconos, which allocates). Cost O(N^2) a pivot, at most about
 * NSDAE_LEMKE_MAX_PIVOTS_FACTOR N pivots. Nothing allocated for a size up to the workspace's
 * capacity (above it the workspace grows once). Not thread safe: one workspace per thread. */
typedef struct nsdae_lcp_lemke_ws nsdae_lcp_lemke_ws;
nsdae_status nsdae_lcp_lemke_ws_create(int capacity, nsdae_lcp_lemke_ws **out, nsdae_error *err);
void nsdae_lcp_lemke_ws_destroy(nsdae_lcp_lemke_ws *ws);   /* NULL is a no-op */
nsdae_status nsdae_lcp_solve_lemke_ws(nsdae_lcp_lemke_ws *ws, const nsdae_mlcp *p, double *z, double *w,
                                      nsdae_error *err);

/* ---- what an answer means: enumeration and minimal norm -------------------------------- */

/* The contract of nsdae_lcp_enumerate and nsdae_lcp_minnorm (checked by tests/fuzz/fuzz_lcp.c,
 * independently):
 *   - OK: every point returned passes the per-row check (nsdae_mlcp_row_violation; each row
 *     against its own terms). Never a point that fails it.
 *   - NO_SOLUTION (minimal norm), an empty list (enumeration): said only where every pattern or
 *     node was rejected with certainty. The layer's margin is the data's spread: the smallest
 *     dynamic range (largest over smallest nonzero magnitude) of D_r [M | q] D_c over every
 *     positive diagonal scaling of rows and columns (q's column included), i.e. how far the
 *     scales are mixed whatever the units. Up to 2^NSDAE_SPREAD_MAX_LOG2 (2^26 = 6.7e7: one
 *     elimination step then keeps terms within 1/eps of each other) the layer's rank and sign
 *     decisions (at NSDAE_TOL_RANK, NSDAE_TOL_SIGN of the equilibrated terms) are taken as
 *     certain (a wrong "no solution" there is a defect: tests/fuzz/open/README.md lists the known
 *     ones); above it, "no solution" can hinge on an entry below another's rounding, and the
 *     call says NSDAE_NUMERICAL instead (a clear refusal: the MLCP may or may not have a
 *     solution).
 *   - NUMERICAL is also what a call says when its linear algebra fails or its selected point
 *     fails the check; a refusal of data whose spread is within the bound is a defect.
 *   - Minimal norm's answer is no larger than any solution the enumeration lists (up to the
 *     check's tolerance) where the spread is within the bound. Above it, an OK answer still passes
 *     the check, but a subtree the branch and bound rejected may have held a smaller solution:
 *     minimality is not certain there (tests/fuzz/open/README.md lists such inputs). Refusing
 *     instead would refuse stepper steps: ctest's steppers get 108 branch-and-bound answers of
 *     data beyond the bound (sizes up to 300), accepted by the per-row check. */

/* ---- every solution ------------------------------------------------------------------- */

/* The solution set of an MLCP is a finite union of polyhedral pieces. A piece is either a point
 * or a set with more than one point (a segment, a ray, a face: a continuum). */
typedef struct nsdae_lcp_piece {
    int is_point;        /* 1: the piece is the single point z; 0: a continuum through z */
    int dimension;       /* 0 for a point; the dimension of the piece otherwise */
    double *z;           /* size: the point, or a point of the continuum (its minimal-norm point) */
} nsdae_lcp_piece;

typedef struct nsdae_lcp_solution_set {
    int size;
    int count;                /* number of pieces, distinct (points closer than tolerance merged) */
    int has_continuum;        /* 1 if any piece is a continuum */
    nsdae_lcp_piece *pieces;
    long patterns_visited;    /* complementarity patterns examined */
} nsdae_lcp_solution_set;

/* All solutions by enumeration over complementarity patterns (LAPACKE), exact also when a
 * pattern's solution set is not a point; every isolated point returned passes the per-row
 * check. An empty list where no solution exists; NUMERICAL instead where the data's spread is
 * beyond the bound (the contract above). Cost 2^m for m complementarity rows (after box
 * conversion); refuses m > NSDAE_LCP_ENUM_MAX_M with NSDAE_LIMIT. Free with _free. */
#define NSDAE_LCP_ENUM_MAX_M 26
nsdae_status nsdae_lcp_enumerate(const nsdae_mlcp *p, nsdae_lcp_solution_set **out, nsdae_error *err);
void nsdae_lcp_solution_set_free(nsdae_lcp_solution_set *set);

/* Baseline of Rocca/Acary/Brogliato's published approach, and an independent cross-check:
 * eliminate the equality rows by their Schur complement B - D A^-1 C (formed by hand from the
 * ABCD blocks: Siconos mlcp_to_lcp mis-indexes C, D for n != m and leaks on every call), then
 * call Siconos lcp_enum repeatedly with SEED = last found + 1 until the enumeration wraps. Finds every BASIC solution (points only: pieces[i].is_point = 1, a
 * continuum shows up only through its vertices), each checked against the caller's MLCP and
 * duplicates merged. Box rows are converted as above. NUMERICAL when the equality block is
 * singular or ill conditioned; LIMIT when m > NSDAE_LCP_ENUM_MAX_M. Free with _free. */
nsdae_status nsdae_lcp_enumerate_siconos_restart(const nsdae_mlcp *p, nsdae_lcp_solution_set **out,
                                                 nsdae_error *err);

/* ---- minimal-norm selection ------------------------------------------------------------ */

/* Objective: 1/2 || P (z - z_ref) ||^2_Q where P selects the components listed in `select`
 * (k indices into z) and Q is a k x k symmetric positive definite weight (column-major), or the
 * identity when Q == NULL. select == NULL with k == 0 means every component (k = size). */
#define NSDAE_LCP_COUNT_MAX_M 12
typedef struct nsdae_minnorm_spec {
    const double *z_ref;     /* size; NULL means the origin */
    const int *select;       /* k indices, distinct, in [0, size) */
    int k;
    const double *Q;         /* k x k SPD, or NULL */
    int count_solutions;     /* 1: also count every solution (prunes only infeasible subtrees, so
                                exponential in m): honoured up to NSDAE_LCP_COUNT_MAX_M complementarity
                                rows (after box conversion); above, nsol is 0 (unknown) */
} nsdae_minnorm_spec;

typedef struct nsdae_minnorm_result {
    double objective;        /* the minimal value */
    int unique;              /* 1 if the minimiser (in z) is unique */
    long nsol;               /* with count_solutions: number of distinct solutions, -1 for a continuum,
                                0 if unknown (too many rows, or a search whose pieces missed solutions
                                that the exact LP then found); otherwise 1 when uniqueness of the
                                whole solution was proven, 0 if unknown */
    long nodes;              /* branch-and-bound nodes explored */
    long leaves;             /* full patterns whose piece was examined */
} nsdae_minnorm_result;

/* The solution of the MLCP minimising the objective over the WHOLE solution set (points and
 * continua), written to z and w (size each). The problem is first equilibrated (row and column
 * scaling by powers of two), so the result does not depend on the units of the data. Exact: with
 * at most 4 complementarity rows (no box row) and well-conditioned pattern matrices, by
 * enumerating the patterns (the solution set is then finite); otherwise branch and bound over
 * complementarity patterns with convex relaxations. The answer is checked on the original data.
 * NO_SOLUTION when the MLCP has none; NUMERICAL where none was found but the data's spread is
 * beyond the bound (the contract above). */
nsdae_status nsdae_lcp_minnorm(const nsdae_mlcp *p, const nsdae_minnorm_spec *spec, double *z, double *w,
                               nsdae_minnorm_result *result, nsdae_error *err);

/* The same with a reusable workspace: for callers solving many problems with the same M, kind
 * and size (a time stepper: only q and z_ref change between steps). The workspace keeps the
 * equilibration and the factorisations of the last matrix seen (it compares M and kind on every
 * call, so passing a different matrix is correct, only slower); on the fast path (at most 4
 * complementarity rows, well-posed patterns) it allocates nothing per call once warm. nsdae_lcp_minnorm is this with a temporary workspace. Not thread safe: one
 * workspace per thread. */
typedef struct nsdae_lcp_workspace nsdae_lcp_workspace;
nsdae_status nsdae_lcp_workspace_create(nsdae_lcp_workspace **out, nsdae_error *err);
void nsdae_lcp_workspace_destroy(nsdae_lcp_workspace *ws);   /* NULL is a no-op */
nsdae_status nsdae_lcp_minnorm_ws(nsdae_lcp_workspace *ws, const nsdae_mlcp *p, const nsdae_minnorm_spec *spec,
                                  double *z, double *w, nsdae_minnorm_result *result, nsdae_error *err);

#ifdef __cplusplus
}
#endif

#endif
