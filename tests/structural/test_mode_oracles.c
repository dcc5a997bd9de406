/* Per-mode oracles of the papers written as signature matrices by hand: the clutch (Benveniste et al.
 * 2017, section 2, Cases 1 and 2.1), the RLDC circuit (Benveniste et al. 2013, Figs. 8-11) and the simple
 * diode circuit (Benveniste et al. 2013, (53), (55)). */
#include "sigma_helpers.h"

/* ---- clutch: unknowns (w1, w2, t1, t2) ---- */
static const char *clutch_vars[] = {"w1", "w2", "t1", "t2"};

Test(clutch, released_mode_blocks_o1)
{
    const char *eqs[] = {"e1", "e2", "e5", "e6"};
    const int t[] = {
        1, N_, 0, N_,   /* e1: w1' = f1(w1, t1) */
        N_, 1, N_, 0,   /* e2: w2' = f2(w2, t2) */
        N_, N_, 0, N_,  /* e5: t1 = 0 */
        N_, N_, N_, 0,  /* e6: t2 = 0 */
    };
    nsdae_sigma *s = make_sigma(4, 4, eqs, clutch_vars, t);
    nsdae_structural_result *r = analyze(s);
    cr_assert_eq(r->verdict, NSDAE_STRUCTURAL_OK);
    /* linear clutch, derived by hand: c = 0, d = (1, 1, 0, 0), DOF 2; no latent equation */
    for (int i = 0; i < 4; i++) cr_assert_eq(r->c[i], 0);
    cr_assert_eq(r->d[0], 1); cr_assert_eq(r->d[1], 1); cr_assert_eq(r->d[2], 0); cr_assert_eq(r->d[3], 0);
    cr_assert_eq(r->dof, 2);
    cr_assert_eq(r->max_c, 0);
    cr_assert_eq(r->index, 1, "Pryce: nu_S = 1 (tau algebraic)");
    /* Case 1 of the clutch: four 1x1 blocks in the order e5 -> t1, e6 -> t2, e1 -> w1', e2 -> w2' */
    cr_assert_eq(r->nblocks, 4);
    const char *beq[] = {"e5", "e6", "e1", "e2"}, *bvar[] = {"t1", "t2", "w1", "w2"};
    for (int b = 0; b < 4; b++) {
        cr_assert_eq(r->blocks[b].n, 1);
        cr_assert_str_eq(r->eq_names[r->blocks[b].eqs[0]], beq[b]);
        cr_assert_str_eq(r->var_names[r->blocks[b].vars[0]], bvar[b]);
    }
    /* two independent ODEs: states w1, w2 */
    cr_assert_eq(r->nselected, 2);
    cr_assert(has_deriv(r->selected, 2, 0, 0) && has_deriv(r->selected, 2, 1, 0));
    nsdae_structural_result_destroy(r);
    nsdae_sigma_destroy(s);
}

