/* max a't over { t : rows c < neq: a_c't + b_c = 0, rows c >= neq: a_c't + b_c >= 0 }, decided
 * in rational arithmetic: GLPK's glp_exact runs the simplex method without rounding on rationals
 * that GLPK takes for the doubles given. They are not the doubles themselves: measured here, a
 * bound of 3e-17 became 2.99999999996e-17 (1.2e-11 relative), 3e-9 one 5.6e-12 off, entries of
 * 1e-3 and above exact to the last bit (tests/lcp/test_lp_exact.c). So the verdict (optimal,
 * unbounded, empty) and the optimum are those of data within 1e-11 of the given, with no
 * tolerance of the simplex method on top: pivots on entries 1e-12 apart are taken as they are.
 *
 * Why: the dimension of a leaf's piece asks, row by row, whether an inequality can be strictly
 * satisfied on the piece (qp.c, lcp_poly_dimension). It asked a clamp QP, solved by a KKT Lemke
 * on the pattern's rank-deficient rows; on badly scaled patterns every Lemke route failed and the
 * whole minimal-norm call refused: 141 of the 391 inputs of stop 25's 30-minute fuzz_lcp run
 * (tests/fuzz/open/README.md). The question is a linear program, which this decides without the
 * pivot tolerances that failed.
 * Used only as the last route: glp_exact costs far more than a floating-point simplex. */
#include "internal.h"

#include <glpk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { LP_EXACT_TIME_MS = 2000 };   /* a bound, not a tuning: these LPs have at most 40 rows */
enum { LP_WARM_PIVOTS = 20 };       /* the warm start's pivots per row and column */

int lcp_lp_max_exact(int k, int neq, int nin, const double *rows, const double *b, const double *a, double *t,
                     double *value)
{
    int nr = neq + nin;
    for (int j = 0; j < k; j++)
        if (!isfinite(a[j]))
            return -1;
    for (int c = 0; c < nr; c++) {
        if (!isfinite(b[c]))
            return -1;
        for (int j = 0; j < k; j++)
            if (!isfinite(rows[(size_t)c * k + j]))
                return -1;
    }
    int *ind = malloc(sizeof(int) * ((size_t)k + 1));
    double *val = malloc(sizeof(double) * ((size_t)k + 1));
    if (!ind || !val) {
        free(ind);
        free(val);
        return -1;
    }
    glp_term_out(GLP_OFF);   /* the library never prints */
    glp_prob *lp = glp_create_prob();
    glp_set_obj_dir(lp, GLP_MAX);
    if (k > 0)
        glp_add_cols(lp, k);
    if (nr > 0)
        glp_add_rows(lp, nr);
    for (int j = 0; j < k; j++) {
        glp_set_col_bnds(lp, j + 1, GLP_FR, 0.0, 0.0);
        glp_set_obj_coef(lp, j + 1, a[j]);
    }
    for (int c = 0; c < nr; c++) {
        int len = 0;
        for (int j = 0; j < k; j++) {
            double e = rows[(size_t)c * k + j];
            if (e != 0.0) {
                ind[++len] = j + 1;
                val[len] = e;
            }
        }
        glp_set_mat_row(lp, c + 1, len, ind, val);
        glp_set_row_bnds(lp, c + 1, c < neq ? GLP_FX : GLP_LO, -b[c], -b[c]);
    }
    glp_smcp parm, warm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.tm_lim = LP_EXACT_TIME_MS;
    /* a floating-point simplex first: its final basis starts the exact one near the optimum. Only
     * a start, so bounded in pivots: on a fuzz input with entries 1e-8 and 1e-7 it cycled to its
     * time limit (2 s, six patterns of an enumeration: 12 s), where the exact simplex from the
     * standard basis took 0.1 ms (fuzzing, slow-unit-22da...) */
    warm = parm;
    warm.it_lim = LP_WARM_PIVOTS * (k + nr + 1);
    if (glp_simplex(lp, &warm) != 0 || glp_get_status(lp) == GLP_UNDEF)
        glp_std_basis(lp);
    int ret = glp_exact(lp, &parm), st = glp_get_status(lp), out = -1;
    if (ret == 0 && st == GLP_OPT) {
        *value = glp_get_obj_val(lp);
        for (int j = 0; j < k; j++)
            t[j] = glp_get_col_prim(lp, j + 1);
        out = 0;
    } else if (ret == 0 && st == GLP_UNBND) {
        out = 1;
    } else if (ret == 0 && st == GLP_NOFEAS) {
        out = 2;
    }
    glp_delete_prob(lp);
    free(ind);
    free(val);
    return out;
}

