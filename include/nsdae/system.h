/* nsdae: the systems the engines run on (README, Architecture: `src/system/`): the mixed linear
 * complementarity system (mlcs.h) and the Lagrangian contact form (lagrangian.h). Translation
 * fills them, the steppers and the event-driven engine read them. */
#ifndef NSDAE_SYSTEM_H
#define NSDAE_SYSTEM_H

#include <nsdae/lagrangian.h>
#include <nsdae/mlcs.h>

#endif
