/* nsdae crosscheck and converge --reference events against what the theory says, not against our
 * own output:
 *   - implicit Euler (the minnorm scheme) with events converges as O(h) (Acary & Brogliato 2008,
 *     section 10.1): O(h^2) local errors between events, an event seen at the first grid time after
 *     it, so the error at T and on the grid away from events have order 1;
 *   - an exogenous switch at t_e (the clutch) is taken by the stepper at the first grid time
 *     t_k >= t_e (phase_at(t_k) with `time >= t_e`): event-time error ceil(t_e / h) h - t_e;
 *   - on the two-state relay x' = 2 lambda, lambda in -sign(x) the minimal-norm step reproduces the
 *     piecewise-linear solution exactly (x = 1 - 2t until 0.5, then 0), so every state difference
 *     is at the engine's accuracy, and with an odd N the stepper slides from t = 0.5 + h/2;
 *   - the diode bridge's first switch is the tank voltage's first zero, in closed form (the
 *     parallel RLC circuit of examples/diode_bridge.nsm's header);
 *   - Moreau-Jean is O(h) too (Acary & Brogliato 2008, chapter 10); the cup-and-ball's rope becomes
 *     taut where the free-flight parabola p(t) = p0 + v0 t - (0, g t^2 / 2) meets |p| = L. */
#include "cli_run.h"

/* The JSON report of `nsdae crosscheck ARGS --json -`, in out_text; returns the exit status. */
static int crosscheck_json(const char *args)
{
    char all[2048];
    snprintf(all, sizeof all, "%s --json -", args);
    return run_nsdae("crosscheck", all);
}

static double order_of(const char *key)
{
    return number_after(out_text, "\"orders\"", key);
}

/* A value of the run with N steps. */
static double run_value(long n, const char *key)
{
    char after[64];
    snprintf(after, sizeof after, "{\"N\": %ld,", n);
    cr_assert_not_null(strstr(out_text, after), "no run with N = %ld in:\n%s", n, out_text);
    return number_after(out_text, after, key);
}

#define ORDER_NEAR_1(key)                                                                                      \
    do {                                                                                                       \
        double p = order_of(key);                                                                              \
        cr_expect(p >= 0.8 && p <= 1.2, "%s: fitted order %g, theory 1:\n%s\n%s", key, p, out_text, err_text); \
    } while (0)

Test(crosscheck, clutch_order_one_and_exogenous_switch_time)
{
    static const long steps[] = {100, 200, 400, 800, 1600};
    cr_assert_eq(crosscheck_json("examples/clutch_exogenous.nsm --steps 100,200,400,800,1600"), 0, "%s", err_text);
    cr_expect_eq(number_after(out_text, "\"runs\"", "N"), 100); /* coarse to fine */
    cr_expect_eq(number_after(out_text, NULL, "first_event"), 1.0); /* t_e = 1, located exactly */
    ORDER_NEAR_1("error_T");
    ORDER_NEAR_1("error_grid");
    ORDER_NEAR_1("post_event_error");
    cr_expect(strstr(out_text, "\"fitted_runs\": {\"error_T\": 5") != NULL, "%s", out_text);
    for (int r = 0; r < 5; r++) {
        double h = 3.0 / (double)steps[r], expected = ceil(1.0 / h - 1e-9) * h - 1.0;
        cr_expect(fabs(run_value(steps[r], "event_time_signed") - expected) <= 1e-9, "N = %ld: %g, expected %g",
                  steps[r], run_value(steps[r], "event_time_signed"), expected);
    }
}

Test(crosscheck, relay_exact_states_and_switch_half_a_step_late)
{
    static const long steps[] = {101, 201, 401, 801, 1601};
    cr_assert_eq(crosscheck_json("examples/relay_two_states.nsm --steps 101,201,401,801,1601"), 0, "%s", err_text);
    for (int r = 0; r < 5; r++) {
        double h = 1.0 / (double)steps[r];
        cr_expect_leq(run_value(steps[r], "error_T"), 1e-8);
        cr_expect_leq(run_value(steps[r], "error_grid"), 1e-8);
        cr_expect(fabs(run_value(steps[r], "event_time_error") - h / 2) <= 1e-9, "N = %ld", steps[r]);
    }
    /* no state difference above the engine's accuracy: nothing to fit */
    HAS(out_text, "\"orders\": {\"error_T\": null, \"error_grid\": null");
    ORDER_NEAR_1("event_time_error");
}

Test(crosscheck, diode_bridge_order_one_and_first_zero_of_the_tank_voltage)
{
    static const long steps[] = {500, 1000, 2000, 4000, 8000};
    cr_assert_eq(crosscheck_json("examples/diode_bridge.nsm --stop 1e-3 --steps 500,1000,2000,4000,8000"), 0, "%s",
                 err_text);
    ORDER_NEAR_1("error_T");
    ORDER_NEAR_1("error_grid");
    ORDER_NEAR_1("post_event_error");
    /* v = exp(-a t) (A cos(wd t) + B sin(wd t)), A = 10, v'(0) = -iL(0)/C - A/(R C) = -a A + wd B */
    const double L = 1e-2, C = 1e-6, R = 1e3, A = 10, a = 1 / (2 * R * C), wd = sqrt(1 / (L * C) - a * a);
    const double B = (a * A - A / (R * C)) / wd, t1 = atan(-A / B) / wd;
    double te = number_after(out_text, NULL, "first_event");
    cr_expect(fabs(te - t1) <= 1e-8 * t1, "first event %.12g, closed form %.12g", te, t1);
    cr_expect_eq(number_after(out_text, NULL, "events"), 3); /* zeros at wd t = atan(-A/B) + k pi < wd 1e-3 */
    for (int r = 0; r < 5; r++) {
        double h = 1e-3 / (double)steps[r];
        cr_expect_leq(run_value(steps[r], "event_time_error"), 2 * h, "N = %ld: the switch is seen within O(h)",
                      steps[r]);
    }
}

