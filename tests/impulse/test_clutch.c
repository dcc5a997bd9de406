/* Clutch engagement (Benveniste et al. 2026, Appendix E, F.2). Released -> engaged is an
 * exogenous switch (no facts), K = 1. Oracles: the paper's closed forms (J1 + J2) w+ = J1 w1- +
 * J2 w2- (J1 = 1, J2 = 3, w1- = 4, w2- = 0 -> w+ = 1, e*tau1 = -3), D4 when f is nonlinear in
 * tau, a nonlinear junction w2 = h(w1) still good, and F.2's numerically singular restart (D7). */
#include <math.h>

#include "impulse_helpers.h"

static const char *CLUTCH =
    "model clutch\n"
    "  parameter J1 = 1; parameter J2 = 3; parameter a1 = 0.5; parameter a2 = 0.5;\n"
    "  var w1; var w2; var t1; var t2;\n"
    "equation\n"
    "  J1*der(w1) = t1 - a1*w1;\n"             /* 0 e1 */
    "  J2*der(w2) = t2 - a2*w2;\n"             /* 1 e2 */
    "  w1 = w2;\n"                             /* 2 e3 */
    "  t1 + t2 = 0;\n"                         /* 3 e4 */
    "  t1 = 0;\n"                              /* 4 released */
    "  t2 = 0;\n"                              /* 5 released */
    "  J1*der(w1) = t1 + t1^3 - a1*w1;\n"      /* 6 e1, nonlinear in tau */
    "  J2*der(w2) = t2 + t2^3 - a2*w2;\n"      /* 7 e2, nonlinear in tau */
    "  w2 = w1 + 0.1*w1^3;\n"                  /* 8 junction w2 = h(w1) */
    "end clutch;\n";
static const char *const LABEL[] = {"e1", "e2", "e3", "e4", "r1", "r2", "n1", "n2", "h"};
enum { W1 = 0, W2 = 1, T1 = 2, T2 = 3 };

static void left_state(double *left)
{
    memset(left, 0, sizeof(double) * 8);
    left[W1] = 4, left[W2] = 0;
    left[4 + W1] = -0.5 * 4, left[4 + W2] = 0; /* released: J w' = -a w */
}

Test(impulse_clutch, linear_in_tau_conserves_total_momentum)
{
    change c;
    const int prev[] = {0, 1, 4, 5, -1}, next[] = {0, 1, 2, 3, -1};
    change_setup(&c, parse_model(CLUTCH), LABEL, prev, NULL, next);
    nsdae_impulse_result *r = analyze(&c, -1);
    dump(r);
    cr_assert_eq(r->verdict, NSDAE_IMPULSE_OK);
    cr_expect_eq(r->height, 1);
    /* (390): w1', w2', tau1, tau2 of order 1 at t*; w1., w2. not impulsive */
    cr_expect_eq(nsdae_impulse_mu(r, W1, 1, 0), 1);
    cr_expect_eq(nsdae_impulse_mu(r, W2, 1, 0), 1);
    cr_expect_eq(nsdae_impulse_mu(r, T1, 0, 0), 1);
    cr_expect_eq(nsdae_impulse_mu(r, T2, 0, 0), 1);
    cr_expect_eq(nsdae_impulse_mu(r, W1, 0, 1), 0);
    cr_expect_eq(nsdae_impulse_mu(r, W2, 0, 1), 0);
    double left[8], plus[4], aux[64];
    nsdae_impulse_numeric num;
    nsdae_error err = {0};
    left_state(left);
    cr_assert_lt(r->navars, 64);
    cr_assert_eq(nsdae_impulse_restart(r, left, 1, plus, aux, &num, &err), NSDAE_OK, "%s", err.message);
    int i1 = state_index(r, W1, 0), i2 = state_index(r, W2, 0);
    cr_assert(i1 >= 0 && i2 >= 0);
    cr_expect_float_eq(plus[i1], 1.0, 1e-13);
    cr_expect_float_eq(plus[i2], 1.0, 1e-13);
    /* Theorem 4: J1 w1 + J2 w2 equal before (1*4 + 3*0) and after, to round-off */
    cr_expect_float_eq(1.0 * plus[i1] + 3.0 * plus[i2], 4.0, 1e-13);
    cr_expect_float_eq(aux[avar_index(r, T1, 0, 0)], -3.0, 1e-13);
    cr_expect_float_eq(aux[avar_index(r, T2, 0, 0)], 3.0, 1e-13);
    cr_expect_eq(num.nonlinear, 0);
    nsdae_impulse_result_destroy(r);
    change_destroy(&c);
}

