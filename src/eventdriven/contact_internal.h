/* The contact form as an event-driven problem (contact_problem.c: the mode's DAE, roots, rows;
 * contact_event.c: impact law, contact-force LCP, accumulation points; contact_columns.c: the
 * sparse Newton matrix; contact_view.c: full patterns for a system without them). */
#ifndef NSDAE_ED_CONTACT_INTERNAL_H
#define NSDAE_ED_CONTACT_INTERNAL_H

#include "eventdriven/ed_internal.h"
#include "stepping/contact_rows.h"
#include "stepping/mass_columns.h"
#include "stepping/mass_factor.h"

/* A system whose missing patterns (lagrangian.h: M, G, [dF/dq | dF/dv]) are full ones, their values
 * gathered from the dense callbacks; the force pattern is empty when the system gives no force
 * Jacobian (F then enters the Newton matrix explicitly, as Moreau-Jean takes it). sys is the view. */
typedef struct contact_view {
    nsdae_lagrangian sys;
    const nsdae_lagrangian *s;
    double *dense;                       /* a dense callback's output */
    int *mass_colptr, *mass_rows, *gap_rowptr, *gap_cols, *force_colptr, *force_rows;   /* owned */
} contact_view;
int contact_view_create(contact_view *w, const nsdae_lagrangian *s);   /* 0, or -1 out of memory */
void contact_view_free(contact_view *w);

/* The Newton matrix's pattern over every mode and each block entry's slot in it (contact_columns.c). */
typedef struct contact_columns {
    int nd, nc, n;
    long nnz;
    int *colp, *rowi;
    int *sq, *svq;               /* nd: cj of q'_j, -1 of v_j in row q_j */
    int *sM1, *sM2;              /* per entry of M's lower pattern: (i, j) and (j, i) (-1 on the diagonal) */
    int *sF;                     /* per entry of the force pattern */
    int *sGq, *sGv, *sGl, *sGm;  /* per entry of G: in the rows of lambda, mu; in the columns of lambda, mu */
    int *dl, *dm;                /* nc: the diagonal of lambda_c, mu_c (open contact) */
    double *fv;                  /* the force pattern's values */
} contact_columns;
/* s must have all three patterns (a contact_view's sys). 0, or -1 out of memory. */
int contact_columns_create(contact_columns *cc, const nsdae_lagrangian *s);
void contact_columns_free(contact_columns *cc);
/* val (nnz) from M's and G's values, cc->fv and the mode. */
void contact_columns_jacobian(const contact_columns *cc, const nsdae_lagrangian *s, const mass_columns *M,
                              const contact_rows *G, const char *closed, double cj, double *val);

/* Unknowns z = (q [ndof], v [ndof], lambda [nc], mu [nc]). In the mode, a closed contact c holds
 * g_c(q) = 0 and (G v)_c = 0 with the force lambda_c and the Gear-Gupta-Leimkuhler multiplier
 * mu_c (q' = v + G^T mu keeps the position constraint without differentiating it twice: index 2
 * and no drift); an open contact has lambda_c = mu_c = 0. */
typedef struct contact_problem {
    const nsdae_lagrangian *s;   /* the caller's system */
    const nsdae_lagrangian *sys; /* the system as read: s, or view.sys on the sparse path */
    contact_view view;
    contact_columns *cols;       /* IDA with KLU (eventdriven.h, linsol); NULL: dense LU */
    nsdae_events_options o;
    int nd, nc, n;
    char *closed;                /* nc flags of the current mode */
    char *label;                 /* nc + 1 */
    double *M, *G;               /* dense path only: M, G for the residual */
    double *F, *g;               /* F, gaps */
    /* M and G as the stepper reads them (its readers), for the events on both paths and the
     * sparse residual: G in compressed rows, M's lower triangle and its factor */
    mass_columns Mc;
    mass_factor Mf;
    int mass_factored;           /* Mf holds M (a constant M is factored once) */
    contact_rows Gr, Gs;         /* Gs: G elsewhere (dG/dt v by differences, curved gaps) */
    mass_factor unit;            /* the identity (kd 0): W = G G^T for the position projection */
    double *P;                   /* impulses of the last event (nc) */
    double *pre;                 /* 2 nd: left limits of the last event */
    double *mult_atol;           /* 2 nc: IDA's absolute tolerances on lambda, mu of the current mode */
    /* event scratch, allocated once (W and X grow with the largest coupled set of contacts) */
    int *S, *idx, *pos, *mark;   /* nc (pos: -1 outside the set being formed) */
    int *gstart;                 /* nc + 1: the groups' starts in idx */
    double *qv, *zc, *gd;        /* nc, by contact */
    double *qK, *zK;             /* nc, by position in a group */
    double *acc, *qs;            /* nd */
    double *W, *X;
    double *gplus;               /* G's values at q + eps v (dG/dt v, one pattern) */
    size_t wcap, xcap;
    int *row_active;             /* nc: a row's flags ... */
    double *row_P;               /* ... and impulses */
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

/* M(q), F(t, q, v), G(q) into the dense scratch arrays (dense path); 0 or the failing callback's code. */
int contact_eval(contact_problem *cp, double t, const double *q, const double *v);

/* F, g, G (compressed) and M's factor at (t, q, v), for the events; 0 or non-zero when a callback failed
 * or M is not positive definite. */
int contact_state(contact_problem *cp, double t, const double *q, const double *v);

/* The current mode's label: one 'o' or 'c' per contact ("-" without contacts). */
const char *contact_label_of(contact_problem *cp);

/* cp->mult_atol for the mode that starts at (t, z) (contact_event.c). */
nsdae_status contact_multiplier_tolerances(contact_problem *cp, double t, const double *z, nsdae_error *err);

/* The event handler (ed_problem.event). */
nsdae_status contact_event(double *t, const int *roots, int exogenous, double *z, double *zp, int *stop, void *self,
                           nsdae_error *err);

#endif
