/* nsdae simulate --engine events against closed forms: the bouncing ball's first impact (free fall
 * from q0 at rest: t1 = sqrt(2 q0 / g), impact speed g t1, Newton's law: rebound e g t1, percussion
 * m (1 + e) g t1) and the half-wave rectifier's diode turning off (C vC' = iD - vC/R with vC = vs
 * while on: iD = 0 at tan(w t) = -w R C) and on again (the RC decay meeting the source). */
#include "cli_run.h"

/* Runs `nsdae simulate ARGS` with its own output files (tests run in parallel). */
static int run_simulate(const char *tag, const char *args)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s/nsdae' simulate %s >'%s/%s.out' 2>'%s/%s.err'", NSDAE_SOURCE_DIR,
             NSDAE_BINARY_DIR, args, NSDAE_BINARY_DIR, tag, NSDAE_BINARY_DIR, tag);
    return collect_run(system(cmd), tag);
}

/* Line `line` (0: the header) of the event log, without its newline. */
static void log_line(const char *text, int line, char *buf, size_t size)
{
    const char *p = text;
    for (int k = 0; k < line && p; k++) p = (p = strchr(p, '\n')) ? p + 1 : NULL;
    cr_assert(p && *p, "the event log has no line %d:\n%s", line, text);
    size_t n = strcspn(p, "\n");
    if (n >= size) n = size - 1;
    memcpy(buf, p, n);
    buf[n] = '\0';
}

/* The comma-separated fields of a log line: t, kind, from, to, then numbers into x[]. */
static int log_fields(char *line, char *kind, char *from, char *to, double *x, int nx)
{
    char *f[16];
    int n = 0;
    for (char *tok = strtok(line, ","); tok && n < 16; tok = strtok(NULL, ",")) f[n++] = tok;
    cr_assert_geq(n, 4);
    strcpy(kind, f[1]);
    strcpy(from, f[2]);
    strcpy(to, f[3]);
    x[0] = strtod(f[0], NULL);
    for (int k = 4; k < n && k - 3 < nx; k++) x[k - 3] = strtod(f[k], NULL);
    return n - 4;
}

Test(simulate_events, bouncing_ball_first_impact_is_the_free_fall_time)
{
    const double g = 9.81, q0 = 1.0, e = 0.9, m = 1.0, t1 = sqrt(2 * q0 / g), v1 = g * t1;
    int rc = run_simulate("sim_events_ball", "examples/bouncing_ball.nsm --engine events --stop 1 --no-sidecar "
                                             "--events '" NSDAE_BINARY_DIR "/sim_events_ball.log' "
                                             "--out '" NSDAE_BINARY_DIR "/sim_events_ball.csv'");
    cr_assert_eq(rc, 0, "%s", err_text);
    HAS(err_text, "accumulation points");
    char text[1 << 16], line[1024], kind[64], from[64], to[64];
    slurp(NSDAE_BINARY_DIR "/sim_events_ball.log", text, sizeof text);
    log_line(text, 0, line, sizeof line);
    cr_expect_str_eq(line, "t,kind,from,to,pre(q),pre(der(q)),q,der(q),P_lambda");
    log_line(text, 1, line, sizeof line);
    double x[8] = {0}; /* t, pre(q), pre(der(q)), q, der(q), P */
    cr_assert_eq(log_fields(line, kind, from, to, x, 8), 5);
    cr_expect_str_eq(kind, "impact");
    cr_expect(fabs(x[0] - t1) < 1e-8, "first impact at %.15g, closed form %.15g", x[0], t1);
    cr_expect(fabs(x[1]) < 1e-9 && fabs(x[3]) < 1e-9, "gap at the impact %g, %g", x[1], x[3]);
    cr_expect(fabs(x[2] + v1) < 1e-7, "impact velocity %.15g, closed form %.15g", x[2], -v1);
    cr_expect(fabs(x[4] - e * v1) < 1e-7, "rebound velocity %.15g, closed form %.15g", x[4], e * v1);
    cr_expect(fabs(x[5] - m * (1 + e) * v1) < 1e-7, "percussion %.15g, closed form %.15g", x[5], m * (1 + e) * v1);

    /* the rows: a left-limit row (falling) and a restart row (rising) at the impact time */
    slurp(NSDAE_BINARY_DIR "/sim_events_ball.csv", text, sizeof text);
    int at_impact = 0;
    double v[2] = {0, 0};
    for (const char *p = strchr(text, '\n'); p && p[1]; p = strchr(p + 1, '\n')) {
        char *end;
        double t = strtod(p + 1, &end);
        if (fabs(t - x[0]) > 1e-12) continue;
        strtod(end + 1, &end); /* q */
        if (at_impact < 2) v[at_impact] = strtod(end + 1, NULL);
        at_impact++;
    }
    cr_expect_eq(at_impact, 2, "rows at the impact time: %d", at_impact);
    cr_expect(fabs(v[0] + v1) < 1e-7 && fabs(v[1] - e * v1) < 1e-7, "rows' der(q) at the impact: %g, %g", v[0], v[1]);
}

