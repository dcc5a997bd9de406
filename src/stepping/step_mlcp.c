/* Builds one theta-method step as a single mixed problem. Keeping y1 and lambda1 together (rather
 * than eliminating y1 through W = E - h theta A) is what makes singular E and index-2 systems work:
 * W need not be invertible, only the whole step MLCP solvable. */
#include "stepping/step_mlcp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

nsdae_status step_mlcp_init(step_mlcp *sm, const nsdae_mlcs *s, nsdae_error *err)
{
    memset(sm, 0, sizeof *sm);
    sm->ny = s->ny;
    sm->nl = s->nl;
    sm->size = s->ny + s->nl;
    size_t n = (size_t)sm->size;
    sm->M = calloc(n * n, sizeof *sm->M);
    sm->q = calloc(n, sizeof *sm->q);
    sm->kind = calloc(n, sizeof *sm->kind);
    sm->lo = calloc(n, sizeof *sm->lo);
    sm->hi = calloc(n, sizeof *sm->hi);
    sm->b0 = calloc((size_t)s->ny, sizeof *sm->b0);
    sm->b1 = calloc((size_t)s->ny, sizeof *sm->b1);
    sm->c0 = calloc((size_t)s->nl + 1, sizeof *sm->c0);
    sm->c1 = calloc((size_t)s->nl + 1, sizeof *sm->c1);
    sm->col_weight = calloc((size_t)s->ny + 1, sizeof *sm->col_weight);
    if (!sm->M || !sm->q || !sm->kind || !sm->lo || !sm->hi || !sm->b0 || !sm->b1 || !sm->c0 || !sm->c1 ||
        !sm->col_weight) {
        step_mlcp_free(sm);
        return nsdae_error_set(err, NSDAE_NOMEM, "stepper: out of memory");
    }
    for (int i = 0; i < sm->ny; i++) {
        sm->kind[i] = NSDAE_ROW_EQUALITY;
        sm->lo[i] = -INFINITY;
        sm->hi[i] = INFINITY;
    }
    for (int i = 0; i < sm->nl; i++) {
        sm->kind[sm->ny + i] = s->kind[i];
        sm->lo[sm->ny + i] = s->lo[i];
        sm->hi[sm->ny + i] = s->hi[i];
    }
    sm->problem = (nsdae_mlcp){sm->size, sm->M, sm->q, sm->kind, sm->lo, sm->hi};
    return NSDAE_OK;
}

void step_mlcp_free(step_mlcp *sm)
{
    free(sm->M); free(sm->q); free(sm->kind); free(sm->lo); free(sm->hi);
    free(sm->b0); free(sm->b1); free(sm->c0); free(sm->c1); free(sm->col_weight);
    memset(sm, 0, sizeof *sm);
}

/* A row of E that is zero has no derivative: a Kirchhoff law, a resistor law, a constraint. */
static int row_is_algebraic(const double *E, int ny, int i)
{
    for (int j = 0; j < ny; j++)
        if (E[i + (size_t)j * ny] != 0.0) return 0;
    return 1;
}

/* An unknown whose column of E is zero is algebraic: no derivative of it appears anywhere. */
static int column_is_algebraic(const double *E, int ny, int j)
{
    for (int i = 0; i < ny; i++)
        if (E[i + (size_t)j * ny] != 0.0) return 0;
    return 1;
}

/* Weight at t1 of unknown j where the relation reads it: rel (gamma with gamma_relation, else 1)
 * on a differential unknown, 1 on an algebraic one (a multiplier in Siconos' form, at t1). */
static double relation_weight(const double *E, int ny, int j, double rel)
{
    return rel < 1.0 && !column_is_algebraic(E, ny, j) ? rel : 1.0;
}