Test(clutch, engaged_mode_o2_o3)
{
    const char *eqs[] = {"e1", "e2", "e3", "e4"};
    const int t[] = {
        1, N_, 0, N_,   /* e1 */
        N_, 1, N_, 0,   /* e2 */
        0, 0, N_, N_,   /* e3: w1 - w2 = 0 */
        N_, N_, 0, 0,   /* e4: t1 + t2 = 0 */
    };
    nsdae_sigma *s = make_sigma(4, 4, eqs, clutch_vars, t);
    nsdae_structural_result *r = analyze(s);
    cr_assert_eq(r->verdict, NSDAE_STRUCTURAL_OK);
    /* linear clutch, derived by hand: Val = 1 (= DOF), c = (0, 0, 1, 0), d = (1, 1, 0, 0), nu_S = 2 */
    const int c[] = {0, 0, 1, 0}, d[] = {1, 1, 0, 0};
    for (int k = 0; k < 4; k++) { cr_assert_eq(r->c[k], c[k]); cr_assert_eq(r->d[k], d[k]); }
    cr_assert_eq(r->value, 1);
    cr_assert_eq(r->dof, 1);
    cr_assert_eq(r->index, 2);
    cr_assert_eq(r->max_c, 1, "e3 is differentiated once (Case 2.1)");
    /* Case 2.1: one 4x4 block {e1, e2, e3', e4} */
    cr_assert_eq(r->nblocks, 1);
    cr_assert_eq(r->blocks[0].n, 4);
    /* initialization (Benveniste et al. 2017, section 2) has 5 equations {e1, e2, e3, e3', e4}
     * (sum of c_i + 1) and 6 unknowns {w1, w2, w1', w2', t1, t2} (sum of d_j + 1): DOF 1 */
    int neqs = 0, nunk = 0;
    for (int k = 0; k < 4; k++) { neqs += r->c[k] + 1; nunk += r->d[k] + 1; }
    cr_assert_eq(neqs, 5);
    cr_assert_eq(nunk, 6);
    cr_assert_eq(nunk - neqs, 1);
    /* states w1, w2, consistent iff e3 holds (Benveniste et al. 2017, section 2): candidates w1, w2, one
     * selected */
    cr_assert_eq(r->nstates, 2);
    cr_assert(has_deriv(r->states, 2, 0, 0) && has_deriv(r->states, 2, 1, 0));
    cr_assert_eq(r->nselected, 1);
    nsdae_structural_result_destroy(r);
    nsdae_sigma_destroy(s);
}

/* ---- RLDC circuit (Benveniste et al. 2013, section VII-D): 12 unknowns ----
 * K1..K4, R1, R2, L1, L2, C1, C2 in every mode. */
static const char *rldc_vars[] = {"j1", "j2", "i1", "i2", "x1", "x2", "w1", "w2", "u1", "u2", "v1", "v2"};
enum { J1, J2, I1, I2, X1, X2, W1, W2, U1, U2, V1, V2 };

/* mode: which diode equations: 'U' = blocking (i_k = 0), 'I' = conducting (u_k = 0). */
static nsdae_sigma *rldc(char d1, char d2)
{
    const char *eqs[12] = {"K1", "K2", "K3", "K4", "R1", "R2", "L1", "L2", "C1", "C2",
                           d1 == 'U' ? "D1" : "D2", d2 == 'U' ? "D4" : "D5"};
    int t[12 * 12];
    for (int k = 0; k < 144; k++) t[k] = N_;
#define E(row, var, ord) t[(row) * 12 + (var)] = (ord)
    E(0, J1, 0); E(0, J2, 0); E(0, I1, 0); E(0, I2, 0);         /* K1: 0 = j1 + j2 + i1 + i2 */
    E(1, X1, 0); E(1, W1, 0); E(1, U1, 0); E(1, V1, 0);         /* K2: x1 + w1 = u1 + v1 */
    E(2, U1, 0); E(2, V1, 0); E(2, U2, 0); E(2, V2, 0);         /* K3: u1 + v1 = u2 + v2 */
    E(3, U2, 0); E(3, V2, 0); E(3, X2, 0); E(3, W2, 0);         /* K4: u2 + v2 = x2 + w2 */
    E(4, X1, 0); E(4, J1, 0);                                   /* R1: x1 = R1 j1 */
    E(5, X2, 0); E(5, J2, 0);                                   /* R2 */
    E(6, W1, 0); E(6, J1, 1);                                   /* L1: w1 = L1 j1' */
    E(7, W2, 0); E(7, J2, 1);                                   /* L2 */
    E(8, I1, 0); E(8, V1, 1);                                   /* C1: i1 = C1 v1' */
    E(9, I2, 0); E(9, V2, 1);                                   /* C2 */
    E(10, d1 == 'U' ? I1 : U1, 0);                              /* D1^-: i1 = 0 or D2^-: u1 = 0 */
    E(11, d2 == 'U' ? I2 : U2, 0);                              /* D4^-: i2 = 0 or D5^-: u2 = 0 */
#undef E
    return make_sigma(12, 12, eqs, rldc_vars, t);
}

