/* Which form a model takes (translate_form.h). */
#include <nsdae/translate_form.h>
#include <nsdae/translate_lagrangian.h>

#include <string.h>

nsdae_form_decision nsdae_translate_form(const nsdae_model *m)
{
    if (nsdae_translate_has_impact_law(m))
        return (nsdae_form_decision){NSDAE_FORM_CONTACT, "the model has an impact law (restitution)"};
    const char *scheme = m ? nsdae_model_experiment(m)->scheme : NULL;
    if (scheme && strcmp(scheme, "moreau") == 0)
        return (nsdae_form_decision){NSDAE_FORM_CONTACT, "the model's experiment names the moreau scheme"};
    return (nsdae_form_decision){NSDAE_FORM_MLCS, "no impact law: a mixed linear complementarity system"};
}

const char *nsdae_form_name(nsdae_form form)
{
    return form == NSDAE_FORM_CONTACT ? "contact" : "mlcs";
}
