/* What the Lagrangian translation refuses, and how it says so: "t.nsm:line:col: equation '...':"
 * naming the equation (or the variable), then why. The models are one- or two-line changes of
 * the bouncing ball (line 6 is the equation of motion, line 7 the contact). */
#include "lag_helpers.h"

#define HEAD "model ball\n  parameter g = 9.81;\n  parameter m = 1;\n  parameter e = 0.9;\nequation\n"
/* HEAD declares no variables: each case declares them after `model` via VARS */
#define VARS "  var q(start = 1);\n  var lambda;\n"
#define BALL(motion, contact) \
    "model ball\n  parameter g = 9.81;\n  parameter e = 0.9;\n" VARS "equation\n  " motion ";\n  " contact ";\nend ball;\n"
#define CONTACT "0 <= q _|_ lambda >= 0 restitution e"
#define MOTION "der(der(q)) = -g + lambda"

static void refused(const char *src, nsdae_status status, const char *where, const char *why)
{
    nsdae_lagrangian *s = NULL;
    nsdae_error err = {0};
    nsdae_status st = lag_translate_text(src, &s, &err);
    cr_expect_eq(st, status, "status %d, expected %d: %s", st, status, err.message);
    cr_expect_null(s);
    cr_expect(strncmp(err.message, where, strlen(where)) == 0, "expected '%s' at the start of: %s", where,
              err.message);
    cr_expect(strstr(err.message, why) != NULL, "expected '%s' in: %s", why, err.message);
    nsdae_lagrangian_destroy(s);
}

Test(lagrangian_refusals, the_base_model_translates)
{
    nsdae_lagrangian *s = NULL;
    nsdae_error err = {0};
    cr_assert_eq(lag_translate_text(BALL(MOTION, CONTACT), &s, &err), NSDAE_OK, "%s", err.message);
    nsdae_lagrangian_destroy(s);
}

Test(lagrangian_refusals, nonlinear_in_the_accelerations)
{
    refused(BALL("der(der(q))*der(der(q)) = -g + lambda", CONTACT), NSDAE_UNSUPPORTED,
            "t.nsm:7:3: equation 'der(der(q))*der(der(q)) = -g + lambda': ",
            "must be affine in the accelerations der(der(q)) and the contact multipliers: nonlinear term");
    refused(BALL("der(der(q)) = -g + lambda^2", CONTACT), NSDAE_UNSUPPORTED, "t.nsm:7:3: equation ",
            "nonlinear term");
}

Test(lagrangian_refusals, contact_force_with_the_wrong_sign)
{
    refused(BALL("der(der(q)) = -g - lambda", CONTACT), NSDAE_UNSUPPORTED,
            "t.nsm:7:3: equation 'der(der(q)) = -g - lambda': ",
            "the contact force has the opposite sign");
    /* the same force moved to the left-hand side with the wrong sign */
    refused(BALL("der(der(q)) + lambda = -g", CONTACT), NSDAE_UNSUPPORTED, "t.nsm:7:3: ",
            "Moreau-Jean form M q'' = F + grad g(q)^T lambda");
}

Test(lagrangian_refusals, contact_force_not_the_gap_gradient)
{
    /* cup-and-ball with the rope force (-x, -y) lambda instead of (-2x, -2y) lambda */
    const char *src = "model cup\n  parameter L = 1;\n  var x(start = 0.5);\n  var y(start = -0.7);\n  var rope;\n"
                      "equation\n  der(der(x)) = -x*rope;\n  der(der(y)) = -9.81 - 2*y*rope;\n"
                      "  0 <= L^2 - (x^2 + y^2) _|_ rope >= 0 restitution 0;\nend cup;\n";
    refused(src, NSDAE_UNSUPPORTED, "t.nsm:7:3: equation 'der(der(x)) = -x*rope': ",
            "needs d(gap)/d(x)*rope = (-(2*x))*rope");
    /* the multiplier forgotten in one equation */
    const char *src2 = "model cup\n  parameter L = 1;\n  var x(start = 0.5);\n  var y(start = -0.7);\n  var rope;\n"
                       "equation\n  der(der(x)) = -2*x*rope;\n  der(der(y)) = -9.81;\n"
                       "  0 <= L^2 - (x^2 + y^2) _|_ rope >= 0;\nend cup;\n";
    refused(src2, NSDAE_UNSUPPORTED, "t.nsm:8:3: equation 'der(der(y)) = -9.81': ", "enters the equation of motion");
}