/* Row c of the LP: a't + b, a = sg times row i of M (or e_i when i < 0 is given as -1 - i). */
static void lp_row(const nsdae_mlcp *p, double *rows, double *b, int c, int i, double sg, double bc)
{
    int n = p->size;
    for (int j = 0; j < n; j++)
        rows[(size_t)c * n + j] = i >= 0 ? sg * p->M[i + (size_t)j * n] : sg * (j == -1 - i);
    b[c] = bc;
}

int lcp_pattern_feasible_exact(const nsdae_mlcp *p, const int *side, double *z)
{
    int n = p->size, neq = 0, nin = 0;
    size_t nn = (size_t)n;
    double *rows = malloc(sizeof(double) * (3 * nn * nn + 5 * nn + 1));
    if (!rows)
        return -1;
    double *b = rows + 3 * nn * nn, *a = b + 3 * nn, *t = a + nn, val;
    memset(a, 0, sizeof(double) * nn);
    for (int pass = 0; pass < 2; pass++)   /* equalities, then inequalities */
        for (int i = 0; i < n; i++) {
            nsdae_row_kind k = p->kind ? p->kind[i] : NSDAE_ROW_COMPLEMENTARITY;
            double lo = k == NSDAE_ROW_BOX ? p->lo[i] : 0, hi = k == NSDAE_ROW_BOX ? p->hi[i] : INFINITY;
            int c = neq + nin;
            if (side[i] == 0 || k == NSDAE_ROW_EQUALITY) {   /* w_i = 0, z_i within its ends */
                if (pass == 0) {
                    lp_row(p, rows, b, c, i, 1, p->q[i]);
                    neq++;
                } else if (k != NSDAE_ROW_EQUALITY) {
                    if (isfinite(lo))
                        lp_row(p, rows, b, neq + nin++, -1 - i, 1, -lo);
                    if (isfinite(hi))
                        lp_row(p, rows, b, neq + nin++, -1 - i, -1, hi);
                }
            } else {   /* z_i at its end, w_i of that end's sign */
                double end = side[i] < 0 ? lo : hi, sg = side[i] < 0 ? 1 : -1;
                if (pass == 0) {
                    lp_row(p, rows, b, c, -1 - i, 1, -end);
                    neq++;
                } else {
                    lp_row(p, rows, b, c, i, sg, sg * p->q[i]);
                    nin++;
                }
            }
        }
    int lp = lcp_lp_max_exact(n, neq, nin, rows, b, a, t, &val);
    if (lp == 0 && z)
        memcpy(z, t, sizeof(double) * nn);
    free(rows);
    return lp == 0 ? 1 : lp == 2 ? 0 : -1;
}

int lcp_equalities_feasible_exact(const nsdae_mlcp *p)
{
    int n = p->size, neq = 0;
    size_t nn = (size_t)n;
    double *rows = malloc(sizeof(double) * (nn * nn + 3 * nn + 1));
    if (!rows)
        return -1;
    double *b = rows + nn * nn, *a = b + nn, *t = a + nn, val;
    memset(a, 0, sizeof(double) * nn);
    for (int i = 0; i < n; i++)
        if (p->kind && p->kind[i] == NSDAE_ROW_EQUALITY)
            lp_row(p, rows, b, neq++, i, 1, p->q[i]);
    int lp = lcp_lp_max_exact(n, neq, 0, rows, b, a, t, &val);
    free(rows);
    return lp == 0 ? 1 : lp == 2 ? 0 : -1;
}
