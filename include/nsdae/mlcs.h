/* nsdae: mixed linear complementarity systems (README, Architecture: `src/system/`).
 *
 *   E y' = A y + B lambda + b(t)          y: ny unknowns (differential and algebraic)
 *   w    = C y + D lambda + c(t)          nl rows, each typed (lcp.h): equality (w_i = 0, lambda_i
 *                                           free), complementarity (0 <= w_i _|_ lambda_i >= 0) or
 *                                           box (lambda_i in [lo_i, hi_i], -w_i in N(lambda_i)).
 *
 * E may be singular. Exogenous (time-guarded) switches make the data piecewise constant in time:
 * the system has one or more phases, each with its own E, A, B, b, C, D, c; `phase_at` says which
 * phase holds at time t. A time-dependent forcing is added to b and c by `forcing`.
 */
#ifndef NSDAE_MLCS_H
#define NSDAE_MLCS_H

#include <nsdae/lcp.h>
#include <nsdae/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A matrix in compressed columns: column j holds entries colp[j] .. colp[j+1]-1, rows increasing
 * within a column, no row twice in a column. colp NULL: not stored this way. */
typedef struct nsdae_mlcs_csc {
    int *colp, *rowi;
    double *val;
} nsdae_mlcs_csc;

typedef struct nsdae_mlcs_phase {
    double *E, *A;   /* ny x ny, column-major */
    double *B;       /* ny x nl */
    double *b;       /* ny */
    double *C;       /* nl x ny */
    double *D;       /* nl x nl */
    double *c;       /* nl */
    /* The same E, A, B, C, D compressed, for a system made by nsdae_mlcs_create_sparse (the
     * translator's): the storage whose size is linear in the model. Such a system has its dense
     * E, A, B, C, D NULL until nsdae_mlcs_dense materialises them (b and c are always dense). */
    nsdae_mlcs_csc sE, sA, sB, sC, sD;
} nsdae_mlcs_phase;

typedef struct nsdae_mlcs {
    int ny, nl, nphases;
    nsdae_mlcs_phase *phases;      /* nphases, all matrices zeroed by _create */
    nsdae_row_kind *kind;          /* nl; default complementarity */
    double *lo, *hi;               /* nl; box bounds */
    double *y0;                    /* ny: initial values (zero by default) */
    char **y_names, **l_names;     /* ny and nl names, owned (strdup'ed by _set_name) */

    /* Which phase holds at time t (NULL: always phase 0). Returns an index in [0, nphases). */
    int (*phase_at)(double t, void *ctx);
    /* Adds the time-dependent parts to b (ny) and c (nl) at time t (NULL: none). */
    void (*forcing)(double t, double *b, double *c, void *ctx);
    void *ctx;
    void (*ctx_free)(void *ctx);   /* called by _destroy when not NULL */

    /* Defaults a model may carry (experiment annotation): <= 0 and "" mean unset. The scheme is the
     * experiment's name as written ("minnorm", "euler", "theta", "moreau"), read by the options
     * builders of the steppers (nsdae_stepper_options_for, nsdae_moreau_options_for), so a C program
     * runs the model with the scheme its author chose, as the command does. */
    double stop_time, step;
    char scheme[NSDAE_SCHEME_NAME_SIZE];
    double theta, gamma;
} nsdae_mlcs;

nsdae_status nsdae_mlcs_create(int ny, int nl, int nphases, nsdae_mlcs **out, nsdae_error *err);
void nsdae_mlcs_destroy(nsdae_mlcs *s);

/* A system stored compressed: everything of _create but the dense E, A, B, C, D (NULL), O(ny + nl)
 * memory. Each phase's matrices are then given by nsdae_mlcs_set_entries (none given: zero). */
nsdae_status nsdae_mlcs_create_sparse(int ny, int nl, int nphases, nsdae_mlcs **out, nsdae_error *err);

/* Sets matrix `which` ('E', 'A', 'B', 'C' or 'D') of phase `phase` of a compressed system from n
 * entries (row[k], col[k], val[k]) in any order, no (row, col) twice; zero values are dropped.
 * O(n + columns). */
nsdae_status nsdae_mlcs_set_entries(nsdae_mlcs *s, int phase, char which, const int *row, const int *col,
                                    const double *val, int n, nsdae_error *err);

/* 1 when the dense E, A, B, C, D are there (a system made by _create, or materialised). */
int nsdae_mlcs_has_dense(const nsdae_mlcs *s);

/* Materialises the dense E, A, B, C, D of every phase of a compressed system from its entries (no
 * effect when they are there): O(nphases (ny + nl)^2) memory, which is what the dense consumers
 * (the dense stepper, the event-driven engine, impulse analysis) read. NSDAE_NOMEM names the size. */
nsdae_status nsdae_mlcs_dense(nsdae_mlcs *s, nsdae_error *err);

/* The phases of s with dense E, A, B, C, D made from its compressed entries, leaving s as it is:
 * for a consumer that holds s const and needs the dense form only sometimes (the stepper's dense
 * path, when the sparse one does not apply). A new array of nphases phases; their E, A, B, C, D
 * are theirs, their b, c and compressed matrices s's own (borrowed: s must outlive them). A
 * system view `nsdae_mlcs v = *s; v.phases = *out;` is then a dense system. O(nphases (ny +
 * nl)^2) memory; NSDAE_NOMEM names the size. Free with nsdae_mlcs_dense_phases_free. */
nsdae_status nsdae_mlcs_dense_phases(const nsdae_mlcs *s, nsdae_mlcs_phase **out, nsdae_error *err);
void nsdae_mlcs_dense_phases_free(nsdae_mlcs_phase *phases, int nphases);

/* NSDAE_INVALID_INPUT naming `who` when s has no dense matrices: the guard of a dense consumer. */
nsdae_status nsdae_mlcs_need_dense(const nsdae_mlcs *s, const char *who, nsdae_error *err);

/* which: 'y' or 'l'. Copies the name. */
nsdae_status nsdae_mlcs_set_name(nsdae_mlcs *s, char which, int index, const char *name, nsdae_error *err);

/* Sizes, NaN/Inf in the data (the dense matrices when there, else the compressed ones), kinds and
 * bounds. */
nsdae_status nsdae_mlcs_validate(const nsdae_mlcs *s, nsdae_error *err);

/* The differential unknowns: those whose column of E is not zero in some phase. flags: ny entries.
 * O(nnz) on a compressed system, O(ny^2) on a dense one. */
int nsdae_mlcs_differential(const nsdae_mlcs *s, int *flags);

/* A structural gap of phase `phase`: an unknown y_j in no row (its columns of E, A and C are zero,
 * so its value is arbitrary: a continuum of solutions) or a y row with no unknown (its rows of E, A
 * and B are zero: 0 = b_i(t), redundant or inconsistent). Returns 1 and sets *which ('y' for the
 * unknown, 'r' for the row) and *index for the first found, 0 when there is none. O(ny (ny + nl)) on
 * a dense system, O(nnz + ny) on a compressed one (which then allocates ny flags: 0 when that fails). */
int nsdae_mlcs_structural_gap(const nsdae_mlcs *s, int phase, char *which, int *index);

/* The phase at time t and the data b(t), c(t) of that phase with the forcing added. */
int nsdae_mlcs_phase_index(const nsdae_mlcs *s, double t);
void nsdae_mlcs_rhs_at(const nsdae_mlcs *s, double t, double *b, double *c);

#ifdef __cplusplus
}
#endif

#endif
