/* State shared by the files of the Lagrangian translation (translate_lagrangian.h; not public). */
#ifndef NSDAE_LAGRANGIAN_INTERNAL_H
#define NSDAE_LAGRANGIAN_INTERNAL_H

#include <nsdae/translate_lagrangian.h>

/* One unilateral contact: 0 <= gap _|_ lambda >= 0 restitution e [friction mu tangent s force f]. */
typedef struct lag_contact {
    const nsdae_equation *eq;
    int var;                       /* model variable of the multiplier */
    const nsdae_expr *gap;         /* parameters bound, in the model's pool */
    double e;
    double mu;                     /* 0: frictionless; then the three below are unused */
    int tvar;                      /* model variable of the tangential force, or -1 */
    const nsdae_expr *tangent;     /* s(q), parameters bound */
} lag_contact;

/* Compressed rows of expressions (lagrangian_rows.c): row r is ent[ptr[r] .. ptr[r+1]-1], columns
 * increasing, every entry absent from them the constant 0. */
typedef struct lag_entry {
    int col;
    const nsdae_expr *e;
} lag_entry;
typedef struct lag_rows {
    int nrows;                     /* rows pushed so far */
    int *ptr;                      /* nrows + 1 */
    lag_entry *ent;
    size_t cap;
} lag_rows;

/* The translation in progress. Symbolic work happens in the model's pool (as for the MLCS);
 * the finished expressions are copied into a pool owned by the system (lagrangian_eval.c). */
typedef struct lctx {
    const nsdae_model *m;
    nsdae_expr_pool *p;
    nsdae_error *err;
    nsdae_status st;               /* first failure; later ones are ignored */
    int nvars;

    int ndof;
    int *coord;                    /* ndof: model variable of coordinate j */
    int *coord_of_var;             /* nvars: coordinate index, or -1 */
    int *contact_of_var;           /* nvars: contact index when the variable is a multiplier, or -1 */

    lag_contact *contacts;
    int ncontacts;
    /* Multiplier columns of the equations of motion: the ncontacts normal multipliers, then the
     * tangential forces of the nfric contacts with friction (fric[k]: their contact index). */
    int nfric;
    int *fric;

    const nsdae_equation **motion; /* ndof: equation of motion of coordinate j (after matching) */
    lag_rows grad;                 /* row k: d f_k / d q_j of multiplier column k's position
                                      function f_k (gap or tangent), columns j = coordinates */
    lag_rows mass;                 /* row i: M_ij, the coefficients of der(der(q_j)) in the
                                      equation of motion of coordinate i */
    const nsdae_expr **force;      /* ndof: F_i */
    double *points;                /* the test states of nsdae_lag_eval_at, built on first use: the
                                      checks evaluate O(ndof^2) coefficients, and rebuilding a state
                                      (O(nvars) start values) per evaluation made them cubic */
} lctx;

/* Failure with "file:line:col: equation 'text': message" (eq may be NULL: "file: message").
 * This and the next three: lagrangian_context.c. */
void nsdae_lag_fail(lctx *L, nsdae_status st, const nsdae_equation *eq, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Failure about a variable: at the first equation that uses it at its highest order, else at its
 * declaration ("file:line:col: variable 'x': message"). */
void nsdae_lag_fail_var(lctx *L, int var, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void nsdae_lag_nomem(lctx *L);
/* e with the parameters replaced by their current values, folded; NULL after a failure. */
const nsdae_expr *nsdae_lag_bind(lctx *L, const nsdae_expr *e);

/* Compressed rows; lagrangian_rows.c. Each returns 0 when out of memory (then free what it
 * initialised with nsdae_lag_rows_free). push appends the next row (its constant-0 entries dropped,
 * the rest sorted by column); permute makes out's row i a's row row_of[i]; transpose needs a's
 * column count; at is NULL for an absent entry (O(log row length)). */
int nsdae_lag_rows_init(lag_rows *r, int nrows);
void nsdae_lag_rows_free(lag_rows *r);
int nsdae_lag_rows_push(lag_rows *r, const lag_entry *e, int n);
int nsdae_lag_rows_permute(const lag_rows *a, const int *row_of, int nrows, lag_rows *out);
int nsdae_lag_rows_transpose(const lag_rows *a, int ncols, lag_rows *t);
const nsdae_expr *nsdae_lag_rows_at(const lag_rows *r, int row, int col);

/* Multiplier column k (0 .. ncontacts + nfric - 1): its model variable and the position function
 * whose gradient is row k of L->grad (gap or tangent); lagrangian_classify.c. */
int nsdae_lag_mult_var(const lctx *L, int k);
const nsdae_expr *nsdae_lag_mult_function(const lctx *L, int k);

/* Coordinates, multipliers and contacts (gaps, gradients, restitutions, friction); lagrangian_classify.c. */
int nsdae_lag_classify(lctx *L);

/* Equations of motion: matching to coordinates, M, F, and the check that the multiplier terms
 * are grad g^T lambda; lagrangian_motion.c. */
int nsdae_lag_motion(lctx *L);

/* Pairs the equations of motion with the coordinates: A's row k holds the coefficients of
 * der(der(q_j)) in equation k. Fills eq_of_coord; returns 1, 0 after a
 * failure (memory), or -1 - k when equation k has no acceleration left (singular pattern).
 * lagrangian_assign.c. */
int nsdae_lag_assign(lctx *L, const lag_rows *A, int *eq_of_coord);

/* Value of an expression of q, der(q) and time at test point `point` (0: the start, t = 0; others
 * spread around it); NaN on a domain error. lagrangian_points.c. */
double nsdae_lag_eval_at(lctx *L, const nsdae_expr *e, int point);

/* Numerical comparison of two expressions of q, der(q) and time at the start and at a few test
 * points: 1 equal, 0 different (*va, *vb get the values at the first differing point), -1 never
 * both finite. lagrangian_points.c. */
int nsdae_lag_same_values(lctx *L, const nsdae_expr *a, const nsdae_expr *b, double *va, double *vb);

/* The owned evaluation context and callbacks; lagrangian_eval.c. Installs them in s (which then
 * owns the context). */
int nsdae_lag_install(lctx *L, nsdae_lagrangian *s);

#endif
