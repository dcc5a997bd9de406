/* How a contact with friction is refused when it is written wrong: at the parser (file:line:col of
 * the offending token) or at the Lagrangian translation (the equation's file:line:col and why). */
#include "lag_helpers.h"

#include "../model/parse_check.h"

#define MODEL(motion_x, contact) \
    "model b\n  parameter mu = 0.3;\n  var x;\n  var y;\n  var l;\n  var f;\nequation\n  der(der(x)) = " motion_x \
    ";\n  der(der(y)) = -9.81 + l;\n  " contact ";\nend b;\n"
#define GOOD_X "f"
#define CONTACT "0 <= y _|_ l >= 0 friction mu tangent x force f"

static void refused_as(nsdae_status status, const char *src, const char *where, const char *why)
{
    nsdae_lagrangian *s = NULL;
    nsdae_error err = {0};
    cr_expect_eq(lag_translate_text(src, &s, &err), status, "%s", err.message);
    cr_expect_null(s);
    cr_expect(strncmp(err.message, where, strlen(where)) == 0, "expected '%s' at the start of: %s", where,
              err.message);
    cr_expect(strstr(err.message, why) != NULL, "expected '%s' in: %s", why, err.message);
    nsdae_lagrangian_destroy(s);
}

static void refused(const char *src, const char *where, const char *why)
{
    refused_as(NSDAE_UNSUPPORTED, src, where, why);
}

Test(friction_errors, the_base_model_translates_with_its_coefficient)
{
    nsdae_lagrangian *s = NULL;
    nsdae_error err = {0};
    cr_assert_eq(lag_translate_text(MODEL(GOOD_X, CONTACT), &s, &err), NSDAE_OK, "%s", err.message);
    cr_expect_eq(s->friction[0], 0.3);
    cr_expect_not_null(s->tangent_jacobian);
    nsdae_lagrangian_destroy(s);
}

Test(friction_errors, syntax)
{
    check_bad(MODEL(GOOD_X, "0 <= y _|_ l >= 0 friction mu force f"), "10:33",
              "expected 'tangent' after the friction coefficient (friction MU tangent S force F), found 'force'");
    check_bad(MODEL(GOOD_X, "0 <= y _|_ l >= 0 friction mu tangent x"), "10:42",
              "expected 'force' and the tangential force after the tangent");
    check_bad(MODEL(GOOD_X, "0 <= y _|_ l >= 0 friction mu tangent x force 2*f"), "10:49",
              "the tangential force after 'force' must be an unknown");
    check_bad(MODEL(GOOD_X, "0 <= y _|_ l >= 0 friction y tangent x force f"), "10:30",
              "the friction coefficient must be constant: it uses an unknown");
    check_bad(MODEL(GOOD_X, "0 <= y _|_ l >= 0 friction mu*time tangent x force f"), "10:30",
              "the friction coefficient must be constant: it uses 'time'");
}

Test(friction_errors, translation)
{
    refused_as(NSDAE_INVALID_INPUT, MODEL(GOOD_X, "0 <= y _|_ l >= 0 friction -mu tangent x force f"), "t.nsm:10:3: equation ",
            "the friction coefficient '-mu' does not evaluate to a finite constant >= 0");
    refused(MODEL(GOOD_X, "0 <= y _|_ l >= 0 friction mu tangent der(x) force f"), "t.nsm:10:3: equation ",
            "the tangent 'der(x)' uses der(x): it must be a function of the positions only");
    refused(MODEL(GOOD_X, "0 <= y _|_ l >= 0 friction mu tangent x force l"), "t.nsm:10:3: equation ",
            "'l' is already a multiplier or force of the contact at 10:3");
    /* the force on the wrong side: -f where grad(x)^T f = +f is needed */
    refused(MODEL("-f", CONTACT), "t.nsm:8:3: equation 'der(der(x)) = -f': ",
            "the tangential force 'f' enters the equation of motion of 'x' as (-1)*f");
    refused(MODEL("-f", CONTACT), "t.nsm:8:3: ", "(the contact force has the opposite sign)");
    /* a tangential force that is missing from the equations of motion */
    refused(MODEL("0", CONTACT), "t.nsm:8:3: ", "needs d(tangent)/d(x)*f = (1)*f");
}

Test(friction_errors, an_mlcs_refuses_friction)
{
    nsdae_model *m = NULL;
    nsdae_error err = {0};
    const char *src = MODEL(GOOD_X, CONTACT);
    cr_assert_eq(nsdae_model_parse_string(src, strlen(src), "t.nsm", &m, &err), NSDAE_OK, "%s", err.message);
    cr_expect(nsdae_translate_has_impact_law(m), "a friction clause makes it a contact model");
    nsdae_model_destroy(m);
}