Test(simulate_events, half_wave_rectifier_diode_off_and_on_at_the_closed_form_times)
{
    const double Vm = 10, f = 50, C = 1e-4, R = 1e3, pi = 3.141592653589793, w = 2 * pi * f, tau = R * C;
    const double t_off = (pi - atan(w * tau)) / w, v_off = Vm * sin(w * t_off);
    /* on again where the decay meets the rising source of the next period (increasing difference) */
    double lo = 1 / f, hi = 1 / f + 1 / (4 * f);
    for (int it = 0; it < 200; it++) {
        double mid = 0.5 * (lo + hi);
        if (Vm * sin(w * mid) - v_off * exp(-(mid - t_off) / tau) < 0) lo = mid;
        else hi = mid;
    }
    const double t_on = 0.5 * (lo + hi), v_on = v_off * exp(-(t_on - t_off) / tau);
    int rc = run_simulate("sim_events_hwr", "examples/half_wave_rectifier.nsm --engine events --stop 0.03 "
                                            "--no-sidecar --out /dev/null "
                                            "--events '" NSDAE_BINARY_DIR "/sim_events_hwr.log'");
    cr_assert_eq(rc, 0, "%s", err_text);
    HAS(err_text, "modes visited");
    char text[1 << 16], line[1024], kind[64], from[64], to[64];
    slurp(NSDAE_BINARY_DIR "/sim_events_hwr.log", text, sizeof text);
    log_line(text, 0, line, sizeof line);
    cr_expect_str_eq(line, "t,kind,from,to,pre(vC),vC");
    double x[4] = {0};
    log_line(text, 1, line, sizeof line);
    cr_assert_eq(log_fields(line, kind, from, to, x, 4), 2);
    cr_expect_str_eq(kind, "switch");
    cr_expect(strcmp(from, "c") == 0 && strcmp(to, "o") == 0, "diode off: %s -> %s", from, to);
    cr_expect(fabs(x[0] - t_off) < 1e-8, "diode off at %.15g, closed form %.15g", x[0], t_off);
    cr_expect(fabs(x[1] - v_off) < 1e-6 && fabs(x[2] - v_off) < 1e-6, "vC %.15g, %.15g vs %.15g", x[1], x[2], v_off);
    log_line(text, 2, line, sizeof line);
    cr_assert_eq(log_fields(line, kind, from, to, x, 4), 2);
    cr_expect(strcmp(from, "o") == 0 && strcmp(to, "c") == 0, "diode on: %s -> %s", from, to);
    cr_expect(fabs(x[0] - t_on) < 1e-8, "diode on at %.15g, closed form %.15g", x[0], t_on);
    cr_expect(fabs(x[1] - v_on) < 1e-6, "vC at turn-on %.15g, closed form %.15g", x[1], v_on);
}

Test(simulate_events, event_options_need_the_event_engine)
{
    cr_expect_eq(run_simulate("sim_events_usage", "examples/bouncing_ball.nsm --rtol 1e-8"), 2);
    HAS(err_text, "--engine events");
    cr_expect_eq(run_simulate("sim_events_usage", "examples/bouncing_ball.nsm --engine steps"), 2);
    HAS(err_text, "mlcs-stepper or events");
    cr_expect_eq(run_simulate("sim_events_usage", "examples/bouncing_ball.nsm --engine events --atol -1"), 2);
}

/* A `when` model (a transient mode with a user law) is refused by both engines with its place in
 * the file, and the message names what does exist: the event-driven engine's real option, which
 * refuses it too (not a usage error), and the restart analysis, which takes it. */
