/* The contact form as an event-driven problem (contact_problem.c: the mode's DAE, roots, rows;
 * contact_event.c: impact law, contact-force LCP, accumulation points). */
#ifndef NSDAE_ED_CONTACT_INTERNAL_H
#define NSDAE_ED_CONTACT_INTERNAL_H

#include "eventdriven/ed_internal.h"

/* Unknowns z = (q [ndof], v [ndof], lambda [nc], mu [nc]). In the mode, a closed contact c holds
 * g_c(q) = 0 and (G v)_c = 0 with the force lambda_c and the Gear-Gupta-Leimkuhler multiplier
 * mu_c (q' = v + G^T mu keeps the position constraint without differentiating it twice: index 2
 * and no drift); an open contact has lambda_c = mu_c = 0. */
typedef struct contact_problem {
    const nsdae_lagrangian *s;
    nsdae_events_options o;
    int nd, nc, n;
    char *closed;                /* nc flags of the current mode */
    char *label;                 /* nc + 1 */
    double *M, *F, *G, *g, *Mf;  /* scratch: M, F, G, gaps, a factorisation copy */
    double *P;                   /* impulses of the last event (nc) */
    double *pre;                 /* 2 nd: left limits of the last event */
    double *mult_atol;           /* 2 nc: IDA's absolute tolerances on lambda, mu of the current mode */
    char **state_names, **impulse_names;
    /* accumulation: the last impact times */
    double impact_t[4];
    int nimpacts;
    nsdae_contact_callback on_row;
    nsdae_event_callback on_event;
    void *ctx;
    nsdae_events_summary *sum;
    ed_mode_set modes;
} contact_problem;

/* M(q), F(t, q, v), G(q) into the scratch arrays; 0 or the failing callback's code. */
int contact_eval(contact_problem *cp, double t, const double *q, const double *v);

/* The current mode's label: one 'o' or 'c' per contact ("-" without contacts). */
const char *contact_label_of(contact_problem *cp);

/* cp->mult_atol for the mode that starts at (t, z) (contact_event.c). */
nsdae_status contact_multiplier_tolerances(contact_problem *cp, double t, const double *z, nsdae_error *err);

/* The event handler (ed_problem.event). */
nsdae_status contact_event(double *t, const int *roots, int exogenous, double *z, double *zp, int *stop, void *self,
                           nsdae_error *err);

#endif