void step_mlcp_build(step_mlcp *sm, const nsdae_mlcs *s, double t0, double h, double theta, double gamma,
                     int gamma_relation, const double *y0, const double *lambda0)
{
    const int ny = sm->ny, nl = sm->nl, n = sm->size;
    const double t1 = t0 + h;
    const nsdae_mlcs_phase *p0 = &s->phases[nsdae_mlcs_phase_index(s, t0)];
    const nsdae_mlcs_phase *p1 = &s->phases[nsdae_mlcs_phase_index(s, t1)];
    /* b at t0 only matters for theta < 1; c at t0 never does (complementarity holds at t1). */
    if (theta < 1.0) nsdae_mlcs_rhs_at(s, t0, sm->b0, sm->c0);
    nsdae_mlcs_rhs_at(s, t1, sm->b1, sm->c1);

    /* Weights of the unknowns in a differential row: theta for a differential unknown, gamma for
     * an algebraic one. An algebraic unknown is what Siconos' first-order form makes a multiplier
     * (the node potentials of its DiodeBridge are lambda_0, lambda_1), so it is weighted like
     * one: with gamma = 1 only its value at t1 enters, and its start value (0 by default, not
     * consistent) never does. Weighted by theta, the index-2 multiplier z of Rocca et al.'s crossing
     * case obeys z1 = -z0 + 2 z_exact at theta = 1/2: it oscillates forever around the exact z. */
    for (int j = 0; j < ny; j++) sm->col_weight[j] = column_is_algebraic(p1->E, ny, j) ? gamma : theta;
    /* gamma_relation (Siconos' setUseGammaForRelation): gamma leaves the differential rows (the
     * multipliers and algebraic unknowns there at t1) and weights instead the differential
     * unknowns wherever the relation reads them: in the algebraic rows and the complementarity
     * rows, gamma y1_j + (1 - gamma) y0_j. Siconos' relation y = C x + D lambda holds every
     * algebraic law of its first-order form (its multipliers are our algebraic unknowns), so both
     * kinds of rows are its relation. rel_w below is that weight: gamma on a differential column,
     * 1 on an algebraic one; 1 everywhere without gamma_relation. */
    const double ga_diff = gamma_relation ? 1.0 : gamma, rel = gamma_relation ? gamma : 1.0;
    if (gamma_relation)
        for (int j = 0; j < ny; j++)
            if (column_is_algebraic(p1->E, ny, j)) sm->col_weight[j] = 1.0;

    /* Rows 0..ny-1, with w_j the column weights above and ga = gamma on a differential row:
     *   sum_j (E1_ij - h w_j A1_ij) y1_j - h ga B1 lambda1
     *     - [E1 y0 + h sum_j (1 - w_j) A0_ij y0_j + h (1-ga) B0 lambda0 + h (th b(t1) + (1-th) b(t0))] = 0.
     * An algebraic row (a zero row of E1) holds at t1: every weight 1, as in any DAE scheme.
     * Weighted, i = (u1 + u0)/2 at theta = 1/2 is a recurrence i1 = -i0 + ... with an eigenvalue
     * -1, and the algebraic start values leak into the first step (issue 15: 1.8e-2 V on the
     * diode bridge). b is weighted th = theta like A: th b(t1) + (1-th) b(t0), as Siconos'
     * EulerMoreauOSI does for a linear system with time-varying coefficients (computeResidu:
     * h (1-theta) b(t_k) + h theta b(t_k+1)); for a time-invariant b both read h b. */
    for (int i = 0; i < ny; i++) {
        const int algebraic = row_is_algebraic(p1->E, ny, i);
        const double th = algebraic ? 1.0 : theta, ga = algebraic ? 1.0 : ga_diff;
        double r = h * (th * sm->b1[i] + (th < 1.0 ? (1.0 - th) * sm->b0[i] : 0.0));
        for (int j = 0; j < ny; j++) {
            const double wj = algebraic ? relation_weight(p1->E, ny, j, rel) : sm->col_weight[j];
            sm->M[i + (size_t)j * n] = p1->E[i + (size_t)j * ny] - h * wj * p1->A[i + (size_t)j * ny];
            r += p1->E[i + (size_t)j * ny] * y0[j];
            if (wj < 1.0) r += h * (1.0 - wj) * p0->A[i + (size_t)j * ny] * y0[j];
        }
        for (int j = 0; j < nl; j++) sm->M[i + (size_t)(ny + j) * n] = -h * ga * p1->B[i + (size_t)j * ny];
        if (ga < 1.0)
            for (int j = 0; j < nl; j++) r += h * (1.0 - ga) * p0->B[i + (size_t)j * ny] * lambda0[j];
        sm->q[i] = -r;
    }
    /* Rows ny..: w1 = sum_j C1_ij (rel_w_j y1_j) + sum_j (1 - rel_w_j) C0_ij y0_j + D1 lambda1 + c(t1),
     * rel_w_j = 1 (w1 = C1 y1 + D1 lambda1 + c(t1)) unless gamma_relation. */
    for (int i = 0; i < nl; i++) sm->q[ny + i] = sm->c1[i];
    for (int j = 0; j < ny; j++) {
        const double wj = relation_weight(p1->E, ny, j, rel);
        for (int i = 0; i < nl; i++) {
            sm->M[ny + i + (size_t)j * n] = wj * p1->C[i + (size_t)j * nl];
            if (wj < 1.0) sm->q[ny + i] += (1.0 - wj) * p0->C[i + (size_t)j * nl] * y0[j];
        }
    }
    for (int j = 0; j < nl; j++)
        for (int i = 0; i < nl; i++)
            sm->M[ny + i + (size_t)(ny + j) * n] = p1->D[i + (size_t)j * nl];
}

double step_mlcp_residual(const step_mlcp *sm, const double *z)
{
    const int n = sm->size;
    double worst = 0.0;
    for (int i = 0; i < n; i++) {
        double w = sm->q[i];
        for (int j = 0; j < n; j++) w += sm->M[i + (size_t)j * n] * z[j];
        double r = 0.0;
        switch (sm->kind[i]) {
        case NSDAE_ROW_EQUALITY: r = fabs(w); break;
        case NSDAE_ROW_COMPLEMENTARITY: r = fmax(fmax(-z[i], -w), fmin(fabs(z[i]), fabs(w))); break;
        case NSDAE_ROW_BOX: {
            double below = sm->lo[i] - z[i], above = z[i] - sm->hi[i];
            double to_lo = isfinite(sm->lo[i]) ? fabs(z[i] - sm->lo[i]) : INFINITY;
            double to_hi = isfinite(sm->hi[i]) ? fabs(z[i] - sm->hi[i]) : INFINITY;
            /* -w in the normal cone: w = 0 inside, w >= 0 at lo, w <= 0 at hi */
            double cone = fmin(fabs(w), fmin(to_lo + fmax(-w, 0.0), to_hi + fmax(w, 0.0)));
            r = fmax(fmax(below, above), cone);
            break;
        }
        }
        if (r > worst) worst = r;
    }
    return worst;
}
