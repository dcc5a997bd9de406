/* nsdae translate stage: model IR -> Lagrangian contact form (examples/LANGUAGE.md, "How the time
 * stepper reads a model").
 *
 * For second-order models with position-level unilateral constraints and Newton impact laws:
 *
 *   var q1 ... qn;  var lambda1 ... lambdam;
 *   sum_j m_ij(q) der(der(q_j)) = F_i(t, q, der(q)) + sum_c (d g_c / d q_i) lambda_c;   (one per coordinate)
 *   0 <= g_c(q) _|_ lambda_c >= 0 [restitution e_c];                                  (one per contact)
 *
 * becomes an nsdae_lagrangian (lagrangian.h) for the Moreau-Jean scheme:
 *   - the coordinates q are the variables used with der(der(x)), in declaration order; the
 *     multipliers are the variables alone on one side of a complementarity (b, else a), never
 *     differentiated; nothing else may appear (first-order variables, algebraic unknowns,
 *     guards, relays are refused);
 *   - each equation of motion must be affine in the accelerations der(der(q)) and the
 *     multipliers. M(q) is the matrix of the acceleration coefficients (depending on q only,
 *     symmetric, positive diagonal at the start), F = -(residual at zero accelerations and
 *     multipliers) and the multiplier coefficients must be the gap gradient: the equation of
 *     coordinate i (the one matched to der(der(q_i))) carries + (d g_c / d q_i) lambda_c, checked
 *     symbolically and at a few points. Any other sign or gradient is refused, naming the
 *     equation: Moreau-Jean needs the constraint force to be G(q)^T lambda;
 *   - g_c(q) depends on the positions only; G = dg/dq by symbolic differentiation;
 *   - e_c (0 when absent) is a constant in [0, 1];
 *   - q0, v0 from start and dstart; stop_time and step from the experiment.
 * Parameters take their current values (apply nsdae_model_set_param first). The result owns
 * copies of its expressions: it does not use the model after translation. Its callbacks share a
 * scratch vector, so one system is evaluated by one thread at a time.
 *
 * Refusals are NSDAE_UNSUPPORTED (or NSDAE_INVALID_INPUT for a restitution outside [0, 1]) with
 * "file:line:col: equation '...': why" (or "file:line:col: variable 'x': why").
 */
#ifndef NSDAE_TRANSLATE_LAGRANGIAN_H
#define NSDAE_TRANSLATE_LAGRANGIAN_H

#include <nsdae/lagrangian.h>
#include <nsdae/model.h>

#ifdef __cplusplus
extern "C" {
#endif

nsdae_status nsdae_translate_lagrangian(const nsdae_model *m, nsdae_lagrangian **out, nsdae_error *err);

/* Whether the model has an impact law (a complementarity with `restitution`): the models that
 * belong to the Lagrangian form rather than to the MLCS. */
int nsdae_translate_has_impact_law(const nsdae_model *m);

#ifdef __cplusplus
}
#endif

#endif
