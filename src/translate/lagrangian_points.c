/* Numerical checks of the Lagrangian translation: expressions of q, der(q) and time evaluated at
 * the start and at a few test points around it. Used by the equation-of-motion matching
 * (lagrangian_assign.c) and by the checks of M and of the contact forces (lagrangian_motion.c). */
#include "translate/lagrangian_internal.h"

#include <nsdae/tolerances.h>

#include <math.h>
#include <stdlib.h>

#define NPOINTS 5            /* the start and four test points */

/* A deterministic spread of states around the start (positions, velocities, time), away from
 * the symmetric points where a wrong coefficient could agree by accident (e.g. x = y = 0). */
static void test_point(const lctx *L, int p, double *vars)
{
    for (int j = 0; j < L->ndof; j++) {
        int v = L->coord[j];
        double s = (p + j) % 2 ? -1.0 : 1.0;
        vars[v] = nsdae_model_start_value(L->m, v, 0) + (p ? s * (0.3 * p + 0.11 * (j + 1)) : 0.0);
        vars[L->nvars + v] = nsdae_model_start_value(L->m, v, 1) + (p ? 0.7 * p - 0.23 * (j + 1) : 0.0);
    }
}

double nsdae_lag_eval_at(lctx *L, const nsdae_expr *e, int point)
{
    const size_t w = 3 * (size_t)L->nvars + 1;
    if (!L->points) {
        L->points = calloc(NPOINTS * w, sizeof *L->points);
        if (!L->points) {
            nsdae_lag_nomem(L);
            return NAN;
        }
        for (int p = 0; p < NPOINTS; p++) test_point(L, p, L->points + p * w);
    }
    nsdae_eval_env env = {nsdae_model_param_values(L->m), nsdae_model_nparams(L->m), L->points + point * w,
                          L->nvars, 2, 0.25 * point};
    return nsdae_expr_eval(e, &env);
}

int nsdae_lag_same_values(lctx *L, const nsdae_expr *a, const nsdae_expr *b, double *va, double *vb)
{
    int compared = 0;
    for (int p = 0; p < NPOINTS && !L->st; p++) {
        double x = nsdae_lag_eval_at(L, a, p), y = nsdae_lag_eval_at(L, b, p);
        if (!isfinite(x) || !isfinite(y)) continue;
        compared++;
        if (fabs(x - y) > NSDAE_TOL_SAME_EXPR * (1.0 + fmax(fabs(x), fabs(y)))) {
            *va = x;
            *vb = y;
            return 0;
        }
    }
    return compared ? 1 : -1;
}
