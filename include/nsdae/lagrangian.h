/* nsdae: the Lagrangian contact form (README, Architecture: `src/system/`), one of the two systems
 * the engines run on (the other is the MLCS, mlcs.h). Its Moreau-Jean time stepping is in moreau.h.
 *
 *   M(q) q'' = F(t, q, q') + G(q)^T lambda        q: ndof generalised coordinates
 *   0 <= g_c(q)  _|_  lambda_c >= 0                c = 0 .. ncontacts-1, G = dg/dq (ncontacts x ndof)
 *   Newton impact law per contact: g_c(q) = 0 and (G v)_c^- < 0  =>  (G v)_c^+ = -e_c (G v)_c^-
 *
 * A contact may carry 2-D Coulomb friction (mu_c > 0): a tangential force lambda_t,c along the rows
 * T_c(q) of a tangential Jacobian, |lambda_t,c| <= mu_c lambda_c, opposing the sliding velocity
 * (T v)_c when it is not zero (Siconos' NewtonImpactFrictionNSL with a zero tangential restitution):
 *   M(q) q'' = F(t, q, q') + G(q)^T lambda + T(q)^T lambda_t.
 *
 * The data come through four callbacks and a context pointer, so that a translator (the .nsm model
 * language, with symbolic derivatives) or a hand-written C model can fill them. Every callback
 * returns 0 on success; anything else makes the run stop with NSDAE_NUMERICAL (e.g. a model
 * expression outside its domain), everything computed before it already delivered.
 */
#ifndef NSDAE_LAGRANGIAN_H
#define NSDAE_LAGRANGIAN_H

#include <nsdae/status.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nsdae_lagrangian {
    int ndof, ncontacts;

    /* M(q): ndof x ndof, symmetric positive definite, column-major M[i + j*ndof]. */
    int (*mass)(const double *q, double *M, void *ctx);
    /* F(t, q, v): ndof generalised forces (gravity, springs, dampers, ...). */
    int (*forces)(double t, const double *q, const double *v, double *F, void *ctx);
    /* g(q): ncontacts gaps, >= 0 means admissible. */
    int (*gaps)(const double *q, double *g, void *ctx);
    /* G(q) = dg/dq: ncontacts x ndof, column-major G[c + j*ncontacts]. */
    int (*gap_jacobian)(const double *q, double *G, void *ctx);
    /* Optional: J = [dF/dq | dF/dv] at (t, q, v), ndof x 2 ndof column-major. When present the
     * Moreau-Jean step takes F implicitly as Siconos' MoreauJeanOSI does (its iteration matrix
     * W = M - h theta dF/dv - h^2 theta^2 dF/dq, one Newton iteration from (q_k, v_k)); NULL
     * keeps F explicit at (q_k, v_k), which is the same scheme when F does not depend on q, v. */
    int (*force_jacobian)(double t, const double *q, const double *v, double *J, void *ctx);
    /* 1 when M does not depend on q: the stepper evaluates and factors it once. The stepper finds
     * M's band itself (zero entries of the evaluated matrix, or the pattern below), so a diagonal
     * or banded M costs O(ndof * band) per solve, not O(ndof^2). */
    int mass_constant;
    /* Optional structure of M, for large systems (a translator fills it; NULL means use the dense
     * mass callback): the structurally nonzero entries on and below the diagonal in compressed
     * columns, column j having the rows mass_rows[mass_colptr[j] .. mass_colptr[j+1]-1]
     * (increasing, >= j), and a callback that writes their values in that order. With it the
     * Moreau-Jean stepper never forms the ndof x ndof array (a column of 4000 beads: 4000 values,
     * not 128 MB), except for implicit forces, whose iteration matrix is dense anyway. The band is
     * then the pattern's. Owned by the system (freed by _destroy). */
    int *mass_colptr, *mass_rows;  /* ndof + 1, mass_colptr[ndof] entries */
    int (*mass_values)(const double *q, double *values, void *ctx);
    /* Optional structure of G, for large systems (a translator fills it; NULL/0 means use the
     * dense gap_jacobian): the structurally nonzero entries in compressed rows, contact c having
     * the columns gap_cols[gap_rowptr[c] .. gap_rowptr[c+1]-1] (increasing), and a callback that
     * writes their values in that order. Owned by the system (freed by _destroy). */
    int *gap_rowptr, *gap_cols;    /* ncontacts + 1, gap_rowptr[ncontacts] entries */
    int (*gap_jacobian_values)(const double *q, double *values, void *ctx);
    /* 1 when every gap is affine in q (G constant): the stepper evaluates G once. */
    int gaps_linear;
    /* Optional structure of J = [dF/dq | dF/dv] (ndof x 2 ndof), for large systems (a translator
     * fills it; NULL means none is known): the entries that may be nonzero in compressed columns,
     * column k (k < ndof: q_k, else v_{k - ndof}) having the rows force_rows[force_colptr[k] ..
     * force_colptr[k+1]-1] (increasing), and a callback that writes their values in that order at
     * (t, q, v). An empty pattern (force_colptr all 0) says F reads neither q nor v. The
     * event-driven engine's sparse Newton matrix takes dF/dq, dF/dv from it (eventdriven.h). Owned
     * by the system (freed by _destroy). */
    int *force_colptr, *force_rows;   /* 2 ndof + 1, force_colptr[2 ndof] entries */
    int (*force_jacobian_values)(double t, const double *q, const double *v, double *values, void *ctx);

    void *ctx;
    void (*ctx_free)(void *ctx);   /* called by _destroy when not NULL */

    double *q0, *v0;               /* ndof each, zero after _create */
    double *restitution;           /* ncontacts, e_c in [0, 1], zero after _create */
    double *friction;              /* ncontacts, mu_c >= 0 (0: frictionless), zero after _create */
    /* T(q): ncontacts x ndof, column-major T[c + j*ncontacts], the tangential directions; rows of
     * frictionless contacts are not read. Required when some mu_c > 0. */
    int (*tangent_jacobian)(const double *q, double *T, void *ctx);
    char **q_names, **c_names;     /* ndof and ncontacts names, owned (copied by _set_name) */

    /* Defaults a model may carry (experiment annotation): <= 0 and "" mean unset. The scheme is the
     * experiment's name as written ("minnorm", "euler", "theta", "moreau"), read by the options
     * builders of the steppers (nsdae_stepper_options_for, nsdae_moreau_options_for), so a C program
     * runs the model with the scheme its author chose, as the command does. */
    double stop_time, step;
    char scheme[NSDAE_SCHEME_NAME_SIZE];
    double theta, gamma;
} nsdae_lagrangian;

/* ncontacts may be 0 (then it is a smooth mechanical system). Callbacks start NULL. */
nsdae_status nsdae_lagrangian_create(int ndof, int ncontacts, nsdae_lagrangian **out, nsdae_error *err);
void nsdae_lagrangian_destroy(nsdae_lagrangian *s);

/* which: 'q' (a coordinate) or 'c' (a contact). Copies the name. */
nsdae_status nsdae_lagrangian_set_name(nsdae_lagrangian *s, char which, int index, const char *name,
                                       nsdae_error *err);

/* Sizes, callbacks present, q0/v0 finite, restitutions in [0, 1], friction coefficients finite and >= 0. */
nsdae_status nsdae_lagrangian_validate(const nsdae_lagrangian *s, nsdae_error *err);

#ifdef __cplusplus
}
#endif

#endif