Test(lagrangian_refusals, restitution_not_constant)
{
    /* a restitution using an unknown never reaches the translator: the parser refuses it */
    refused(BALL(MOTION, "0 <= q _|_ lambda >= 0 restitution q"), NSDAE_PARSE, "t.nsm:8:38: ",
            "the restitution coefficient must be constant");
    /* constant, but not a number with these parameters */
    refused(BALL(MOTION, "0 <= q _|_ lambda >= 0 restitution sqrt(e - 1)"), NSDAE_UNSUPPORTED,
            "t.nsm:8:3: equation '0 <= q _|_ lambda >= 0 restitution sqrt(e - 1)': ",
            "does not evaluate to a finite constant");
}

Test(lagrangian_refusals, restitution_outside_unit_interval)
{
    refused(BALL(MOTION, "0 <= q _|_ lambda >= 0 restitution 1.5"), NSDAE_INVALID_INPUT,
            "t.nsm:8:3: equation '0 <= q _|_ lambda >= 0 restitution 1.5': ",
            "restitution coefficient 1.5 is outside [0, 1]");
    /* through a parameter override */
    const char *src = BALL(MOTION, CONTACT);
    nsdae_model *m = NULL;
    nsdae_lagrangian *s = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_model_parse_string(src, strlen(src), "t.nsm", &m, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(nsdae_model_set_param(m, "e", -0.25, &err), NSDAE_OK);
    cr_expect_eq(nsdae_translate_lagrangian(m, &s, &err), NSDAE_INVALID_INPUT);
    cr_expect(strstr(err.message, "t.nsm:8:3: equation '0 <= q _|_ lambda >= 0 restitution e': restitution "
                                  "coefficient -0.25 is outside [0, 1]") != NULL, "%s", err.message);
    cr_expect_null(s);
    nsdae_model_destroy(m);
}

Test(lagrangian_refusals, first_order_model)
{
    const char *src = "model ball1\n  var q(start = 1);\n  var v;\n  var lambda;\nequation\n"
                      "  der(q) = v;\n  der(v) = -9.81 + lambda;\n  0 <= q _|_ lambda >= 0 restitution 0.9;\n"
                      "end ball1;\n";
    refused(src, NSDAE_UNSUPPORTED, "t.nsm:6:3: equation 'der(q) = v': ",
            "'q' is used only up to der(q): the Lagrangian contact form needs second-order coordinates");
}

Test(lagrangian_refusals, other_constructs)
{
    /* an algebraic unknown */
    refused("model b\n  var q;\n  var z;\n  var l;\nequation\n  der(der(q)) = z + l;\n  z = -9.81;\n"
            "  0 <= q _|_ l >= 0;\nend b;\n",
            NSDAE_UNSUPPORTED, "t.nsm:6:3: equation 'der(der(q)) = z + l': ",
            "'z' is neither a coordinate");
    /* a guard */
    refused("model b\n  var q;\n  var l;\nequation\n  if time > 1 then\n    der(der(q)) = -9.81 + l;\n  else\n"
            "    der(der(q)) = l;\n  end if;\n  0 <= q _|_ l >= 0 restitution 0.5;\nend b;\n",
            NSDAE_UNSUPPORTED, "t.nsm:6:5: equation 'der(der(q)) = -9.81 + l': ", "guarded equations");
    /* a mass depending on the velocity */
    refused(BALL("(1 + der(q)^2)*der(der(q)) = -g + lambda", CONTACT), NSDAE_UNSUPPORTED, "t.nsm:7:3: ",
            "of der(der(q)) depends on der(q): the mass matrix must depend on the positions only");
    /* a negative mass (the equation multiplied by -1) */
    refused(BALL("-der(der(q)) = g - lambda", CONTACT), NSDAE_UNSUPPORTED, "t.nsm:7:3: ",
            "is -1 at the start: the mass matrix must be positive definite");
    /* a gap on velocities */
    refused(BALL(MOTION, "0 <= der(q) _|_ lambda >= 0 restitution e"), NSDAE_UNSUPPORTED, "t.nsm:8:3: ",
            "the gap 'der(q)' uses der(q): it must be a function of the positions only");
    /* a complementarity without a multiplier variable */
    refused(BALL(MOTION, "0 <= q _|_ 2*lambda >= 0"), NSDAE_UNSUPPORTED, "t.nsm:8:3: ",
            "neither side is one");
    /* a non-symmetric mass matrix */
    refused("model b\n  var x(start = 1);\n  var y(start = 1);\n  var l;\nequation\n"
            "  2*der(der(x)) + der(der(y)) = l;\n  3*der(der(x)) + 2*der(der(y)) = -1;\n  0 <= x _|_ l >= 0;\nend b;\n",
            NSDAE_UNSUPPORTED, "t.nsm:6:3: ", "the mass matrix is not symmetric");
}
