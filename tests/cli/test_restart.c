/* nsdae restart: exit codes, JSON that parses, and the oracles of Benveniste et al. 2026 (section 9, Appendix E) from
 * the example model files:
 *   cup-and-ball at (0.6, -0.8) with v- = (1, -1): inelastic v+ = (0.16, 0.12), elastic (e = 1,
 *   through the transient Newton-law mode) v+ = (-0.68, 1.24); the file's rope force is -2 p rope,
 *   the paper's -p lambda, so the rope percussion is half the paper's: 0.7 and 1.4;
 *   clutch with J1 = 1, J2 = 3, w1- = 4, w2- = 0: w+ = (J1 w1- + J2 w2-)/(J1 + J2) = 1, tau1 percussion -3. */
#include "cli_run.h"

#include <math.h>

/* Runs `nsdae restart ARGS` (paths relative to the source tree) and returns its exit status. */
static int restart(const char *args)
{
    return run_nsdae("restart", args);
}

/* ---- a minimal JSON checker (RFC 8259 grammar, no semantics) ---- */
static const char *ws(const char *p)
{
    while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r') p++;
    return p;
}

static const char *value(const char *p);

static const char *string(const char *p)
{
    if (*p++ != '"') return NULL;
    for (; *p && *p != '"'; p++)
        if (*p == '\\' && !*++p) return NULL;
    return *p == '"' ? p + 1 : NULL;
}

static const char *members(const char *p, char close, int keyed)
{
    p = ws(p);
    if (*p == close) return p + 1;
    for (;;) {
        if (keyed) {
            if (!(p = string(ws(p)))) return NULL;
            p = ws(p);
            if (*p++ != ':') return NULL;
        }
        if (!(p = value(p))) return NULL;
        p = ws(p);
        if (*p == close) return p + 1;
        if (*p++ != ',') return NULL;
    }
}

static const char *value(const char *p)
{
    p = ws(p);
    if (*p == '{') return members(p + 1, '}', 1);
    if (*p == '[') return members(p + 1, ']', 0);
    if (*p == '"') return string(p);
    if (!strncmp(p, "null", 4) || !strncmp(p, "true", 4)) return p + 4;
    if (!strncmp(p, "false", 5)) return p + 5;
    char *end;
    strtod(p, &end);
    return end == p ? NULL : end;
}

static int json_ok(const char *text)
{
    const char *p = value(text);
    return p && *ws(p) == '\0';
}

#define CUP_AT "--at 'x=0.6,y=-0.8,der(x)=1,der(y)=-1,der(der(y))=-9.81'"

Test(restart, cup_and_ball_inelastic_restart_at_the_paper_state)
{
    cr_assert_eq(restart("examples/cup_and_ball.nsm --json " CUP_AT), 0, "%s", err_text);
    cr_assert(json_ok(out_text), "not JSON:\n%s", out_text);
    HAS(out_text, "\"from\": \"1\", \"to\": \"0\", \"via\": []");
    HAS(out_text, "\"height\": 1");
    HAS(out_text, "\"status\": \"ok\"");
    HAS(out_text, "\"rope@t*\": 1");
    cr_expect_float_eq(number_after(out_text, "\"restart\"", "der(x)"), 0.16, 1e-12);
    cr_expect_float_eq(number_after(out_text, "\"restart\"", "der(y)"), 0.12, 1e-12);
    cr_expect_float_eq(number_after(out_text, "\"restart\"", "x"), 0.6, 1e-14);
    cr_expect_float_eq(number_after(out_text, "\"impulses\"", "rope"), 0.7, 1e-12);
}

Test(restart, cup_and_ball_elastic_goes_through_the_newton_law)
{
    cr_assert_eq(restart("examples/cup_and_ball.nsm --param e=1 --json " CUP_AT), 0, "%s", err_text);
    cr_assert(json_ok(out_text), "not JSON:\n%s", out_text);
    HAS(out_text, "\"from\": \"1\", \"to\": \"1\", \"via\": [\"0\"]");
    cr_expect_float_eq(number_after(out_text, "\"restart\"", "der(x)"), -0.68, 1e-12);
    cr_expect_float_eq(number_after(out_text, "\"restart\"", "der(y)"), 1.24, 1e-12);
    cr_expect_float_eq(number_after(out_text, "\"impulses\"", "rope"), 1.4, 1e-12);
}

/* Moving outwards, v- = (-1, 1): closing the rope would need the percussion p.v-/(2 L^2) = -0.7 < 0
 * (a pulling contact): the complementarity sign excludes the closed mode; no change is found there. */
Test(restart, a_pulling_contact_is_not_the_new_mode)
{
    cr_assert_eq(restart("examples/cup_and_ball.nsm --json --from 1 --to 0 --at 'x=0.6,y=-0.8,der(x)=-1,der(y)=1'"), 0,
                 "%s", err_text);
    cr_assert(json_ok(out_text), "not JSON:\n%s", out_text);
    cr_expect_float_eq(number_after(out_text, "\"impulses\"", "rope"), -0.7, 1e-12);
    HAS(out_text, "\"sign_error\": \"the percussion of rope is -0.7 < 0");
    cr_expect_eq(restart("examples/cup_and_ball.nsm --at 'x=0.6,y=-0.8,der(x)=-1,der(y)=1'"), 1);
    cr_assert_eq(restart("examples/cup_and_ball.nsm --json " CUP_AT), 0, "%s", err_text);
    cr_expect_null(strstr(out_text, "sign_error"), "approaching: a pushing percussion");
}

