/* Structural diagnostics: singular, over- and underdetermined parts naming equations and unknowns
 * (Benveniste et al. 2017, section 3.1 and Algorithm 5), and input validation. */
#include "sigma_helpers.h"

/* Benveniste et al. 2017, section 3.1: F = {f1(x1) = 0, f2(x1) = 0}: B_o = {f1, f2}, one equation in
 * excess */
Test(diagnostics, overdetermined_o18)
{
    const char *eqs[] = {"f1", "f2"}, *vars[] = {"x1"};
    const int t[] = {0, 0};
    nsdae_sigma *s = make_sigma(2, 1, eqs, vars, t);
    nsdae_structural_result *r = analyze(s);
    cr_assert_eq(r->verdict, NSDAE_STRUCTURAL_OVERDETERMINED);
    cr_assert_eq(r->eq_part[0], NSDAE_DM_OVER);
    cr_assert_eq(r->eq_part[1], NSDAE_DM_OVER);
    cr_assert_eq(r->var_part[0], NSDAE_DM_OVER);
    cr_assert_eq(r->n_excess, 1, "one block plus one overdetermined equation");
    cr_assert_eq(r->n_well, 0);
    nsdae_structural_result_destroy(r);
    nsdae_sigma_destroy(s);
}

/* A square system with no transversal: f1(x), f2(x), f3(x, y, z). The overdetermined part is
 * {f1, f2; x}, the underdetermined part {f3; y, z}. */
Test(diagnostics, structurally_singular)
{
    const char *eqs[] = {"f1", "f2", "f3"}, *vars[] = {"x", "y", "z"};
    const int t[] = {0, N_, N_, 1, N_, N_, 0, 0, 1};
    nsdae_sigma *s = make_sigma(3, 3, eqs, vars, t);
    nsdae_structural_result *r = analyze(s);
    cr_assert_eq(r->verdict, NSDAE_STRUCTURAL_SINGULAR);
    cr_assert_str_eq(nsdae_structural_verdict_name(r->verdict), "singular");
    cr_assert_eq(r->eq_part[0], NSDAE_DM_OVER);
    cr_assert_eq(r->eq_part[1], NSDAE_DM_OVER);
    cr_assert_eq(r->var_part[0], NSDAE_DM_OVER);
    cr_assert_eq(r->eq_part[2], NSDAE_DM_UNDER);
    cr_assert_eq(r->var_part[1], NSDAE_DM_UNDER);
    cr_assert_eq(r->var_part[2], NSDAE_DM_UNDER);
    cr_assert_eq(r->n_excess, 1);
    cr_assert_eq(r->n_free, 1);
    nsdae_structural_result_destroy(r);
    nsdae_sigma_destroy(s);
}

/* The clutch's {e1, e2, e4} alone: 3 equations, 4 unknowns (Benveniste et al. 2017, section 2:
 * underdetermined). */
Test(diagnostics, clutch_without_e3_underdetermined)
{
    const char *eqs[] = {"e1", "e2", "e4"}, *vars[] = {"w1", "w2", "t1", "t2"};
    const int t[] = {1, N_, 0, N_, N_, 1, N_, 0, N_, N_, 0, 0};
    nsdae_sigma *s = make_sigma(3, 4, eqs, vars, t);
    nsdae_structural_result *r = analyze(s);
    cr_assert_eq(r->verdict, NSDAE_STRUCTURAL_UNDERDETERMINED);
    cr_assert_eq(r->n_free, 1);
    cr_assert_eq(r->n_under_eq, 3);
    cr_assert_eq(r->n_under_var, 4);
    nsdae_structural_result_destroy(r);
    nsdae_sigma_destroy(s);
}

Test(diagnostics, bad_input)
{
    nsdae_sigma *s = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_sigma_create(-1, 2, &s, &err), NSDAE_INVALID_INPUT);
    cr_assert_null(s);
    cr_assert_eq(nsdae_sigma_create(2, 2, &s, &err), NSDAE_OK);
    cr_assert_eq(nsdae_sigma_set(s, 2, 0, 1, &err), NSDAE_INVALID_INPUT);
    cr_assert_eq(nsdae_sigma_set(s, 0, 0, -3, &err), NSDAE_INVALID_INPUT);
    cr_assert(strstr(err.message, "-3") != NULL, "%s", err.message);
    cr_assert_eq(nsdae_sigma_set_name(s, 'q', 0, "a", &err), NSDAE_INVALID_INPUT);
    cr_assert_eq(nsdae_sigma_raise(s, 0, 1, 2, &err), NSDAE_OK);
    cr_assert_eq(nsdae_sigma_raise(s, 0, 1, 1, &err), NSDAE_OK);
    cr_assert_eq(nsdae_sigma_get(s, 0, 1), 2);
    cr_assert_eq(nsdae_sigma_get(s, 5, 1), NSDAE_SIGMA_NONE);
    nsdae_sigma_destroy(s);
}
