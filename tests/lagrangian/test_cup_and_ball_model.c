/* Cup-and-ball from examples/cup_and_ball.nsm (not the built-in): with g = 0 the ball reaches the
 * taut rope at p = (0.6, -0.8) with velocity (1, -1). Oracles from digest-impulse-001-004.md
 * sections 2.3, 2.4, 2.9: inelastic v+ = (0.16, 0.12), lambda_down = 1.4; elastic
 * v+ = (-0.68, 1.24), lambda_down = 2.8. The gap L^2 - (x^2 + y^2) has gradient -2 (x, y), so the
 * gap's percussion P is lambda_down / 2. Moreau-Jean's post-impact state converges as O(h). */
#include "lag_helpers.h"

#include <nsdae/convergence.h>

#include <math.h>

typedef struct impact {
    int seen;
    double v_after[2], P;
} impact;

static int watch(const nsdae_contact_record *r, void *ctx)
{
    impact *im = ctx;
    if (!im->seen && r->P[0] > 0.0) {
        im->seen = 1;
        im->v_after[0] = r->v[0];
        im->v_after[1] = r->v[1];
        im->P = r->P[0];
    }
    return 0;
}

/* The start is tau = (N + 1/4) h before p, so that the impact falls a quarter step after a grid
 * point for every h (the generic case; an aligned start would reach p exactly). */
static impact run_impact(double e, double h)
{
    const double p[2] = {0.6, -0.8}, v[2] = {1.0, -1.0};
    const long N = 10;
    const double tau = ((double)N + 0.25) * h;
    const nsdae_param_value params[] = {{"g", 0.0},         {"e", e},           {"x0", p[0] - v[0] * tau},
                                        {"y0", p[1] - v[1] * tau}, {"vx0", v[0]}, {"vy0", v[1]}};
    nsdae_lagrangian *s = lag_example("cup_and_ball", params, 6);
    nsdae_moreau_options o;
    nsdae_moreau_defaults(&o);
    o.nsteps = N + 4;
    o.stop = (double)o.nsteps * h;
    impact im = {0};
    nsdae_error err = {0};
    cr_assert_eq(nsdae_moreau_run(s, &o, watch, &im, NULL, NULL, NULL, &err), NSDAE_OK, "%s", err.message);
    cr_assert(im.seen, "h = %g: no impact", h);
    nsdae_lagrangian_destroy(s);
    return im;
}

static void restart_converges(double e, const double *v_plus, double lambda_down, const char *label)
{
    const double hs[] = {1e-2, 5e-3, 2e-3, 1e-3, 5e-4, 2e-4, 1e-4, 1e-5};
    const int n = (int)(sizeof hs / sizeof hs[0]);
    const double C = 5.0;
    double h[8], err_v[8];
    printf("cup_and_ball.nsm %s (e = %g), g = 0, impact at (0.6, -0.8) with v- = (1, -1); oracle v+ = (%g, %g), "
           "lambda_down = %g\n", label, e, v_plus[0], v_plus[1], lambda_down);
    printf("%9s %12s %12s %11s %11s\n", "h", "vx+", "vy+", "|v+ - ref|", "|2P - ref|");
    for (int i = 0; i < n; i++) {
        impact im = run_impact(e, hs[i]);
        h[i] = hs[i];
        err_v[i] = hypot(im.v_after[0] - v_plus[0], im.v_after[1] - v_plus[1]);
        double err_l = fabs(2.0 * im.P - lambda_down);
        printf("%9.1e %12.8f %12.8f %11.3e %11.3e\n", h[i], im.v_after[0], im.v_after[1], err_v[i], err_l);
        cr_expect(err_v[i] <= C * h[i], "h = %g: |v+ - ref| = %g > %g h", h[i], err_v[i], C);
        cr_expect(err_l <= C * h[i], "h = %g: |2P - lambda| = %g", h[i], err_l);
    }
    int used;
    double order = nsdae_fit_order(h, err_v, n, &used);
    printf("fitted order of |v+ - ref| (least squares, %d step sizes): %.3f\n", used, order);
    cr_expect_eq(used, n);
    cr_expect(order > 0.9 && order < 1.1, "fitted order %g", order);
}

Test(cup_and_ball_model, inelastic_restart_order_one)
{
    const double v_plus[2] = {0.16, 0.12};
    restart_converges(0.0, v_plus, 1.4, "inelastic");
}

Test(cup_and_ball_model, elastic_restart_order_one)
{
    const double v_plus[2] = {-0.68, 1.24};
    restart_converges(1.0, v_plus, 2.8, "elastic");
}