Test(restart, clutch_engagement_named_with_from_and_to)
{
    cr_assert_eq(restart("examples/clutch_exogenous.nsm --param J2=3 --at w1=4,w2=0 --from 1 --to 0 --json"), 0, "%s",
                 err_text);
    cr_assert(json_ok(out_text), "not JSON:\n%s", out_text);
    cr_expect_float_eq(number_after(out_text, "\"restart\"", "w1"), 1.0, 1e-13);
    cr_expect_float_eq(number_after(out_text, "\"restart\"", "w2"), 1.0, 1e-13);
    cr_expect_float_eq(number_after(out_text, "\"impulses\"", "tau1"), -3.0, 1e-13);
    /* found from time = t_e: the engagement `time >= t_e` becomes true */
    cr_assert_eq(restart("examples/clutch_exogenous.nsm --param J2=3 --at w1=4,w2=0,time=1 --json"), 0, "%s", err_text);
    HAS(out_text, "\"from\": \"1\", \"to\": \"0\"");
    cr_expect_float_eq(number_after(out_text, "\"restart\"", "w2"), 1.0, 1e-13);
    cr_expect_eq(restart("examples/clutch_exogenous.nsm --at w1=4,w2=0,time=0.5"), 1);
}

Test(restart, every_change_listed)
{
    cr_assert_eq(restart("examples/cup_and_ball.nsm --json"), 0, "%s", err_text);
    cr_assert(json_ok(out_text), "not JSON:\n%s", out_text);
    HAS(out_text, "{\"model\": \"cup_and_ball\", \"transitions\": [");
    HAS(out_text, "\"from\": \"0\", \"to\": \"1\"");
    HAS(out_text, "\"from\": \"1\", \"to\": \"0\"");
    cr_expect_null(strstr(out_text, "\"restart\":"), "no numeric restart without --at");
    cr_assert_eq(restart("examples/clutch_exogenous.nsm"), 0, "%s", err_text);
    HAS(out_text, "model clutch_exogenous: 2 long modes, 1 switch");
    HAS(out_text, "status: ok");
    HAS(out_text, "impulse orders:");
}

Test(restart, exit_codes)
{
    cr_expect_eq(restart("examples/cup_and_ball.nsm --from 1 --to 0"), 2);
    HAS(err_text, "give --at too");
    cr_expect_eq(restart("examples/cup_and_ball.nsm --at 'z=1'"), 2);
    HAS(err_text, "--at 'z=1'");
    cr_expect_eq(restart("examples/cup_and_ball.nsm --at 'x=abc'"), 2);
    cr_expect_eq(restart("examples/cup_and_ball.nsm --at x=0.6 --from 1"), 2);
    cr_expect_eq(restart("examples/cup_and_ball.nsm --at x=0.6 --from 7 --to 0"), 2);
    HAS(err_text, "--from/--to: '7': switch 1"); /* the parser's message whole (it was formatted into itself) */
    cr_expect_eq(restart("examples/cup_and_ball.nsm --bogus"), 2);
    cr_expect_eq(restart("examples/cup_and_ball.nsm --param nope=1"), 2);
    /* inside the cup, no gap closing: nothing to restart */
    cr_expect_eq(restart("examples/cup_and_ball.nsm --at 'x=0.1,y=-0.1'"), 1);
    HAS(err_text, "name the change with --from and --to");
    cr_expect_eq(restart("no_such_file.nsm"), 1);
    cr_expect_eq(restart("--help"), 0);
    HAS(out_text, "usage: nsdae restart MODEL");
}

/* Digest 1.4 Step D [IMPL] item 3: the rope's closing assumes the fact L^2 - (x^2 + y^2) = 0 at t*; at
 * (0.9, -0.8), off the circle, its residual is 1 - (0.81 + 0.64) = -0.45 (by hand): no restart is
 * given, the fact and its residual are named, exit status 1. */
Test(restart, left_limits_off_the_guard_violate_a_fact)
{
    const char *at = "--from 1 --to 0 --at 'x=0.9,y=-0.8,der(x)=1,der(y)=-1,der(der(y))=-9.81'";
    char args[512];
    snprintf(args, sizeof args, "examples/cup_and_ball.nsm --json %s", at);
    cr_expect_eq(restart(args), 1, "%s", err_text);
    cr_assert(json_ok(out_text), "not JSON:\n%s", out_text);
    HAS(out_text, "\"restart_error\": \"impulse: the left limits violate the fact L^2 - (x^2 + y^2) = 0@t*");
    HAS(out_text, "residual 0.45 >");
    snprintf(args, sizeof args, "examples/cup_and_ball.nsm %s", at);
    cr_expect_eq(restart(args), 1, "%s", err_text);
    HAS(out_text, "numeric restart failed: impulse: the left limits violate the fact");
}
