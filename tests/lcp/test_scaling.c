/* Badly scaled MLCPs: the step problems of the diode bridge (L = 1e-2, C = 1e-6, R = 1e3,
 * h = 1e-5 .. 1e-8: entries from 1 down to 1e-9), written out here from the circuit's MLCS so
 * that the test does not depend on the translator. The minimal-norm selection must agree with
 * Siconos MLCP ENUM and with the own enumeration on every one of them. */
#include <criterion/criterion.h>
#include <math.h>
#include <nsdae/lcp.h>

#include "internal.h"   /* the equilibration and the branch and bound, to test them alone */
#include <stdio.h>
#include <string.h>

enum { NY = 4, NL = 4, NS = NY + NL };

/* MLCS of examples/diode_bridge.nsm (nsdae check --verbose): y = (v, iL, vp, vn), lambda = the
 * four diode currents; E y' = A y + B lambda, w = C y (D = 0). Row-major for readability. */
static const double E_[NY][NY] = {{0, 1e-2, 0, 0}, {1e-6, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}};
static const double A_[NY][NY] = {{1, 0, 0, 0}, {0, -1, 0, 0}, {0, 0, 1e-3, -1e-3}, {0, 0, -1e-3, 1e-3}};
static const double B_[NY][NL] = {{0, 0, 0, 0}, {-1, 1, 0, 0}, {-1, 0, -1, 0}, {0, 1, 0, 1}};
static const double C_[NL][NY] = {{-1, 0, 1, 0}, {1, 0, 0, -1}, {0, 0, 1, 0}, {0, 0, 0, -1}};

/* The theta-method step from y0: M = [[E - h theta A, -h B], [C, 0]], q = [-(E + h (1-theta) A) y0; 0]. */
static void step_problem(double h, double theta, const double *y0, double *M, double *q)
{
    memset(M, 0, sizeof(double) * NS * NS);
    for (int i = 0; i < NY; i++) {
        for (int j = 0; j < NY; j++)
            M[i + j * NS] = E_[i][j] - h * theta * A_[i][j];
        for (int j = 0; j < NL; j++)
            M[i + (NY + j) * NS] = -h * B_[i][j];
        double r = 0;
        for (int j = 0; j < NY; j++)
            r += (E_[i][j] + h * (1 - theta) * A_[i][j]) * y0[j];
        q[i] = -r;
    }
    for (int i = 0; i < NL; i++) {
        for (int j = 0; j < NY; j++)
            M[NY + i + j * NS] = C_[i][j];
        q[NY + i] = 0;
    }
}

static double rel_diff(const double *a, const double *b, int n)
{
    double d = 0, s = 0;
    for (int i = 0; i < n; i++) {
        d = fmax(d, fabs(a[i] - b[i]));
        s = fmax(s, fmax(fabs(a[i]), fabs(b[i])));
    }
    return s > 0 ? d / s : d;
}

/* Relative agreement per block: y and lambda have unrelated units (volts, amperes). */
static double block_diff(const double *a, const double *b)
{
    return fmax(rel_diff(a, b, NY), rel_diff(a + NY, b + NY, NL));
}