static void assert_no_differentiation(nsdae_structural_result *r)
{
    cr_assert_eq(r->verdict, NSDAE_STRUCTURAL_OK);
    for (int i = 0; i < 12; i++) cr_assert_eq(r->c[i], 0, "%s", r->eq_names[i]);
    /* states j1, j2, v1, v2 */
    cr_assert_eq(r->dof, 4);
    cr_assert_eq(r->nselected, 4);
    const int st[] = {J1, J2, V1, V2};
    for (int k = 0; k < 4; k++) cr_assert(has_deriv(r->selected, 4, st[k], 0), "%s", rldc_vars[st[k]]);
}

Test(rldc, u1_i2_o14)
{
    nsdae_sigma *s = rldc('U', 'I');
    nsdae_structural_result *r = analyze(s);
    assert_no_differentiation(r);
    nsdae_structural_result_destroy(r);
    nsdae_sigma_destroy(s);
}

Test(rldc, i1_u2_o14)
{
    nsdae_sigma *s = rldc('I', 'U');
    nsdae_structural_result *r = analyze(s);
    assert_no_differentiation(r);
    nsdae_structural_result_destroy(r);
    nsdae_sigma_destroy(s);
}

/* Benveniste et al. 2013, Figs. 9-10: I1 and I2: K3, D2^-, D5^- once; dummies for v1', u1', u2' (or v2' by
 * symmetry); states j1, j2, v2 */
Test(rldc, i1_i2_o15)
{
    nsdae_sigma *s = rldc('I', 'I');
    nsdae_structural_result *r = analyze(s);
    cr_assert_eq(r->verdict, NSDAE_STRUCTURAL_OK);
    for (int i = 0; i < 12; i++) {
        int once = !strcmp(r->eq_names[i], "K3") || !strcmp(r->eq_names[i], "D2") || !strcmp(r->eq_names[i], "D5");
        cr_assert_eq(r->c[i], once ? 1 : 0, "%s", r->eq_names[i]);
    }
    cr_assert_eq(r->dof, 3);
    cr_assert_eq(r->nselected, 3);
    cr_assert(has_deriv(r->selected, 3, J1, 0) && has_deriv(r->selected, 3, J2, 0));
    cr_assert(has_deriv(r->selected, 3, V1, 0) != has_deriv(r->selected, 3, V2, 0), "one of v1, v2 is a state");
    cr_assert(has_deriv(r->dummies, r->ndummies, U1, 0) && has_deriv(r->dummies, r->ndummies, U2, 0));
    nsdae_structural_result_destroy(r);
    nsdae_sigma_destroy(s);
}

/* Benveniste et al. 2013, Fig. 11: U1 and U2: K1, D1^-, D4^- once; dummies for j1', i1', i2' (or j2');
 * states j2, v1, v2 */
Test(rldc, u1_u2_o16)
{
    nsdae_sigma *s = rldc('U', 'U');
    nsdae_structural_result *r = analyze(s);
    cr_assert_eq(r->verdict, NSDAE_STRUCTURAL_OK);
    for (int i = 0; i < 12; i++) {
        int once = !strcmp(r->eq_names[i], "K1") || !strcmp(r->eq_names[i], "D1") || !strcmp(r->eq_names[i], "D4");
        cr_assert_eq(r->c[i], once ? 1 : 0, "%s", r->eq_names[i]);
    }
    cr_assert_eq(r->dof, 3);
    cr_assert(has_deriv(r->selected, 3, V1, 0) && has_deriv(r->selected, 3, V2, 0));
    cr_assert(has_deriv(r->selected, 3, J1, 0) != has_deriv(r->selected, 3, J2, 0), "one of j1, j2 is a state");
    cr_assert(has_deriv(r->dummies, r->ndummies, I1, 0) && has_deriv(r->dummies, r->ndummies, I2, 0));
    nsdae_structural_result_destroy(r);
    nsdae_sigma_destroy(s);
}

