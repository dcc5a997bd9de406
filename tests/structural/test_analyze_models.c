/* Per-mode analysis from .nsm models (tests/structural/models, examples): the papers' oracles through the
 * whole path parser -> IR -> modes -> signature matrix -> Sigma-method -> numeric check with symbolic
 * derivatives. Expected numbers come from Benveniste et al. 2017 (clutch) and 2013 (pendulum, circuits)
 * with Pryce's offsets, Benveniste et al. 2026 (7) (cup-and-ball) and Rocca et al. (index 2). */
#include "model_helpers.h"

#include <dirent.h>
#include <math.h>

#define M(name) "tests/structural/models/" name

Test(models, pendulum_o10)
{
    analysed a = analyse_mode(M("pendulum.nsm"), "-");
    const nsdae_structural_result *r = a.r;
    cr_assert_eq(r->verdict, NSDAE_STRUCTURAL_OK);
    cr_assert_eq(r->index, 3);
    cr_assert_eq(r->dof, 2);
    const char *lat[] = {"x^2 + y^2 - L^2 = 0"};
    const int times[] = {2};
    assert_latent(r, lat, times, 1);
    cr_assert_eq(r->d[var_named(r, "x")], 2);
    cr_assert_eq(r->d[var_named(r, "y")], 2);
    cr_assert_eq(r->d[var_named(r, "lambda")], 0);
    cr_assert_eq(r->c[eq_named(r, "der(der(x)) + lambda*x = 0")], 0);
    cr_assert_eq(a.md->numeric_status, NSDAE_OK, "%s", a.md->numeric_message);
    cr_assert_eq(r->numeric.rank, 3);
    cr_assert_eq(r->numeric.singular, 0);
    release(&a);
}

/* Near x = 0 the structural selection (states y, der(y)) is numerically singular; the selection
 * at the start values keeps x, der(x) (Benveniste et al. 2013, (13): valid when y != 0). */
Test(models, pendulum_x0_state_selection)
{
    analysed a = analyse_mode(M("pendulum_x0.nsm"), "-");
    const nsdae_structural_result *r = a.r;
    cr_assert_eq(r->verdict, NSDAE_STRUCTURAL_OK);
    cr_assert_eq(r->numeric.singular, 0);
    cr_assert_eq(r->numeric.static_singular, 1);
    cr_assert_eq(r->numeric.selection_singular, 0);
    int x = var_named(r, "x");
    cr_assert(in_list(r->selected, r->nselected, x, 0) && in_list(r->selected, r->nselected, x, 1));
    release(&a);
}

Test(models, clutch_engaged_o2_o3)
{
    analysed a = analyse_mode(M("clutch.nsm"), "0");
    const nsdae_structural_result *r = a.r;
    cr_assert_eq(r->verdict, NSDAE_STRUCTURAL_OK);
    const char *lat[] = {"w1 - w2 = 0"};
    const int times[] = {1};
    assert_latent(r, lat, times, 1);
    cr_assert_eq(r->nblocks, 1);
    cr_assert_eq(r->blocks[0].n, 4);
    cr_assert_eq(r->dof, 1);
    cr_assert_eq(r->nstates, 2);
    release(&a);
}

Test(models, clutch_released_o1)
{
    analysed a = analyse_mode(M("clutch.nsm"), "1");
    const nsdae_structural_result *r = a.r;
    cr_assert_eq(r->verdict, NSDAE_STRUCTURAL_OK);
    cr_assert_eq(r->max_c, 0);
    cr_assert_eq(r->dof, 2);
    cr_assert_eq(r->nblocks, 4);
    const char *beq[] = {"t1 = 0", "t2 = 0", "der(w1) = a1*w1 + b1*t1", "der(w2) = a2*w2 + b2*t2"};
    const char *bvar[] = {"t1", "t2", "w1", "w2"};
    for (int b = 0; b < 4; b++) {
        cr_assert_eq(r->blocks[b].n, 1);
        cr_assert_str_eq(r->eq_names[r->blocks[b].eqs[0]], beq[b]);
        cr_assert_str_eq(r->var_names[r->blocks[b].vars[0]], bvar[b]);
    }
    release(&a);
}

