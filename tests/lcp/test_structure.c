/* The classification of a matrix's solution set (structure.c) on 2 x 2 LCPs whose symmetric part
 * S = (M + M')/2 has eigenvalues known by hand, on both of its routes: the Cholesky of S - mu I
 * (mu = 2e-11 ||S||_inf) and the diagonal test decide the clear cases, the eigendecomposition the
 * rest, with the thresholds of structure.c's header: unique when the smallest eigenvalue is above
 * NSDAE_TOL_PD_PIVOT^2 = 1e-12 times the largest, the rows of L those of eigenvalues above
 * NSDAE_TOL_RANK = 1e-11 times the largest, and L'L = S on them. */
#include <criterion/criterion.h>
#include <math.h>
#include <nsdae/lcp.h>

#include "internal.h"

typedef struct verdict {
    int kind, nL;
    double LtL[4];   /* L'L, column-major */
} verdict;

static verdict classify(double m11, double m12, double m21, double m22)
{
    double M[4] = {m11, m21, m12, m22}, q[2] = {-1, -1};
    nsdae_mlcp p = {2, M, q, NULL, NULL, NULL};
    lcp_arena ar = {0};
    lcp_std s;
    lcp_reduced r;
    lcp_structure c = {0};
    nsdae_error err = {0};
    cr_assert_eq(lcp_std_build(&p, &ar, &s, &err), NSDAE_OK);
    cr_assert_eq(lcp_reduce(&s, &ar, &r, &err), NSDAE_OK);
    cr_assert(r.vunit);
    cr_assert_eq(lcp_structure_get(&c, &p, NULL, &s, &r, &err), NSDAE_OK, "%s", err.message);
    verdict v = {c.kind, c.nL, {0}};
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            for (int a = 0; a < c.nL; a++)
                v.LtL[i + 2 * j] += c.L[a * 2 + i] * c.L[a * 2 + j];
    lcp_structure_free(&c);
    lcp_arena_free(&ar);
    return v;
}

static void assert_LtL(const verdict *v, double s11, double s12, double s22)
{
    double want[4] = {s11, s12, s12, s22};
    for (int i = 0; i < 4; i++)
        cr_assert(fabs(v->LtL[i] - want[i]) <= 1e-14, "L'L[%d] = %.17g, want %.17g", i, v->LtL[i], want[i]);
}

Test(structure, positive_definite_symmetric_part_is_unique_with_full_L)
{
    /* S = diag(2, 2) (the skew part +-1 drops out) */
    verdict v = classify(2, 1, -1, 2);
    cr_assert_eq(v.kind, LCP_STRUCT_UNIQUE);
    cr_assert_eq(v.nL, 2);
    assert_LtL(&v, 2, 0, 2);
    /* S = [4 1; 1 3]: eigenvalues (7 +- sqrt 5)/2 = 2.38, 4.62 */
    v = classify(4, 3, -1, 3);
    cr_assert_eq(v.kind, LCP_STRUCT_UNIQUE);
    cr_assert_eq(v.nL, 2);
    assert_LtL(&v, 4, 1, 3);
}

Test(structure, indefinite_symmetric_part_is_nonconvex)
{
    /* a negative diagonal entry: eigenvalues 1, -1 */
    cr_assert_eq(classify(1, 0, 0, -1).kind, LCP_STRUCT_NONCONVEX);
    /* positive diagonal, eigenvalues 3 and -1 */
    cr_assert_eq(classify(1, 2, 2, 1).kind, LCP_STRUCT_NONCONVEX);
}

Test(structure, semidefinite_symmetric_part_is_monotone_with_its_range)
{
    /* S = [1 1; 1 1]: eigenvalues 2 and 0, range (1, 1) */
    verdict v = classify(1, 1, 1, 1);
    cr_assert_eq(v.kind, LCP_STRUCT_MONOTONE);
    cr_assert_eq(v.nL, 1);
    assert_LtL(&v, 1, 1, 1);
}

Test(structure, thresholds_agree_across_both_routes)
{
    /* eigenvalues 1 and 3e-11: above the rank cut 1e-11 (and above mu = 2e-11, so the Cholesky
     * route decides): unique, both rows kept */
    verdict v = classify(1, 0, 0, 3e-11);
    cr_assert_eq(v.kind, LCP_STRUCT_UNIQUE);
    cr_assert_eq(v.nL, 2);
    assert_LtL(&v, 1, 0, 3e-11);
    /* 5e-12: below mu (the eigendecomposition decides), above 1e-12: unique; below the rank
     * cut: its row is dropped from L */
    v = classify(1, 0, 0, 5e-12);
    cr_assert_eq(v.kind, LCP_STRUCT_UNIQUE);
    cr_assert_eq(v.nL, 1);
    assert_LtL(&v, 1, 0, 0);
    /* 1e-13: below 1e-12: monotone, not unique */
    v = classify(1, 0, 0, 1e-13);
    cr_assert_eq(v.kind, LCP_STRUCT_MONOTONE);
    cr_assert_eq(v.nL, 1);
}