Test(scaling, diode_bridge_steps_agree_with_enumerations)
{
    static const double hs[] = {1e-5, 5e-6, 1e-6, 3.125e-8 * 8, 1e-7, 3.125e-8, 1e-8};
    /* (v, iL) states: the start, states from failing runs, both signs, near zero voltage */
    static const double states[][2] = {{10, 0},        {-0.027932267481917347, -0.054731168485684184},
                                       {0.0035852935654945299, 0.049399789032859992},
                                       {0.1436757666799541, 0.092659523311448957},
                                       {9.559533369445008, 0.019508503420167769},
                                       {-5, 0.1},      {1e-4, -1e-3}, {-2e-7, 3e-2}};
    static const nsdae_row_kind kind[NS] = {0, 0, 0, 0, 1, 1, 1, 1};
    const int sel[2] = {0, 1};
    int checked = 0;
    for (size_t ih = 0; ih < sizeof hs / sizeof *hs; ih++)
        for (size_t is = 0; is < sizeof states / sizeof *states; is++)
            for (int th = 0; th < 2; th++) {
                double theta = th ? 0.5 : 1.0, h = hs[ih];
                double y0[NY] = {states[is][0], states[is][1], 0, 0}, M[NS * NS], q[NS];
                step_problem(h, theta, y0, M, q);
                nsdae_mlcp p = {NS, M, q, kind, NULL, NULL};
                double zref[NS] = {y0[0], y0[1], 0, 0, 0, 0, 0, 0};
                nsdae_minnorm_spec spec = {zref, sel, 2, NULL, 1};
                double z[NS], w[NS], ze[NS], we[NS];
                nsdae_minnorm_result res;
                nsdae_error e = {0};
                nsdae_status st = nsdae_lcp_minnorm(&p, &spec, z, w, &res, &e);
                cr_assert_eq(st, NSDAE_OK, "h=%g theta=%g state %zu: %s", h, theta, is, e.message);
                cr_expect_eq(res.nsol, 1, "h=%g theta=%g state %zu: %ld solutions", h, theta, is, res.nsol);
                st = nsdae_lcp_solve_siconos(&p, "enum", ze, we, &e);
                cr_assert_eq(st, NSDAE_OK, "h=%g state %zu: siconos enum: %s", h, is, e.message);
                cr_expect_leq(block_diff(z, ze), 1e-9, "h=%g theta=%g state %zu: minnorm vs siconos enum %.3g", h,
                              theta, is, block_diff(z, ze));
                nsdae_lcp_solution_set *set = NULL;
                st = nsdae_lcp_enumerate(&p, &set, &e);
                cr_assert_eq(st, NSDAE_OK, "h=%g state %zu: enumerate: %s", h, is, e.message);
                cr_expect_eq(set->count, 1, "h=%g theta=%g state %zu: enumerate finds %d", h, theta, is, set->count);
                if (set->count >= 1)
                    cr_expect_leq(block_diff(z, set->pieces[0].z), 1e-9,
                                  "h=%g theta=%g state %zu: minnorm vs enumerate %.3g", h, theta, is,
                                  block_diff(z, set->pieces[0].z));
                nsdae_lcp_solution_set_free(set);
                checked++;
            }
    cr_assert_eq(checked, 7 * 8 * 2);
}

/* One step dumped from a failing run of the stepper (hex floats, exact): it returned NO_SOLUTION
 * or an answer violating the MLCP by 1e-4, depending on memory alignment. */
Test(scaling, dumped_diode_step)
{
    static const double M[NS * NS] = {
        -0x1.4f8b588e368f1p-18, 0x1.0c6f7a0b5ed8dp-20, 0x0p+0, 0x0p+0,
        -0x1p+0, 0x1p+0, 0x0p+0, 0x0p+0,
        0x1.47ae147ae147bp-7, 0x1.4f8b588e368f1p-18, 0x0p+0, 0x0p+0,
        0x0p+0, 0x0p+0, 0x0p+0, 0x0p+0,
        0x0p+0, 0x0p+0, -0x1.5798ee2308c3ap-28, 0x1.5798ee2308c3ap-28,
        0x1p+0, 0x0p+0, 0x1p+0, 0x0p+0,
        0x0p+0, 0x0p+0, 0x1.5798ee2308c3ap-28, -0x1.5798ee2308c3ap-28,
        0x0p+0, -0x1p+0, 0x0p+0, -0x1p+0,
        -0x0p+0, 0x1.4f8b588e368f1p-18, 0x1.4f8b588e368f1p-18, -0x0p+0,
        0x0p+0, 0x0p+0, 0x0p+0, 0x0p+0,
        -0x0p+0, -0x1.4f8b588e368f1p-18, -0x0p+0, -0x1.4f8b588e368f1p-18,
        0x0p+0, 0x0p+0, 0x0p+0, 0x0p+0,
        -0x0p+0, -0x0p+0, 0x1.4f8b588e368f1p-18, -0x0p+0,
        0x0p+0, 0x0p+0, 0x0p+0, 0x0p+0,
        -0x0p+0, -0x0p+0, -0x0p+0, -0x1.4f8b588e368f1p-18,
        0x0p+0, 0x0p+0, 0x0p+0, 0x0p+0,
    };
    static const double q[NS] = {
        -0x1.991f7af05078ep-13, -0x1.40c3c4310efcdp-17, -0x0p+0, -0x0p+0,
        0x0p+0, 0x0p+0, 0x0p+0, 0x0p+0,
    };
    static const nsdae_row_kind kind[NS] = {0, 0, 0, 0, 1, 1, 1, 1};
    const int sel[2] = {0, 1};
    double zref[NS] = {9.559533369445008, 0.019508503420167769, 9.5595333694450098, -3.1790388267704388e-17};
    nsdae_mlcp p = {NS, M, q, kind, NULL, NULL};
    nsdae_minnorm_spec spec = {zref, sel, 2, NULL, 1};
    double z[NS], w[NS], ze[NS], we[NS];
    nsdae_minnorm_result res;
    nsdae_error e = {0};
    cr_assert_eq(nsdae_lcp_minnorm(&p, &spec, z, w, &res, &e), NSDAE_OK, "%s", e.message);
    cr_expect_eq(res.nsol, 1);
    cr_assert_eq(nsdae_lcp_solve_siconos(&p, "enum", ze, we, &e), NSDAE_OK, "%s", e.message);
    cr_expect_leq(block_diff(z, ze), 1e-9, "minnorm vs siconos enum %.3g", block_diff(z, ze));
}