/* ---- simple diode-capacitor branch (Benveniste et al. 2013, section VII-C) ----
 * Unknowns i, u, v; an open subsystem. */
static const char *diode_vars[] = {"i", "u", "v"};

Test(diode, mode_u_negative_leaves_u_undetermined)
{
    const char *eqs[] = {"D1", "C"};
    const int t[] = {0, N_, N_,   /* D1: 0 = i */
                     0, N_, 1};   /* C: i = C v' */
    nsdae_sigma *s = make_sigma(2, 3, eqs, diode_vars, t);
    nsdae_structural_result *r = analyze(s);
    cr_assert_eq(r->verdict, NSDAE_STRUCTURAL_UNDERDETERMINED);
    cr_assert_eq(r->n_free, 1);
    cr_assert_str_eq(r->var_names[r->free_var[0]], "u");
    cr_assert_eq(r->var_part[1], NSDAE_DM_UNDER);
    cr_assert_eq(r->n_under_var, 1);
    cr_assert_eq(r->n_under_eq, 0);
    /* the determined part needs no differentiation; its state is v */
    cr_assert_eq(r->c[0], 0); cr_assert_eq(r->c[1], 0);
    cr_assert_eq(r->max_c, 0);
    cr_assert_eq(r->nselected, 1);
    cr_assert(has_deriv(r->selected, 1, 2, 0));
    nsdae_structural_result_destroy(r);
    nsdae_sigma_destroy(s);
}

Test(diode, mode_i_positive_open)
{
    const char *eqs[] = {"D2", "C"};
    const int t[] = {N_, 0, N_,   /* D2: 0 = u */
                     0, N_, 1};   /* C: i = C v' */
    nsdae_sigma *s = make_sigma(2, 3, eqs, diode_vars, t);
    nsdae_structural_result *r = analyze(s);
    /* i is fixed by the rest of the circuit: C, i, v form the underdetermined part */
    cr_assert_eq(r->verdict, NSDAE_STRUCTURAL_UNDERDETERMINED);
    cr_assert_eq(r->eq_part[1], NSDAE_DM_UNDER);
    cr_assert_eq(r->var_part[0], NSDAE_DM_UNDER);
    cr_assert_eq(r->var_part[2], NSDAE_DM_UNDER);
    cr_assert_eq(r->var_part[1], NSDAE_DM_WELL);
    cr_assert_eq(r->c[0], 0);
    cr_assert_eq(r->max_c, 0, "no differentiation");
    nsdae_structural_result_destroy(r);
    nsdae_sigma_destroy(s);
}

/* Closed by a source S: u + v + R i = E. Each mode is an ODE in v (no differentiation), and
 * Pryce's index nu_S = max c_i + (1 if some d_j = 0) is 1 once closed (i and u are algebraic). */
Test(diode, closed_modes)
{
    const char *vars[] = {"i", "u", "v"};
    const char *eqs_i[] = {"D2", "C", "S"}, *eqs_u[] = {"D1", "C", "S"};
    const int ti[] = {N_, 0, N_, 0, N_, 1, 0, 0, 0};
    const int tu[] = {0, N_, N_, 0, N_, 1, 0, 0, 0};
    for (int mode = 0; mode < 2; mode++) {
        nsdae_sigma *s = make_sigma(3, 3, mode ? eqs_u : eqs_i, vars, mode ? tu : ti);
        nsdae_structural_result *r = analyze(s);
        cr_assert_eq(r->verdict, NSDAE_STRUCTURAL_OK);
        cr_assert_eq(r->max_c, 0);
        cr_assert_eq(r->index, 1);
        cr_assert_eq(r->dof, 1);
        cr_assert(has_deriv(r->selected, r->nselected, 2, 0), "state v");
        nsdae_structural_result_destroy(r);
        nsdae_sigma_destroy(s);
    }
}
