/* The library decides which form a model takes (translate_form.h). */
#include <criterion/criterion.h>

#include <nsdae/translate_form.h>

#include <stdio.h>
#include <string.h>

static nsdae_form_decision form_of(const char *text)
{
    nsdae_model *m = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_model_parse_string(text, strlen(text), "form.nsm", &m, &err), NSDAE_OK, "%s", err.message);
    nsdae_form_decision d = nsdae_translate_form(m);
    nsdae_model_destroy(m);
    return d;
}

Test(form, impact_law_or_moreau_experiment_is_contact)
{
    /* a ball on the ground with restitution: an impact law, which the MLCS cannot express */
    nsdae_form_decision d = form_of("model ball\n parameter e = 0.5;\n var q(start = 1, dstart = 0);\n var l;\n"
                                    "equation\n der(der(q)) = -9.81 + l;\n 0 <= q _|_ l >= 0 restitution e;\nend ball;\n");
    cr_expect_eq(d.form, NSDAE_FORM_CONTACT);
    cr_expect(strstr(d.reason, "impact law") != NULL, "%s", d.reason);
    /* the same ball without restitution but asking for Moreau-Jean */
    d = form_of("model ball\n var q(start = 1, dstart = 0);\n var l;\nequation\n der(der(q)) = -9.81 + l;\n 0 <= q _|_ l >= 0;\n"
                "experiment stop = 1, step = 0.01, scheme = moreau;\nend ball;\n");
    cr_expect_eq(d.form, NSDAE_FORM_CONTACT);
    cr_expect(strstr(d.reason, "moreau") != NULL, "%s", d.reason);
    /* a relay: a mixed linear complementarity system */
    d = form_of("model relay\n var x(start = 1);\n var s;\nequation\n der(x) = -s;\n s in sign(x);\nend relay;\n");
    cr_expect_eq(d.form, NSDAE_FORM_MLCS);
    cr_expect_str_eq(nsdae_form_name(d.form), "mlcs");
}
