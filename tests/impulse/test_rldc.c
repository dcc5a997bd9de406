/* The Elmqvist-Mattsson RLDC circuit (Benveniste et al. 2013, section VII-D): diode 2 blocks while the
 * inductor currents do not cancel, U1 and I2 -> U1 and U2, an exogenous change. Oracle derived by hand
 * from the circuit's equations: j1+ = -j2+ = (L1 j1- - L2 j2-)/(L1 + L2) (flux conservation), the node
 * voltage impulsive of order 1, capacitor voltages continuous. */
#include <math.h>

#include "impulse_helpers.h"

static const char *RLDC =
    "model rldc\n"
    "  parameter R1 = 1; parameter R2 = 1.5; parameter L1 = 1; parameter L2 = 2;\n"
    "  parameter C1 = 1; parameter C2 = 0.5;\n"
    "  var j1; var j2; var i1; var i2; var x1; var x2; var w1; var w2; var u1; var u2; var v1; var v2;\n"
    "equation\n"
    "  0 = j1 + j2 + i1 + i2;\n"   /* 0 K1 */
    "  x1 + w1 = u1 + v1;\n"       /* 1 K2 */
    "  u1 + v1 = u2 + v2;\n"       /* 2 K3 */
    "  u2 + v2 = x2 + w2;\n"       /* 3 K4 */
    "  x1 = R1*j1;\n"              /* 4 */
    "  x2 = R2*j2;\n"              /* 5 */
    "  w1 = L1*der(j1);\n"         /* 6 */
    "  w2 = L2*der(j2);\n"         /* 7 */
    "  i1 = C1*der(v1);\n"         /* 8 */
    "  i2 = C2*der(v2);\n"         /* 9 */
    "  i1 = 0;\n"                  /* 10 D1: diode 1 blocking */
    "  u1 = 0;\n"                  /* 11 D2: diode 1 conducting */
    "  i2 = 0;\n"                  /* 12 D4: diode 2 blocking */
    "  u2 = 0;\n"                  /* 13 D5: diode 2 conducting */
    "end rldc;\n";
static const char *const LABEL[] = {"K1", "K2", "K3", "K4", "R1", "R2", "L1", "L2", "C1", "C2", "D1", "D2", "D4", "D5"};
enum { J1 = 0, J2 = 1, U2 = 9, V1 = 10, V2 = 11, NV = 12 };

Test(impulse_rldc, diode_two_blocking_conserves_flux)
{
    change c;
    const int prev[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 13, -1}, next[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, -1};
    change_setup(&c, parse_model(RLDC), LABEL, prev, NULL, next);
    nsdae_impulse_result *r = analyze(&c, -1);
    dump(r);
    cr_assert_eq(r->verdict, NSDAE_IMPULSE_OK);
    cr_expect_eq(r->height, 1);
    cr_expect_eq(nsdae_impulse_mu(r, U2, 0, 0), 1, "V = u2 + v2 impulsive of order 1");
    double left[2 * NV] = {0}, plus[16];
    left[J1] = 2, left[J2] = 0.5, left[V1] = 0.3, left[V2] = 1.0;
    nsdae_impulse_numeric num;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_impulse_restart(r, left, 1, plus, NULL, &num, &err), NSDAE_OK, "%s", err.message);
    double jplus = (1.0 * 2 - 2.0 * 0.5) / (1.0 + 2.0);
    int ij1 = state_index(r, J1, 0), ij2 = state_index(r, J2, 0), iv1 = state_index(r, V1, 0), iv2 = state_index(r, V2, 0);
    cr_assert(ij1 >= 0 && ij2 >= 0 && iv1 >= 0 && iv2 >= 0);
    cr_expect_float_eq(plus[ij1], jplus, 1e-13);
    cr_expect_float_eq(plus[ij2], -jplus, 1e-13);
    cr_expect_float_eq(plus[iv1], 0.3, 1e-13);
    cr_expect_float_eq(plus[iv2], 1.0, 1e-13);
    nsdae_impulse_result_destroy(r);
    change_destroy(&c);
}
