/* Whether a small MLCP has a solution, with no rounding: every pattern (each row's law: w_i = 0
 * with z_i inside its bounds, or z_i at one of its ends with w_i of that end's sign) is a linear
 * feasibility problem, which GLPK's exact simplex (glp_exact: the double data converted to
 * rationals without error) decides. The layer's answers are judged by tolerances relative to each
 * row's terms (fuzz_lcp.c), so a point can pass every row of a problem that has no solution at
 * all: crash-be2f...'s w2 = -5e-17 on terms of 1e-7. Where the two calls disagree on existence,
 * this decides which one is wrong. Shares nothing with the layer but the library (lcp/lp_exact.c
 * also calls GLPK). Up to 3^6 = 729 small exact programs: used only where the calls disagree. */
#include "exact_existence.h"

#include <glpk.h>
#include <math.h>

#define MAX_SIZE 6
/* a row's laws (exact_existence.h): w_i = 0 with z_i between its ends, or z_i at an end */
enum { INSIDE = FUZZ_LAW_INSIDE, AT_LO = FUZZ_LAW_AT_LO, AT_HI = FUZZ_LAW_AT_HI };

static double entry(const nsdae_mlcp *p, int i, int j)
{
    return p->M[i + (size_t)j * p->size];
}

/* 1: the pattern has a point; 0: none; -1: GLPK did not decide */
static int pattern_feasible(const nsdae_mlcp *p, const int *law)
{
    int n = p->size, ind[MAX_SIZE + 1];
    double val[MAX_SIZE + 1];
    glp_prob *lp = glp_create_prob();
    glp_add_cols(lp, n);
    glp_add_rows(lp, n);
    for (int i = 0; i < n; i++) {
        nsdae_row_kind k = p->kind ? p->kind[i] : NSDAE_ROW_COMPLEMENTARITY;
        double lo = k == NSDAE_ROW_BOX ? p->lo[i] : k == NSDAE_ROW_EQUALITY ? -INFINITY : 0;
        double hi = k == NSDAE_ROW_BOX ? p->hi[i] : INFINITY, rhs = -p->q[i];
        int len = 0;
        for (int j = 0; j < n; j++)
            if (entry(p, i, j) != 0) ind[++len] = j + 1, val[len] = entry(p, i, j);
        glp_set_mat_row(lp, i + 1, len, ind, val);
        /* column i: z_i; row i: sum_j M_ij z_j, compared with -q_i */
        if (law[i] == AT_LO) {
            glp_set_col_bnds(lp, i + 1, GLP_FX, lo, lo);
            glp_set_row_bnds(lp, i + 1, GLP_LO, rhs, 0);
        } else if (law[i] == AT_HI) {
            glp_set_col_bnds(lp, i + 1, GLP_FX, hi, hi);
            glp_set_row_bnds(lp, i + 1, GLP_UP, 0, rhs);
        } else {
            int type = isfinite(lo) ? (isfinite(hi) ? GLP_DB : GLP_LO) : (isfinite(hi) ? GLP_UP : GLP_FR);
            glp_set_col_bnds(lp, i + 1, type, isfinite(lo) ? lo : 0, isfinite(hi) ? hi : 0);
            glp_set_row_bnds(lp, i + 1, GLP_FX, rhs, rhs);
        }
    }
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    glp_std_basis(lp);
    int ret = glp_exact(lp, &parm), st = glp_get_status(lp), out = -1;
    if (ret == 0 && (st == GLP_OPT || st == GLP_FEAS)) out = 1;
    else if (ret == 0 && st == GLP_NOFEAS) out = 0;
    glp_delete_prob(lp);
    return out;
}

int fuzz_pattern_feasible_exactly(const nsdae_mlcp *p, const int *law)
{
    if (p->size > MAX_SIZE)
        return -1;
    glp_term_out(GLP_OFF);
    return pattern_feasible(p, law);
}

/* patterns of rows i.. with the laws of rows before i fixed in law */
static int any_pattern(const nsdae_mlcp *p, int *law, int i)
{
    if (i == p->size) return pattern_feasible(p, law);
    nsdae_row_kind k = p->kind ? p->kind[i] : NSDAE_ROW_COMPLEMENTARITY;
    int undecided = 0;
    for (int l = INSIDE; l <= AT_HI; l++) {
        if (k == NSDAE_ROW_EQUALITY && l != INSIDE) continue;
        if (k == NSDAE_ROW_COMPLEMENTARITY && l == AT_HI) continue;
        if (k == NSDAE_ROW_BOX && ((l == AT_LO && !isfinite(p->lo[i])) || (l == AT_HI && !isfinite(p->hi[i])))) continue;
        law[i] = l;
        int r = any_pattern(p, law, i + 1);
        if (r == 1) return 1;
        undecided |= r < 0;
    }
    return undecided ? -1 : 0;
}

int fuzz_mlcp_has_solution_exactly(const nsdae_mlcp *p)
{
    int law[MAX_SIZE];
    if (p->size > MAX_SIZE) return -1;
    glp_term_out(GLP_OFF);
    return any_pattern(p, law, 0);
}