Test(impulse_clutch, nonlinear_in_tau_is_not_rescalable)
{
    change c;
    const int prev[] = {6, 7, 4, 5, -1}, next[] = {6, 7, 2, 3, -1};
    change_setup(&c, parse_model(CLUTCH), LABEL, prev, NULL, next);
    nsdae_impulse_result *r = analyze(&c, -1);
    dump(r);
    cr_assert_eq(r->verdict, NSDAE_IMPULSE_NOT_RESCALABLE);
    cr_expect(has_diag(r, "D4"));
    cr_expect_null(r->system);
    nsdae_impulse_result_destroy(r);
    change_destroy(&c);
}

/* (404): junction w2 = h(w1) = w1 + 0.1 w1^3 keeps (390) good; restart J1 (w1+ - w1-) +
 * J2 (w2+ - w2-) = 0 with w2+ = h(w1+): solved here by bisection, independently. */
Test(impulse_clutch, nonlinear_junction_is_still_good)
{
    change c;
    const int prev[] = {0, 1, 4, 5, -1}, next[] = {0, 1, 8, 3, -1};
    change_setup(&c, parse_model(CLUTCH), LABEL, prev, NULL, next);
    nsdae_impulse_result *r = analyze(&c, -1);
    dump(r);
    cr_assert_eq(r->verdict, NSDAE_IMPULSE_OK);
    cr_expect_eq(nsdae_impulse_mu(r, T1, 0, 0), 1);
    double lo = 0, hi = 4;
    for (int it = 0; it < 200; it++) {
        double w = 0.5 * (lo + hi), f = 1.0 * (w - 4) + 3.0 * (w + 0.1 * w * w * w);
        if (f > 0) hi = w;
        else lo = w;
    }
    double left[8], plus[4];
    nsdae_impulse_numeric num;
    nsdae_error err = {0};
    left_state(left);
    cr_assert_eq(nsdae_impulse_restart(r, left, 1, plus, NULL, &num, &err), NSDAE_OK, "%s", err.message);
    int i1 = state_index(r, W1, 0), i2 = state_index(r, W2, 0);
    cr_expect_float_eq(plus[i1], 0.5 * (lo + hi), 1e-12);
    cr_expect_float_eq(plus[i2], plus[i1] + 0.1 * pow(plus[i1], 3), 1e-12);
    cr_expect_eq(num.nonlinear, 1, "nonlinear restart: only locally unique");
    nsdae_impulse_result_destroy(r);
    change_destroy(&c);
}

/* F.2: the clutch in the variables w_i = omega_i - tau_i, s_i = omega_i + tau_i (J = 1, one a):
 * structurally good, numerically singular restart: D7. */
static const char *F2 =
    "model f2\n"
    "  parameter a = 0.5;\n"
    "  var w1; var w2; var s1; var s2;\n"
    "equation\n"
    "  0 = der(w1) + der(s1) - (s1 - w1 - a*(s1 + w1));\n"   /* 0 */
    "  0 = der(w2) + der(s2) - (s2 - w2 - a*(s2 + w2));\n"   /* 1 */
    "  0 = w1 - s1;\n"                                       /* 2 released */
    "  0 = w2 - s2;\n"                                       /* 3 released */
    "  0 = (w1 + s1) - (w2 + s2);\n"                         /* 4 engaged */
    "  0 = (s1 + s2) - (w1 + w2);\n"                         /* 5 engaged */
    "end f2;\n";

