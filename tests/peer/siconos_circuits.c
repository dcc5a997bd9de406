/* nsdae's theta-gamma method on the natural-form circuit models against Siconos' EulerMoreauOSI
 * on the same circuits written in Siconos' own form (validation/bench/siconos_peer/
 * siconos_circuit_peer.cpp), both run here: the numbers come from the Siconos kernel, not from
 * nsdae. Built only with the peer (C++ and the Siconos kernel found), hence not named test_*.c
 * (tests/CMakeLists.txt builds every test_*.c unconditionally). */
#include "../examples/example_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_ROWS 5002

typedef struct trajectory {
    long n;
    double t[MAX_ROWS], x0[MAX_ROWS], x1[MAX_ROWS];
    int i0, i1; /* nsdae: indices of the two states compared */
} trajectory;

static int record(const nsdae_step_record *rec, void *ctx)
{
    trajectory *tr = ctx;
    cr_assert_lt(rec->k, MAX_ROWS);
    tr->t[rec->k] = rec->t;
    tr->x0[rec->k] = rec->y[tr->i0];
    tr->x1[rec->k] = rec->y[tr->i1];
    tr->n = rec->k + 1;
    return 0;
}

static void run_nsdae_with(const char *model, const char *s0, const char *s1, double theta, double gamma,
                           int gamma_relation, double h, trajectory *tr)
{
    nsdae_mlcs *s = load_example(model, NULL);
    tr->i0 = y_index(s, s0);
    tr->i1 = y_index(s, s1);
    nsdae_stepper_options o;
    nsdae_stepper_defaults(&o);
    o.scheme = NSDAE_SCHEME_THETA;
    o.theta = theta;
    o.gamma = gamma;
    o.gamma_relation = gamma_relation;
    o.stop = s->stop_time;
    o.step = h;
    o.nsteps = 0;
    o.count_solutions = 0;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_stepper_run(s, &o, record, tr, NULL, NULL, &err), NSDAE_OK, "%s: %s", model, err.message);
    nsdae_mlcs_destroy(s);
}

static void run_nsdae(const char *model, const char *s0, const char *s1, double theta, double gamma, double h,
                      trajectory *tr)
{
    run_nsdae_with(model, s0, s1, theta, gamma, 0, h, tr);
}

static void run_peer(const char *args, trajectory *tr)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' %s", NSDAE_SICONOS_CIRCUIT_PEER, args);
    FILE *f = popen(cmd, "r");
    cr_assert_not_null(f, "cannot run %s", cmd);
    char line[1024];
    tr->n = 0;
    while (fgets(line, sizeof line, f)) {
        cr_assert_lt(tr->n, MAX_ROWS);
        cr_assert_eq(sscanf(line, "%lf,%lf,%lf", &tr->t[tr->n], &tr->x0[tr->n], &tr->x1[tr->n]), 3, "peer row '%s'", line);
        tr->n++;
    }
    cr_assert_eq(pclose(f), 0, "%s failed", cmd);
}

/* Max over the trajectory of |ours - peer| relative to max |peer|, per state. */
static void expect_same(const trajectory *a, const trajectory *b, double tol, const char *what)
{
    cr_assert_eq(a->n, b->n, "%s: %ld rows against the peer's %ld", what, a->n, b->n);
    double d0 = 0, d1 = 0, m0 = 0, m1 = 0;
    for (long k = 0; k < a->n; k++) {
        cr_assert_leq(fabs(a->t[k] - b->t[k]), 1e-12 * fabs(b->t[k]) + 1e-300, "%s: t differs at row %ld", what, k);
        d0 = fmax(d0, fabs(a->x0[k] - b->x0[k]));
        d1 = fmax(d1, fabs(a->x1[k] - b->x1[k]));
        m0 = fmax(m0, fabs(b->x0[k]));
        m1 = fmax(m1, fabs(b->x1[k]));
    }
    cr_expect_leq(d0 / m0, tol, "%s: first state off by %.3g relative", what, d0 / m0);
    cr_expect_leq(d1 / m1, tol, "%s: second state off by %.3g relative", what, d1 / m1);
}

static trajectory ours, peer;

/* Max over the run of the charge difference of two trajectories. */
static double max_charge_difference(const trajectory *a, const trajectory *b)
{
    double d = 0;
    for (long k = 0; k < a->n && k < b->n; k++) d = fmax(d, fabs(a->x0[k] - b->x0[k]));
    return d;
}

Test(siconos_circuits, diode_bridge_natural_form_at_theta_half_is_siconos_diodebridge)
{
    /* node potentials vp, vn are algebraic unknowns here and multipliers in Siconos' form: with
     * the Kirchhoff rows at t_{k+1} the two schemes are the same map (issue 15, item 1) */
    run_nsdae("diode_bridge", "v", "iL", 0.5, 1.0, 1e-6, &ours);
    run_peer("diode_bridge 0.5 1 1e-6 5e-3", &peer);
    expect_same(&ours, &peer, 1e-8, "diode bridge theta = 1/2");
}

Test(siconos_circuits, rlcd_at_theta_gamma_half_is_siconos_theta_gamma)
{
    run_nsdae("circuit_rlcd", "q", "iL", 0.5, 0.5, 0.05, &ours);
    run_peer("rlcd 0.5 0.5 0.05 5", &peer);
    expect_same(&ours, &peer, 1e-8, "circuit RLCD theta = gamma = 1/2");
}

Test(siconos_circuits, rlcd_gamma_changes_the_trajectory)
{
    /* gamma must reach the step: at gamma = 1 the same circuit is another trajectory, and it is
     * Siconos' EulerMoreauOSI(1/2) */
    run_nsdae("circuit_rlcd", "q", "iL", 0.5, 1.0, 0.05, &ours);
    run_peer("rlcd 0.5 1 0.05 5", &peer);
    expect_same(&ours, &peer, 1e-8, "circuit RLCD theta = 1/2, gamma = 1");
    static trajectory half;
    run_peer("rlcd 0.5 0.5 0.05 5", &half);
    double d = max_charge_difference(&half, &ours);
    cr_expect_gt(d, 1e-3, "gamma = 1/2 and gamma = 1 give the same charge (max difference %g)", d);
}

Test(siconos_circuits, rlcd_gamma_relation_is_siconos_use_gamma_for_relation)
{
    /* Circuit-ThetaGammaSchemes' own scheme: the diode relation vD = q/C + R iD read at
     * gamma q_{k+1} + (1 - gamma) q_k, iD at t_{k+1} in der(q) (issue 15) */
    run_nsdae_with("circuit_rlcd", "q", "iL", 0.5, 0.5, 1, 0.05, &ours);
    run_peer("rlcd 0.5 0.5 0.05 5 relation", &peer);
    expect_same(&ours, &peer, 1e-8, "circuit RLCD theta = gamma = 1/2, gamma on the relation");
    /* and it is another scheme than the default theta-gamma one */
    static trajectory multipliers;
    run_peer("rlcd 0.5 0.5 0.05 5", &multipliers);
    double d = max_charge_difference(&multipliers, &ours);
    cr_expect_gt(d, 1e-3, "gamma on the relation and on the multipliers give the same charge (max difference %g)", d);
}
