/* nsdae: Moreau-Jean time stepping of the Lagrangian contact form (README, Architecture: `src/stepping/`), as
 * Siconos' MoreauJeanOSI with NewtonImpactNSL (NewtonImpactFrictionNSL on contacts with friction). The system itself is described in lagrangian.h. */
#ifndef NSDAE_MOREAU_H
#define NSDAE_MOREAU_H

#include <nsdae/lagrangian.h>
#include <nsdae/status.h>

#ifdef __cplusplus
extern "C" {
#endif

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

/* theta = 1/2, [0, 1] with step = 0.01 (nsteps 0: setting step alone takes effect). */
void nsdae_moreau_defaults(nsdae_moreau_options *o);

/* The defaults, then what the system carries from its model's experiment (lagrangian.h): stop,
 * step and theta (the form is the contact one whatever scheme the experiment names). */
void nsdae_moreau_options_for(const nsdae_lagrangian *s, nsdae_moreau_options *o);

/* What a step produced; the arrays are valid only during the callback. */
typedef struct nsdae_contact_record {
    long k;                  /* step number, 0 for the initial state */
    double t;                /* t_k */
    const double *q, *v;     /* ndof each, at t_k */
    const double *P;         /* ncontacts percussions over the step (t_{k-1}, t_k]; 0 when inactive */
    const int *active;       /* ncontacts flags: contact in the step's index set */
    int nactive;
    double residual;         /* max-norm complementarity residual of the step's LCP (0: no LCP); with
                                friction, the largest violation of the Newton and Coulomb laws */
    const double *Pt;        /* ncontacts tangential (friction) percussions over the step; 0 when
                                inactive or frictionless */
} nsdae_contact_record;

/* Return non-zero to stop the run early (status NSDAE_OK). */
typedef int (*nsdae_contact_callback)(const nsdae_contact_record *rec, void *ctx);

typedef struct nsdae_moreau_summary {
    long steps;              /* steps completed */
    long lcp_steps;          /* steps that had at least one active contact */
    double t_end;            /* time reached */
    double h;                /* nominal step */
    long lcp_solves;         /* LCPs of two or more contacts given to the pivoting solver (lcp.h) */
    long lcp_pivots;         /* its pivoting iterations over them */
    long lcp_fallbacks;      /* of them, answered by Lemke instead (lcp.h: when and why) */
    long lcp_siconos;        /* of those, by Siconos' Lemke (the only ones that allocate) */
    long friction_solves;    /* contact problems with friction solved as an LCP (two or more active contacts,
                                or one outside the closed form's cases) by the layer's Lemke (lcp.h) */
    long friction_fallbacks; /* of them, answered by Siconos' Lemke or ENUM or the enumeration instead */
} nsdae_moreau_summary;

/* Runs the scheme from (q0, v0) at o->t0; calls cb for the initial state and after every step.
 * q_end, v_end (ndof each, may be NULL) receive the last state. When a step's LCP has no
 * solution or a callback fails, the run stops with a status and a message giving t and the
 * state; every earlier step was already delivered to cb. */
nsdae_status nsdae_moreau_run(const nsdae_lagrangian *s, const nsdae_moreau_options *o,
                              nsdae_contact_callback cb, void *ctx, double *q_end, double *v_end,
                              nsdae_moreau_summary *summary, nsdae_error *err);

#ifdef __cplusplus
}
#endif

#endif