Test(impulse_clutch, transformed_clutch_is_numerically_singular)
{
    change c;
    static const char *const lab[] = {"f1", "f2", "g1", "g2", "f3", "f4"};
    const int prev[] = {0, 1, 2, 3, -1}, next[] = {0, 1, 4, 5, -1};
    change_setup(&c, parse_model(F2), lab, prev, NULL, next);
    nsdae_impulse_result *r = analyze(&c, -1);
    dump(r);
    cr_assert_eq(r->verdict, NSDAE_IMPULSE_OK, "structurally good (F.2)");
    cr_expect_eq(r->height, 1);
    double left[8] = {1, 0, 1, 0, 0, 0, 0, 0}, plus[4];
    nsdae_impulse_numeric num;
    nsdae_error err = {0};
    nsdae_status st = nsdae_impulse_restart(r, left, 1, plus, NULL, &num, &err);
    cr_expect_eq(st, NSDAE_NUMERICAL);
    cr_expect_eq(num.singular, 1);
    cr_expect_lt(num.rank, num.n);
    cr_expect(strstr(err.message, "D7") != NULL, "%s", err.message);
    nsdae_impulse_result_destroy(r);
    change_destroy(&c);
}

/* Benveniste et al. 2026, Appendix E, checked by hand: the brute-force array with a_i = 0.5 gives w+ =
 * 0.995, e*tau1 = -2.985 at e = 1e-2, 0.99995 at 1e-4, 0.9999995 at 1e-6. */
Test(impulse_clutch, brute_force_array_converges_to_the_restart)
{
    change c;
    const int prev[] = {0, 1, 4, 5, -1}, next[] = {0, 1, 2, 3, -1};
    change_setup(&c, parse_model(CLUTCH), LABEL, prev, NULL, next);
    nsdae_impulse_result *r = analyze(&c, -1);
    cr_assert_eq(r->verdict, NSDAE_IMPULSE_OK);
    double left[8], plus[4], aux[64];
    left_state(left);
    const double eps[3] = {1e-2, 1e-4, 1e-6}, w[3] = {0.995, 0.99995, 0.9999995};
    int i1 = state_index(r, W1, 0);
    for (int k = 0; k < 3; k++) {
        nsdae_impulse_numeric num;
        nsdae_error err = {0};
        cr_assert_eq(nsdae_impulse_brute_force(r, left, 1, eps[k], plus, aux, &num, &err), NSDAE_OK, "%s",
                     err.message);
        cr_expect(fabs(plus[i1] - w[k]) <= 1e-9, "eps %g: w+ = %.12f", eps[k], plus[i1]);
    }
    cr_expect(fabs(aux[avar_index(r, T1, 0, 0)] - -3.0) <= 1e-5);
    nsdae_impulse_result_destroy(r);
    change_destroy(&c);
}

/* D4's fallback: the clutch nonlinear in tau has no restart system but a brute-force array; as
 * e -> 0 the shafts lock (w1 = w2, e3 is enforced at t*+e) and J1 w1 + J2 w2 tends to its left
 * value 4 (the impulse tau1 + tau2 = 0 cancels; only the O(e) friction remains). */
Test(impulse_clutch, nonlinear_in_tau_brute_force_fallback)
{
    change c;
    const int prev[] = {6, 7, 4, 5, -1}, next[] = {6, 7, 2, 3, -1};
    change_setup(&c, parse_model(CLUTCH), LABEL, prev, NULL, next);
    nsdae_impulse_result *r = analyze(&c, -1);
    cr_assert_eq(r->verdict, NSDAE_IMPULSE_NOT_RESCALABLE);
    cr_assert_not_null(r->brute);
    double left[8], plus[4];
    left_state(left);
    int i1 = state_index(r, W1, 0), i2 = state_index(r, W2, 0);
    for (double eps = 1e-2; eps >= 1e-6; eps *= 1e-2) {
        nsdae_impulse_numeric num;
        nsdae_error err = {0};
        cr_assert_eq(nsdae_impulse_brute_force(r, left, 1, eps, plus, NULL, &num, &err), NSDAE_OK, "%s", err.message);
        cr_expect(fabs(plus[i1] - plus[i2]) <= 1e-12);
        cr_expect(fabs(1.0 * plus[i1] + 3.0 * plus[i2] - 4.0) <= 10 * eps, "eps %g: momentum %.12f", eps,
                  plus[i1] + 3 * plus[i2]);
    }
    nsdae_impulse_result_destroy(r);
    change_destroy(&c);
}
