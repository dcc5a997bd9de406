/* nsdae translate stage: which form a model takes, decided before translating it.
 *
 * A model goes either to the MLCS (translate.h; the minnorm, euler and theta steppers) or to the
 * Lagrangian contact form (translate_lagrangian.h; Moreau-Jean). The rule, in order:
 *   1. an impact law (a complementarity with `restitution`) -> CONTACT: the MLCS has no impacts;
 *   2. `experiment ... scheme = moreau`                     -> CONTACT: the model asks for it;
 *   3. otherwise                                            -> MLCS.
 * Decided on the parsed model only (no translation): cost linear in the number of equations. The
 * library decides this so that every caller (the command, a C program, the Python module) sends
 * the same model to the same engine.
 */
#ifndef NSDAE_TRANSLATE_FORM_H
#define NSDAE_TRANSLATE_FORM_H

#include <nsdae/model.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum nsdae_form {
    NSDAE_FORM_MLCS = 0,      /* nsdae_translate_mlcs */
    NSDAE_FORM_CONTACT        /* nsdae_translate_lagrangian */
} nsdae_form;

typedef struct nsdae_form_decision {
    nsdae_form form;
    const char *reason;       /* static text, e.g. "the model has an impact law (restitution)" */
} nsdae_form_decision;

nsdae_form_decision nsdae_translate_form(const nsdae_model *m);

/* "mlcs" or "contact". */
const char *nsdae_form_name(nsdae_form form);

#ifdef __cplusplus
}
#endif

#endif