/* RLDC: code k1.k2 with k = 0 blocking (i_k = 0, U_k), 1 conducting (u_k = 0, I_k). */
static void rldc_no_differentiation(const char *code)
{
    analysed a = analyse_mode(M("rldc.nsm"), code);
    const nsdae_structural_result *r = a.r;
    cr_assert_eq(r->verdict, NSDAE_STRUCTURAL_OK);
    cr_assert_eq(r->neq, 12);
    cr_assert_eq(r->nvar, 12);
    cr_assert_eq(r->max_c, 0);
    cr_assert_eq(r->nselected, 4);
    const char *st[] = {"j1", "j2", "v1", "v2"};
    for (int k = 0; k < 4; k++) cr_assert(in_list(r->selected, 4, var_named(r, st[k]), 0), "%s", st[k]);
    release(&a);
}

Test(models, rldc_u1_i2_o14) { rldc_no_differentiation("0.1"); }
Test(models, rldc_i1_u2_o14) { rldc_no_differentiation("1.0"); }

Test(models, rldc_i1_i2_o15)
{
    analysed a = analyse_mode(M("rldc.nsm"), "1.1");
    const nsdae_structural_result *r = a.r;
    cr_assert_eq(r->verdict, NSDAE_STRUCTURAL_OK);
    const char *lat[] = {"u1 + v1 = u2 + v2", "-u1 = 0", "-u2 = 0"};
    const int times[] = {1, 1, 1};
    assert_latent(r, lat, times, 3);
    cr_assert_eq(r->nselected, 3);
    int j1 = var_named(r, "j1"), j2 = var_named(r, "j2"), v1 = var_named(r, "v1"), v2 = var_named(r, "v2");
    cr_assert(in_list(r->selected, 3, j1, 0) && in_list(r->selected, 3, j2, 0));
    cr_assert(in_list(r->selected, 3, v1, 0) != in_list(r->selected, 3, v2, 0));
    release(&a);
}

Test(models, rldc_u1_u2_o16)
{
    analysed a = analyse_mode(M("rldc.nsm"), "0.0");
    const nsdae_structural_result *r = a.r;
    cr_assert_eq(r->verdict, NSDAE_STRUCTURAL_OK);
    const char *lat[] = {"0 = j1 + j2 + i1 + i2", "i1 = 0", "i2 = 0"};
    const int times[] = {1, 1, 1};
    assert_latent(r, lat, times, 3);
    cr_assert_eq(r->nselected, 3);
    int j1 = var_named(r, "j1"), j2 = var_named(r, "j2"), v1 = var_named(r, "v1"), v2 = var_named(r, "v2");
    cr_assert(in_list(r->selected, 3, v1, 0) && in_list(r->selected, 3, v2, 0));
    cr_assert(in_list(r->selected, 3, j1, 0) != in_list(r->selected, 3, j2, 0));
    release(&a);
}

Test(models, diode_open_o12)
{
    analysed a = analyse_mode(M("diode_open.nsm"), "0"); /* i = 0: blocking */
    cr_assert_eq(a.r->verdict, NSDAE_STRUCTURAL_UNDERDETERMINED);
    cr_assert_eq(a.r->n_free, 1);
    cr_assert_str_eq(a.r->var_names[a.r->free_var[0]], "u", "mode u < 0 leaves u undetermined");
    cr_assert_eq(a.r->max_c, 0);
    release(&a);
    a = analyse_mode(M("diode_open.nsm"), "1"); /* u = 0: conducting */
    cr_assert_eq(a.r->verdict, NSDAE_STRUCTURAL_UNDERDETERMINED);
    cr_assert_eq(a.r->var_part[var_named(a.r, "u")], NSDAE_DM_WELL);
    cr_assert_eq(a.r->max_c, 0);
    release(&a);
}

Test(models, diode_closed_index_one)
{
    for (int k = 0; k < 2; k++) {
        analysed a = analyse_mode(M("diode_closed.nsm"), k ? "1" : "0");
        cr_assert_eq(a.r->verdict, NSDAE_STRUCTURAL_OK);
        cr_assert_eq(a.r->max_c, 0);
        cr_assert_eq(a.r->index, 1);
        cr_assert_eq(a.r->nselected, 1);
        cr_assert(in_list(a.r->selected, 1, var_named(a.r, "v"), 0));
        release(&a);
    }
}

Test(models, o19)
{
    analysed a = analyse_mode(M("o19.nsm"), "-");
    const nsdae_structural_result *r = a.r;
    cr_assert_eq(r->index, 1);
    cr_assert_eq(r->c[0], 0);
    cr_assert_eq(r->c[1], 1);
    cr_assert_eq(r->d[0], 1);
    cr_assert_eq(r->d[1], 1);
    /* J = [[1, 1], [1, -1]]: singular values sqrt(2), sqrt(2) */
    cr_assert_eq(r->numeric.rank, 2);
    cr_assert_float_eq(r->numeric.smax, sqrt(2.0), 1e-12);
    cr_assert_float_eq(r->numeric.cond, 1.0, 1e-12);
    release(&a);
}