/* |p(t)| = L on the parabola from (0.5, -0.7) with velocity (1, -1): |p| grows on [0, 0.2] (it is
 * 0.86 at t = 0 and 1.45 at 0.2), so bisection brackets the one crossing. */
static double cup_rope_taut_time(void)
{
    const double g = 9.81, L = 1;
    double lo = 0, hi = 0.2;
    for (int k = 0; k < 200 && hi - lo > 1e-16; k++) {
        double t = 0.5 * (lo + hi), x = 0.5 + t, y = -0.7 - t - 0.5 * g * t * t;
        if (x * x + y * y < L * L)
            lo = t;
        else
            hi = t;
    }
    return 0.5 * (lo + hi);
}

Test(crosscheck, cup_and_ball_moreau_order_one_and_taut_time_of_the_parabola)
{
    static const long steps[] = {200, 400, 800, 1600, 3200};
    cr_assert_eq(crosscheck_json("examples/cup_and_ball.nsm --steps 200,400,800,1600,3200"), 0, "%s", err_text);
    double te = number_after(out_text, NULL, "first_event"), t1 = cup_rope_taut_time();
    cr_expect(fabs(te - t1) <= 1e-8 * t1, "rope taut at %.12g, closed form %.12g", te, t1);
    ORDER_NEAR_1("error_T");
    ORDER_NEAR_1("error_grid");
    ORDER_NEAR_1("post_event_error");
    for (int r = 0; r < 5; r++) {
        double h = 2.0 / (double)steps[r];
        cr_expect_leq(fabs(run_value(steps[r], "event_time_error")), 2 * h, "N = %ld: the impact is seen within O(h)",
                      steps[r]);
    }
}

Test(crosscheck, table_and_files)
{
    char args[1024];
    snprintf(args, sizeof args, "examples/clutch_exogenous.nsm --steps 100,200 --csv '%s/xc_%ld.csv'",
             NSDAE_BINARY_DIR, (long)getpid());
    cr_assert_eq(run_nsdae("crosscheck", args), 0, "%s", err_text);
    HAS(out_text, "first event: t = 1, time");
    HAS(out_text, "fitted order");
    char path[1024], csv[4096];
    snprintf(path, sizeof path, "%s/xc_%ld.csv", NSDAE_BINARY_DIR, (long)getpid());
    slurp(path, csv, sizeof csv);
    remove(path);
    HAS(csv, "h,N,error_T,error_grid,event_time_error,post_event_error,");
    HAS(csv, ",100,");
}

Test(crosscheck, converge_against_the_engine)
{
    cr_assert_eq(run_nsdae("converge", "examples/clutch_exogenous.nsm --steps 100,200,400,800,1600 --reference events"),
                 0, "%s", err_text);
    HAS(out_text, "reference: event-driven (IDA");
    const char *p = strstr(out_text, "least-squares order: ");
    cr_assert_not_null(p, "%s", out_text);
    double order = strtod(p + strlen("least-squares order: "), NULL);
    cr_expect(order >= 0.8 && order <= 1.2, "order %g, theory 1", order);
}

Test(crosscheck, bad_input)
{
    cr_expect_eq(run_nsdae("crosscheck", "examples/clutch_exogenous.nsm --steps 100"), 2);
    HAS(err_text, "--steps '100'");
    cr_expect_eq(run_nsdae("crosscheck", "examples/clutch_exogenous.nsm"), 2);
    HAS(err_text, "--steps N1,N2,... is required");
    cr_expect_eq(run_nsdae("crosscheck", "--example no-such-example --steps 10,20"), 2);
    HAS(err_text, "--example 'no-such-example'");
    cr_expect_eq(run_nsdae("crosscheck", "examples/clutch_exogenous.nsm --steps 10,20 --step 0.1"), 2);
    HAS(err_text, "--step '0.1'");
    cr_expect_eq(run_nsdae("crosscheck", "examples/clutch_exogenous.nsm --steps 10,20 --rtol 0"), 2);
    HAS(err_text, "--rtol '0'");
    /* a model file that cannot be read is a model error, status 1 as in every command */
    cr_expect_eq(run_nsdae("crosscheck", "tests/cli/no_such_model.nsm --steps 10,20"), 1);
    HAS(err_text, "tests/cli/no_such_model.nsm: cannot open the model file");
    cr_expect_eq(run_nsdae("converge", "examples/clutch_exogenous.nsm --steps 10,20,40 --reference nope"), 2);
    HAS(err_text, "expected exact, finest or events");
    cr_expect_eq(run_nsdae("converge", "examples/clutch_exogenous.nsm --steps 10,20,40 --atol 1e-9"), 2);
    HAS(err_text, "need --reference events");
}