Test(simulate_events, when_models_are_refused_naming_the_engines_that_exist)
{
    const char *engines[] = {"", "--engine events"};
    for (int k = 0; k < 2; k++) {
        char args[256];
        snprintf(args, sizeof args, "examples/restart/cup_elastic_when.nsm %s --no-sidecar", engines[k]);
        cr_expect_eq(run_simulate("sim_events_when", args), 1, "a refusal, not a usage error: %s", err_text);
        HAS(err_text, "cup_elastic_when.nsm:17:3: 'when'");
        HAS(err_text, "event-driven engine (--engine events");
        HAS(err_text, "`nsdae restart` analyses the mode change");
    }
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && '%s/nsdae' restart examples/restart/cup_elastic_when.nsm --at "
             "'x=0.6,y=-0.8,der(x)=1,der(y)=-1' >'%s/sim_events_when.out' 2>'%s/sim_events_when.err'",
             NSDAE_SOURCE_DIR, NSDAE_BINARY_DIR, NSDAE_BINARY_DIR, NSDAE_BINARY_DIR);
    cr_expect_eq(collect_run(system(cmd), "sim_events_when"), 0, "the restart analysis takes it: %s", err_text);
}

/* The engine's restart at an event against `nsdae restart --at` its left limit: two independent
 * routes to the same post-event state (the engine: Newton's law as an LCP for contacts, the limit of a
 * shrinking implicit step for the MLCS; the restart analysis: the structural mode-change array and
 * Procedure 1's restart system). `names` are the states in the log's order; `impulse` the analysis'
 * impulse key whose value must equal the log's percussion column (NULL: none logged); `stop` the
 * simulate options that end the run after the first event. */
static void engine_restart_is_the_analysis(const char *tag, const char *model, const char *params, const char *stop,
                                           const char *const *names, int n, const char *impulse)
{
    char args[2048], path[1024], text[1 << 16], line[2048], kind[64], from[64], to[64];
    snprintf(path, sizeof path, "%s/%s.log", NSDAE_BINARY_DIR, tag);
    snprintf(args, sizeof args, "%s %s %s --engine events --no-sidecar --events '%s' --out /dev/null", model, params,
             stop, path);
    cr_assert_eq(run_simulate(tag, args), 0, "%s", err_text);
    slurp(path, text, sizeof text);
    log_line(text, 1, line, sizeof line);
    double x[16] = {0}; /* t, pre(...) x n, restart x n, [percussion] */
    int nx = log_fields(line, kind, from, to, x, 16);
    cr_assert_geq(nx, 2 * n, "%s", line);

    int len = snprintf(args, sizeof args, "%s %s --json --at '", model, params);
    for (int k = 0; k < n; k++)
        len += snprintf(args + len, sizeof args - (size_t)len, "%s%s=%.17g", k ? "," : "", names[k], x[1 + k]);
    snprintf(args + len, sizeof args - (size_t)len, ",time=%.17g'", x[0]);
    cr_assert_eq(run_nsdae("restart", args), 0, "%s\n%s", out_text, err_text);
    for (int k = 0; k < n; k++) {
        double engine = x[1 + n + k], analysis = number_after(out_text, "\"restart\"", names[k]);
        cr_expect(fabs(engine - analysis) <= 1e-9 * (1 + fabs(analysis)), "%s: %s+ engine %.15g, analysis %.15g",
                  model, names[k], engine, analysis);
    }
    if (impulse) {
        double engine = x[1 + 2 * n], analysis = number_after(out_text, "\"impulses\"", impulse);
        cr_expect(fabs(engine - analysis) <= 1e-9 * (1 + fabs(analysis)), "%s: impulse engine %.15g, analysis %.15g",
                  model, engine, analysis);
    }
}

Test(simulate_events, restarts_agree_with_the_restart_analysis)
{
    static const char *const clutch[] = {"w1", "w2"};
    static const char *const cup[] = {"x", "y", "der(x)", "der(y)"};
    engine_restart_is_the_analysis("sim_events_clutch_restart", "examples/clutch_exogenous.nsm", "", "", clutch, 2,
                                   NULL);
    engine_restart_is_the_analysis("sim_events_cup0_restart", "examples/cup_and_ball.nsm", "--param e=0", "--stop 0.5",
                                   cup, 4, "rope");
    engine_restart_is_the_analysis("sim_events_cup1_restart", "examples/cup_and_ball.nsm", "--param e=1", "--stop 0.3",
                                   cup, 4, "rope");
}