/* The same step problems through the branch and bound alone (equilibrated as the public entry
 * does): the general path must cope with them too, for circuits with more than 4 diodes. */
Test(scaling, diode_bridge_steps_branch_and_bound)
{
    static const double hs[] = {1e-5, 1e-6, 1e-7, 3.125e-8, 1e-8};
    static const double states[][2] = {{10, 0}, {-0.027932267481917347, -0.054731168485684184},
                                       {0.0035852935654945299, 0.049399789032859992}, {-5, 0.1}};
    static const nsdae_row_kind kind[NS] = {0, 0, 0, 0, 1, 1, 1, 1};
    const int sel[2] = {0, 1};
    for (size_t ih = 0; ih < sizeof hs / sizeof *hs; ih++)
        for (size_t is = 0; is < sizeof states / sizeof *states; is++)
            for (int th = 0; th < 2; th++) {
                double theta = th ? 0.5 : 1.0, h = hs[ih];
                double y0[NY] = {states[is][0], states[is][1], 0, 0}, M[NS * NS], q[NS];
                step_problem(h, theta, y0, M, q);
                nsdae_mlcp p = {NS, M, q, kind, NULL, NULL};
                double zref[NS] = {y0[0], y0[1], 0, 0, 0, 0, 0, 0};
                nsdae_minnorm_spec spec = {zref, sel, 2, NULL, 1}, sspec;
                double dr[NS], dc[NS], Ms[NS * NS], qs[NS], zr[NS], Qs[NS * NS], fscale;
                int ss[NS];
                lcp_scale_factors(NS, M, dr, dc);
                lcp_scale_matrix(NS, M, dr, dc, Ms);
                double alpha = lcp_scale_rhs(&p, dr, dc, qs, NULL, NULL);
                nsdae_error e = {0};
                cr_assert_eq(lcp_scale_spec(NS, dc, alpha, &spec, zr, ss, Qs, &sspec, &fscale, &e), NSDAE_OK);
                nsdae_mlcp ps = {NS, Ms, qs, kind, NULL, NULL};
                double zs[NS], ws[NS], z[NS], zf[NS], wf[NS];
                nsdae_minnorm_result res;
                lcp_structure cache = {0};
                nsdae_status st = lcp_minnorm_bnb(&ps, NULL, &sspec, &cache, NULL, zs, ws, &res, NULL, &e);
                lcp_structure_free(&cache);
                cr_assert_eq(st, NSDAE_OK, "h=%g theta=%g state %zu: %s", h, theta, is, e.message);
                cr_expect_eq(res.nsol, 1, "h=%g theta=%g state %zu: %ld solutions", h, theta, is, res.nsol);
                lcp_scale_z_to_caller(NS, dc, alpha, zs, z);
                cr_assert_eq(nsdae_lcp_minnorm(&p, &spec, zf, wf, NULL, &e), NSDAE_OK, "%s", e.message);
                cr_expect_leq(block_diff(z, zf), 1e-9, "h=%g theta=%g state %zu: branch and bound vs fast path %.3g",
                              h, theta, is, block_diff(z, zf));
            }
}