/* Rocca et al. (examples/rocca_crossing.nsm): "index-2 hybrid DAE": both branches and the relaxed
 * sliding mode x1 = 0 have structural index 2, one constraint differentiated once, 1 dof. */
Test(models, seed003_both_branches_and_sliding)
{
    const char *codes[] = {"0", "1", "2"};
    const char *constraint[] = {"0 = 1 + x1 - x2", "0 = -1 - x1 - x2", "x1 = 0 (switching surface, line 15)"};
    for (int k = 0; k < 3; k++) {
        analysed a = analyse_mode("examples/rocca_crossing.nsm", codes[k]);
        const nsdae_structural_result *r = a.r;
        cr_assert_eq(r->verdict, NSDAE_STRUCTURAL_OK, "mode %s", codes[k]);
        cr_assert_eq(r->index, 2, "mode %s", codes[k]);
        cr_assert_eq(r->dof, 1);
        const int times[] = {1};
        assert_latent(r, &constraint[k], times, 1);
        cr_assert_eq(a.md->nrelax, k == 2 ? 1 : 0);
        cr_assert_eq(r->numeric.singular, 0);
        release(&a);
    }
}

/* Cup-and-ball (Benveniste et al. 2026 (7)): mode T: c_k1 = 2, d_x = d_y = 2, d_lambda = 0, Val 2,
 * states x, y, x', y', 2 dof; mode F: all c = 0, d_x = d_y = 2, d_lambda = 0. */
Test(models, cup_and_ball_two_modes)
{
    analysed a = analyse_mode(M("cup_and_ball.nsm"), "0");
    const nsdae_structural_result *r = a.r;
    cr_assert_eq(r->verdict, NSDAE_STRUCTURAL_OK);
    const char *lat[] = {"L^2 - (x^2 + y^2) = 0"};
    const int times[] = {2};
    assert_latent(r, lat, times, 1);
    int x = var_named(r, "x"), y = var_named(r, "y"), l = var_named(r, "lambda");
    cr_assert_eq(r->d[x], 2); cr_assert_eq(r->d[y], 2); cr_assert_eq(r->d[l], 0);
    cr_assert_eq(r->value, 2);
    cr_assert_eq(r->dof, 2);
    cr_assert_eq(r->nstates, 4);
    cr_assert(in_list(r->states, 4, x, 0) && in_list(r->states, 4, x, 1));
    cr_assert(in_list(r->states, 4, y, 0) && in_list(r->states, 4, y, 1));
    release(&a);
    a = analyse_mode(M("cup_and_ball.nsm"), "1");
    r = a.r;
    cr_assert_eq(r->verdict, NSDAE_STRUCTURAL_OK);
    cr_assert_eq(r->max_c, 0);
    x = var_named(r, "x"); y = var_named(r, "y"); l = var_named(r, "lambda");
    cr_assert_eq(r->d[x], 2); cr_assert_eq(r->d[y], 2); cr_assert_eq(r->d[l], 0);
    cr_assert_eq(r->dof, 4);
    release(&a);
}

Test(models, structurally_singular_mode)
{
    analysed a = analyse_mode(M("singular_mode.nsm"), "0");
    cr_assert_eq(a.r->verdict, NSDAE_STRUCTURAL_OK);
    release(&a);
    a = analyse_mode(M("singular_mode.nsm"), "1");
    const nsdae_structural_result *r = a.r;
    cr_assert_eq(r->verdict, NSDAE_STRUCTURAL_SINGULAR);
    cr_assert_eq(r->eq_part[eq_named(r, "y = x")], NSDAE_DM_OVER);
    cr_assert_eq(r->eq_part[eq_named(r, "y = 2*x")], NSDAE_DM_OVER);
    cr_assert_eq(r->var_part[var_named(r, "y")], NSDAE_DM_OVER);
    cr_assert_eq(r->var_part[var_named(r, "z")], NSDAE_DM_UNDER);
    release(&a);
}

