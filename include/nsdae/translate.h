/* nsdae translate stage: model IR -> MLCS (examples/LANGUAGE.md, "How the time stepper reads a model").
 *
 * Unknowns y: the model's variables in declaration order (a variable that is exactly the
 * multiplier side of a top-level complementarity or relay relation, and is never differentiated,
 * becomes that row's multiplier instead), then one velocity unknown `der(x)` per variable used
 * with der(der(x)) (second-order reduction: der(x) = der(x) as a row of E, der(der(x)) -> d/dt of
 * the velocity). Multipliers lambda, named after the construct that introduced them:
 *   abs(e)                -> minus(e): e = e+ - e-, 0 <= e + minus _|_ minus >= 0, abs(e) = e + 2 minus
 *   max(a, b), min(a, b)  -> plus(a - b): 0 <= plus - (a - b) _|_ plus >= 0, max = b + plus, min = a - plus
 *   sign(e) in an equation-> sign(e): box [-1, 1], w = -e
 *   0 <= a _|_ b >= 0     -> b itself (when a variable) or mult(b) with the row b = mult(b)
 *   v in [lo, hi]*sign(e) -> v itself or relay(v) with v = relay(v); box [lo, hi], w = -e
 *   if h > 0 then g1 = 0 else g2 = 0 (state guard)
 *                         -> step(h): box [0, 1], w = -h; minus(h): 0 <= h + minus _|_ minus >= 0;
 *                            the row g2 + a (h + minus) + k step = 0 when g1 - g2 = a h + k
 *                            (a, k constants); otherwise refused, naming the equation and why.
 * Time-guarded `if` blocks give one phase per combination of branches that can be selected
 * (nested blocks only under their selected branch); `time` elsewhere gives the forcing b(t), c(t).
 * Multipliers of constructs that are not active in a phase get the row w = lambda (so lambda = 0).
 * Refused with NSDAE_UNSUPPORTED and a "file:line:col: ..." message: nonlinear terms, time-dependent
 * coefficients, derivatives inside set-valued relations, `restitution` (needs the Moreau-Jean
 * scheme), `when` blocks, and/or/elseif state guards that are not exactly relaxable.
 */
#ifndef NSDAE_TRANSLATE_H
#define NSDAE_TRANSLATE_H

#include <nsdae/mlcs.h>
#include <nsdae/model.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Where each MLCS unknown comes from (filled by nsdae_translate_mlcs when info != NULL). */
typedef enum nsdae_unknown_role {
    NSDAE_ROLE_DIFFERENTIAL = 0,  /* y with a non-zero column of E in some phase */
    NSDAE_ROLE_ALGEBRAIC,         /* y with a zero column of E */
    NSDAE_ROLE_MULTIPLIER         /* lambda */
} nsdae_unknown_role;

typedef struct nsdae_translate_info {
    int ny, nl, nphases;
    nsdae_unknown_role *y_role;   /* ny */
    int *y_var;                   /* ny: model variable index, or -1 for a velocity unknown */
    int *l_var;                   /* nl: model variable index when a variable is the multiplier, else -1 */
    int n_equality, n_complementarity, n_box;  /* w-rows by kind */
} nsdae_translate_info;

/* Translates m (with its current parameter values) into *out. info may be NULL; free it with
 * nsdae_translate_info_free. The MLCS owns everything it needs (its callbacks do not use m).
 * Cost linear in the model's size. The matrices are stored compressed (nsdae_mlcs_phase sE ..
 * sD); a system with ny + nl <= NSDAE_TRANSLATE_DENSE_AT_ONCE has its dense E, A, B, C, D too,
 * a larger one gets them from nsdae_mlcs_dense (O((ny + nl)^2) memory) before a dense consumer
 * (the event-driven engine, impulse analysis) reads it. The time stepper (stepper.h) reads the
 * compressed form and makes the dense matrices itself only when its dense path is needed. */
#define NSDAE_TRANSLATE_DENSE_AT_ONCE 512
nsdae_status nsdae_translate_mlcs(const nsdae_model *m, nsdae_mlcs **out, nsdae_translate_info **info,
                                  nsdae_error *err);
void nsdae_translate_info_free(nsdae_translate_info *info);

#ifdef __cplusplus
}
#endif

#endif
