/* Switched circuits through the whole pipeline: the diode bridge (passivity, convergence of the
 * theta = 1/2 scheme) and the series RLC with one diode against its closed form. */
#include "example_run.h"

#include <nsdae/order_fit.h>

#include <math.h>
#include <string.h>

typedef struct energy_watch {
    int iv, iL;
    double C, L;
    double previous, worst_rise;
    long steps;
} energy_watch;

/* The LC tank is the only storage: the diodes and the load only take energy out of it. */
static int watch_energy(const nsdae_step_record *rec, void *ctx)
{
    energy_watch *w = ctx;
    double v = rec->y[w->iv], i = rec->y[w->iL];
    double e = 0.5 * w->C * v * v + 0.5 * w->L * i * i;
    if (rec->k > 0) w->worst_rise = fmax(w->worst_rise, e - w->previous);
    w->previous = e;
    w->steps = rec->k;
    return 0;
}

static double run_bridge(const nsdae_mlcs *s, double theta, long n, energy_watch *w, double *y_end)
{
    nsdae_stepper_options o;
    nsdae_stepper_defaults(&o);
    o.scheme = NSDAE_SCHEME_THETA;
    o.theta = theta;
    o.stop = 5e-3;
    o.nsteps = n;
    o.count_solutions = 0;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_stepper_run(s, &o, w ? watch_energy : NULL, w, y_end, NULL, &err), NSDAE_OK, "N=%ld: %s", n,
                 err.message);
    return 0;
}

Test(circuits, diode_bridge_tank_energy_never_increases)
{
    /* Implicit Euler (theta = 1) is dissipative for a passive LCS: with Q the tank's energy metric,
     * E_{k+1} - E_k = h x1' Q (A x1 + B l1) - |x1 - x0|^2_Q / 2 <= 0, since the diodes and the load
     * only absorb power at t_{k+1}. (theta = 1/2 keeps the multipliers at t_{k+1} only, so the
     * cross term with x0 has no sign: it is not asserted.) */
    nsdae_mlcs *s = load_example("diode_bridge", NULL);
    const double thetas[] = {1.0};
    for (int t = 0; t < 1; t++) {
        energy_watch w = {y_index(s, "v"), y_index(s, "iL"), 1e-6, 1e-2, 0, -INFINITY, 0};
        double y[16];
        run_bridge(s, thetas[t], 5000, &w, y);
        cr_expect_eq(w.steps, 5000);
        /* initial energy 1/2 C V^2 = 5e-5 J; round-off at that scale is ~1e-20 */
        cr_expect_leq(w.worst_rise, 1e-18, "theta=%g: energy rose by %g J in one step", thetas[t], w.worst_rise);
        cr_expect_lt(w.previous, 5e-5, "theta=%g: energy was dissipated in the load", thetas[t]);
    }
    nsdae_mlcs_destroy(s);
}

Test(circuits, diode_bridge_theta_half_converges)
{
    /* No closed form: the reference is a run with h 16 times finer than the finest in the fit. */
    nsdae_mlcs *s = load_example("diode_bridge", NULL);
    const int iv = y_index(s, "v"), iL = y_index(s, "iL");
    double yref[16], y[16];
    run_bridge(s, 0.5, 160000, NULL, yref);
    const long ns[] = {500, 1000, 2000, 4000, 8000, 10000};
    double h[6], e[6];
    printf("diode bridge, theta = 1/2, error at T = 5 ms against N = 160000\n%12s %8s %14s\n", "h", "N", "error");
    for (int i = 0; i < 6; i++) {
        run_bridge(s, 0.5, ns[i], NULL, y);
        h[i] = 5e-3 / (double)ns[i];
        /* scaled so that volts and amperes weigh alike: v in V, iL in units of V / sqrt(L/C) */
        double z = sqrt(1e-2 / 1e-6);
        e[i] = hypot(y[iv] - yref[iv], z * (y[iL] - yref[iL]));
        printf("%12.4e %8ld %14.6e\n", h[i], ns[i], e[i]);
    }
    int used;
    double p = nsdae_order_fit(h, e, 6, &used);
    printf("fitted order (energy norm) %.4f\n", p);
    cr_expect_geq(p, 0.9, "fitted order %g", p);
    /* The plain 2-norm over (v, iL), which `nsdae converge` prints, is dominated by v, whose error
     * is pre-asymptotic for h > 1e-6 (the diodes switch inside steps); on finer grids it is order 1. */
    const long fine[] = {4000, 8000, 16000, 32000};
    double hf[4], ef[4];
    for (int i = 0; i < 4; i++) {
        run_bridge(s, 0.5, fine[i], NULL, y);
        hf[i] = 5e-3 / (double)fine[i];
        ef[i] = hypot(y[iv] - yref[iv], y[iL] - yref[iL]);
    }
    double pf = nsdae_order_fit(hf, ef, 4, &used);
    printf("fitted order (2-norm, N = 4000..32000) %.4f\n", pf);
    cr_expect(pf >= 0.9 && pf <= 1.2, "fitted order %g", pf);
    nsdae_mlcs_destroy(s);
}

Test(circuits, rlc_diode_against_its_closed_form)
{
    /* C vC' = -i, L i' = vC - R i - vD, the diode conducting throughout (overdamped, i > 0):
     * vC = A e^{s1 t} + B e^{s2 t}, s1,2 roots of L C s^2 + R C s + 1 = 0, vC(0) = 10, vC'(0) = 0. */
    const double L = 1e-2, C = 1e-6, R = 1e3, T = 5e-3;
    double disc = sqrt((R / L) * (R / L) - 4.0 / (L * C));
    double s1 = (-R / L + disc) / 2.0, s2 = (-R / L - disc) / 2.0;
    double A = 10.0 * s2 / (s2 - s1), B = 10.0 - A;
    double vT = A * exp(s1 * T) + B * exp(s2 * T);
    cr_expect_float_eq(vT, 0.06469, 1e-4, "the example header's value");
    nsdae_mlcs *s = load_example("rlc_diode", NULL);
    const int iv = y_index(s, "vC");
    const long ns[] = {1000, 2000, 4000, 8000, 16000};
    double h[5], e[5];
    for (int i = 0; i < 5; i++) {
        nsdae_stepper_options o;
        nsdae_stepper_defaults(&o);
        o.stop = T;
        o.nsteps = ns[i];
        double y[8];
        nsdae_error err = {0};
        cr_assert_eq(nsdae_stepper_run(s, &o, NULL, NULL, y, NULL, &err), NSDAE_OK, "%s", err.message);
        h[i] = T / (double)ns[i];
        e[i] = fabs(y[iv] - vT);
    }
    int used;
    double p = nsdae_order_fit(h, e, 5, &used);
    cr_expect(p > 0.9 && p < 1.1, "implicit Euler order %g", p);
    cr_expect_leq(e[4], 1e-3 * fabs(vT) + 1e-6, "finest error %g", e[4]);
    nsdae_mlcs_destroy(s);
}