Test(models, unequal_branches_refused)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", NSDAE_SOURCE_DIR, M("unequal_branches.nsm"));
    nsdae_model *m = NULL;
    nsdae_error err = {0};
    cr_assert_neq(nsdae_model_parse_file(path, &m, &err), NSDAE_OK);
    cr_assert(strstr(err.message, "same number of equations") != NULL, "%s", err.message);
    cr_assert(strstr(err.message, ":9:") != NULL, "%s", err.message);
}

/* Mode enumeration: counts and codes (the RLDC has 2 x 2 modes, Rocca et al.'s example has 3). */
Test(models, enumeration)
{
    analysed a = analyse_mode(M("rldc.nsm"), "0.0");
    cr_assert_eq(a.nsw, 2);
    cr_assert_float_eq(nsdae_mode_count(a.sw), 4.0, 0.0);
    int choice[8]; /* one per switch (transient ones too) */
    nsdae_mode_first(a.sw, choice);
    int n = 1;
    while (nsdae_mode_next(a.sw, choice)) n++;
    cr_assert_eq(n, 4);
    char buf[16];
    choice[0] = 1; choice[1] = 0;
    nsdae_mode_format(a.sw, choice, buf, sizeof buf);
    cr_assert_str_eq(buf, "1.0");
    nsdae_error err = {0};
    cr_assert_eq(nsdae_mode_parse(a.sw, "1.2", choice, &err), NSDAE_INVALID_INPUT);
    cr_assert_eq(nsdae_mode_parse(a.sw, "1", choice, &err), NSDAE_INVALID_INPUT);
    release(&a);
}

/* Every example in examples/ is analysed in every mode without error. */
Test(models, every_example_analyses)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/examples", NSDAE_SOURCE_DIR);
    DIR *d = opendir(dir);
    cr_assert_not_null(d);
    struct dirent *e;
    int files = 0;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".nsm") != 0) continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        nsdae_model *m = NULL;
        nsdae_switches *sw = NULL;
        nsdae_error err = {0};
        cr_assert_eq(nsdae_model_parse_file(path, &m, &err), NSDAE_OK, "%s", err.message);
        cr_assert_eq(nsdae_mode_switches(m, &sw, &err), NSDAE_OK, "%s", err.message);
        if (nsdae_mode_count(sw) <= 4096) {
            int *choice = calloc((size_t)sw->n + 1, sizeof *choice);
            nsdae_mode_first(sw, choice);
            do {
                nsdae_structural_mode *md = NULL;
                cr_assert_eq(nsdae_structural_mode_analyze(m, sw, choice, &md, &err), NSDAE_OK, "%s: %s",
                             e->d_name, err.message);
                nsdae_structural_mode_destroy(md);
            } while (nsdae_mode_next(sw, choice));
            free(choice);
        }
        nsdae_mode_switches_destroy(sw);
        nsdae_model_destroy(m);
        files++;
    }
    closedir(d);
    cr_assert_gt(files, 0);
}

/* Relay + nested exogenous ifs + a when block: 3 x (2 + 1) = 9 modes, each with 4 equations (the
 * when equation belongs to no mode). In mode 0.1.0 the sliding relay x - y = 0 and the branch
 * equation y = x are the same constraint: structurally fine, numerically singular. */
Test(models, nested_switches_relay_and_when)
{
    analysed a = analyse_mode(M("nested_switches.nsm"), "0.1.0");
    cr_assert_eq(a.nsw, 3);
    cr_assert_float_eq(nsdae_mode_count(a.sw), 9.0, 0.0);
    int choice[8], n = 0; /* one per switch: the `when` too */
    nsdae_mode_first(a.sw, choice);
    do {
        nsdae_structural_mode *md = NULL;
        nsdae_error err = {0};
        cr_assert_eq(nsdae_structural_mode_analyze(a.m, a.sw, choice, &md, &err), NSDAE_OK, "%s", err.message);
        cr_assert_eq(md->neq, 4);
        nsdae_structural_mode_destroy(md);
        n++;
    } while (nsdae_mode_next(a.sw, choice));
    cr_assert_eq(n, 9);
    cr_assert_eq(a.r->verdict, NSDAE_STRUCTURAL_OK);
    cr_assert_eq(a.r->numeric.singular, 1);
    cr_assert_eq(a.r->numeric.rank, 3);
    /* a nested switch's choice is ignored when its branch is not chosen: 0.1.1 is 0.1.0 */
    int c2[8];
    nsdae_error err = {0};
    cr_assert_eq(nsdae_mode_parse(a.sw, "0.1.1", c2, &err), NSDAE_OK);
    cr_assert_eq(c2[2], 0);
    release(&a);
}
