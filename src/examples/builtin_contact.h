/* Contact-mechanics reference systems built into nsdae (fixtures, like builtin.h), in the Lagrangian contact
 * form. Parameters are overridden by name, as for the MLCS built-ins (builtin.h).
 *
 *   bouncing-ball  q0 = 1, v0 = 0, g = 9.81, m = 1, e = 0.9, stop 10; gap g(q) = q
 *   beads          n = 10 beads of radius r = 0.1, mass m = 1 on a vertical line above the ground,
 *                  initial gaps gap0 = 0.25 (ground-bead 1 and between successive beads), e = 0.9,
 *                  g = 9.81, stop 2; contacts ground-bead 1 and bead i-bead i+1
 *   cup-and-ball   ball of mass m = 1 on a rope of length L = 1 fixed at the origin, q = (x, y),
 *                  gap L^2 - (x^2 + y^2) >= 0 (nonlinear), g = 9.81, e = 0 (inelastic) or 1
 *                  (elastic), start (x0, y0) = (0.5, -0.7), (vx0, vy0) = (1, -1), stop 2
 */
#ifndef NSDAE_BUILTIN_CONTACT_H
#define NSDAE_BUILTIN_CONTACT_H

#include "examples/builtin.h"
#include <nsdae/lagrangian.h>

/* Names, NULL-terminated, and a one-line description of each (NULL for an unknown name). */
const char *const *nsdae_builtin_contact_names(void);
const char *nsdae_builtin_contact_description(const char *name);

/* Builds the example with its default parameters, then applies the overrides (an unknown
 * parameter name is INVALID_INPUT naming it and listing the known ones). */
nsdae_status nsdae_builtin_contact_create(const char *name, const nsdae_param_value *params, int nparams,
                                          nsdae_lagrangian **out, nsdae_error *err);

/* The example's parameters and their defaults, in order: up to max of them into names and
 * defaults; returns how many it has (0 for an unknown name). */
int nsdae_builtin_contact_params(const char *name, const char **names, double *defaults, int max);

#endif
