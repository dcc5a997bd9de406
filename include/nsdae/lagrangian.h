/* nsdae: the Lagrangian contact form (DESIGN.md section 3, last bullet) and its Moreau-Jean
 * time stepping (section 5).
 *
 *   M(q) q'' = F(t, q, q') + G(q)^T lambda        q: ndof generalised coordinates
 *   0 <= g_c(q)  _|_  lambda_c >= 0                c = 0 .. ncontacts-1, G = dg/dq (ncontacts x ndof)
 *   Newton impact law per contact: g_c(q) = 0 and (G v)_c^- < 0  =>  (G v)_c^+ = -e_c (G v)_c^-
 *
 * The data come through four callbacks and a context pointer, so that a translator (the .nsm model
 * language, with symbolic derivatives) or a hand-written C model can fill them. Every callback
 * returns 0 on success; anything else makes the run stop with NSDAE_NUMERICAL (e.g. a model
 * expression outside its domain), everything computed before it already delivered.
 */
#ifndef NSDAE_LAGRANGIAN_H
#define NSDAE_LAGRANGIAN_H

#include <nsdae/status.h>

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
    /* 1 when M does not depend on q: the stepper evaluates and factors it once. */
    int mass_constant;

    void *ctx;
    void (*ctx_free)(void *ctx);   /* called by _destroy when not NULL */

    double *q0, *v0;               /* ndof each, zero after _create */
    double *restitution;           /* ncontacts, e_c in [0, 1], zero after _create */
    char **q_names, **c_names;     /* ndof and ncontacts names, owned (copied by _set_name) */

    /* Defaults a model may carry (experiment annotation): <= 0 means unset. */
    double stop_time, step;
} nsdae_lagrangian;

/* ncontacts may be 0 (then it is a smooth mechanical system). Callbacks start NULL. */
nsdae_status nsdae_lagrangian_create(int ndof, int ncontacts, nsdae_lagrangian **out, nsdae_error *err);
void nsdae_lagrangian_destroy(nsdae_lagrangian *s);

/* which: 'q' (a coordinate) or 'c' (a contact). Copies the name. */
nsdae_status nsdae_lagrangian_set_name(nsdae_lagrangian *s, char which, int index, const char *name,
                                       nsdae_error *err);

/* Sizes, callbacks present, q0/v0 finite, restitutions in [0, 1]. */
nsdae_status nsdae_lagrangian_validate(const nsdae_lagrangian *s, nsdae_error *err);

/* ---- Moreau-Jean (Siconos' MoreauJeanOSI with NewtonImpactNSL) ------------------------------- */

typedef struct nsdae_moreau_options {
    double theta;            /* in [1/2, 1]; <= 0 means 1/2 (Siconos examples use 0.5) */
    double t0, stop;         /* integrate on [t0, stop] */
    long nsteps;             /* > 0: h = (stop - t0) / nsteps */
    double step;             /* used when nsteps <= 0: fixed h, the last step shortened to land on stop */
    /* 0 (default): Siconos' NewtonImpactNSL, 0 <= (G v_{k+1})_c + e_c (G v_k)_c on every active
     *   contact. A contact that is active (closed by the position prediction) but separating,
     *   (G v_k)_c > 0, and still needs a percussion then receives the work P_c (1 - e_c) (G v_k)_c / 2
     *   > 0: the discrete energy can rise at such steps (by 1e-7 J in the bead column).
     * 1: e_c on approaching contacts only, 1 on separating ones. With theta = 1/2 and conservative
     *   forces every step then changes the energy by sum_c P_c (1 - e_c) min((G v_k)_c, 0) / 2 <= 0. */
    int dissipative;
} nsdae_moreau_options;

void nsdae_moreau_defaults(nsdae_moreau_options *o);

/* What a step produced; the arrays are valid only during the callback. */
typedef struct nsdae_contact_record {
    long k;                  /* step number, 0 for the initial state */
    double t;                /* t_k */
    const double *q, *v;     /* ndof each, at t_k */
    const double *P;         /* ncontacts percussions over the step (t_{k-1}, t_k]; 0 when inactive */
    const int *active;       /* ncontacts flags: contact in the step's index set */
    int nactive;
    double residual;         /* max-norm complementarity residual of the step's LCP (0: no LCP) */
} nsdae_contact_record;

/* Return non-zero to stop the run early (status NSDAE_OK). */
typedef int (*nsdae_contact_callback)(const nsdae_contact_record *rec, void *ctx);

typedef struct nsdae_moreau_summary {
    long steps;              /* steps completed */
    long lcp_steps;          /* steps that had at least one active contact */
    double t_end;            /* time reached */
    double h;                /* nominal step */
} nsdae_moreau_summary;

/* Runs the scheme from (q0, v0) at o->t0; calls cb for the initial state and after every step.
 * q_end, v_end (ndof each, may be NULL) receive the last state. When a step's LCP has no
 * solution or a callback fails, the run stops with a status and a message giving t and the
 * state; every earlier step was already delivered to cb. */
nsdae_status nsdae_moreau_run(const nsdae_lagrangian *s, const nsdae_moreau_options *o,
                              nsdae_contact_callback cb, void *ctx, double *q_end, double *v_end,
                              nsdae_moreau_summary *summary, nsdae_error *err);

#endif
