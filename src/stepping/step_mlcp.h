/* The MLCP of one theta-method step of an MLCS, in the unknowns z = (y1, lambda1). */
#ifndef NSDAE_STEP_MLCP_H
#define NSDAE_STEP_MLCP_H

#include <nsdae/lcp.h>
#include <nsdae/mlcs.h>

typedef struct step_mlcp {
    int ny, nl, size;
    double *M, *q;            /* size x size column-major, size */
    nsdae_row_kind *kind;     /* size: ny equality rows, then the MLCS row kinds */
    double *lo, *hi;          /* size */
    double *b0, *b1, *c0, *c1; /* work: right-hand sides at t0 and t1 */
    double *col_weight;       /* work (ny): theta or gamma, the weight of each unknown in a differential row */
    nsdae_mlcp problem;       /* a view on the arrays above */
} step_mlcp;

nsdae_status step_mlcp_init(step_mlcp *sm, const nsdae_mlcs *s, nsdae_error *err);
void step_mlcp_free(step_mlcp *sm);

/* Fills M and q for the step from (t0, y0, lambda0) to t0 + h; theta (differential unknowns)
 * and gamma (algebraic unknowns, multipliers) weight the differential rows only; algebraic rows
 * and the MLCS relations hold at t0 + h. With gamma_relation, gamma instead weights the
 * differential unknowns in the algebraic rows and the relations (Siconos' EulerMoreauOSI
 * setUseGammaForRelation) and the differential rows take the multipliers at t0 + h.
 * lambda0 (nl) is read only when gamma < 1 without gamma_relation and may be NULL otherwise. */
void step_mlcp_build(step_mlcp *sm, const nsdae_mlcs *s, double t0, double h, double theta, double gamma,
                     int gamma_relation, const double *y0, const double *lambda0);

/* Max-norm of the violation of the step's MLCP at z (equalities, signs, complementarity). */
double step_mlcp_residual(const step_mlcp *sm, const double *z);

#endif
