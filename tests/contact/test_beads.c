/* Column of 10 beads falling on the ground (issue 5): radius 0.1, mass 1, initial gaps 0.25,
 * e = 0.9, T = 2. What the laws say, checked at every step:
 *  - momentum: sum_i m (v_i^{k+1} - v_i^k) = -n m g h + P_ground (bead-bead percussions are
 *    internal: +P on one bead, -P on the other);
 *  - Newton's law on each active contact: P_c > 0 => (G v^{k+1})_c = -e (G v^k)_c, and
 *    (G v^{k+1})_c + e (G v^k)_c >= 0 always;
 *  - energy: with theta = 1/2 and constant gravity the free flight is the midpoint rule, which
 *    keeps m v^2/2 + m g q exactly, so a step changes the energy only through the percussions:
 *    dE = 1/2 sum_c P_c ((G v^{k+1})_c + (G v^k)_c) = 1/2 sum_c P_c (1 - e_c) (G v^k)_c.
 *    That is <= 0 for impacts ((G v^k)_c <= 0), but Siconos' law also applies e_c to a contact
 *    that is closed by the position prediction while separating ((G v^k)_c > 0) and the
 *    percussion then does positive work: the energy rises at such steps (measured below). With
 *    the `dissipative` option (e = 1 on separating contacts) it never rises: asserted per step;
 *    e = 1 conserves it;
 *  - no interpenetration beyond O(h). */
#include <criterion/criterion.h>

#include "examples/builtin_contact.h"
#include <nsdae/moreau.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define NB 10
#define GRAV 9.81

typedef struct beads_check {
    double e, h;
    int dissipative;
    long rises;             /* steps whose energy rose beyond round-off */
    double max_rise_bound;  /* largest 1/2 sum P_c (1 - e_c) max((G v^k)_c, 0) */
    int have_prev;
    double prev_v[NB], prev_E;
    double min_gap, max_dE, max_dE_law, max_dp, max_newton, min_newton, E0, E_end;
    long impacts;
} beads_check;

/* G v for the column: contact 0 ground-bead 1, contact i bead i - bead i+1. */
static void gap_rates(const double *v, double *gv)
{
    gv[0] = v[0];
    for (int i = 1; i < NB; i++) gv[i] = v[i] - v[i - 1];
}

static double energy(const double *q, const double *v, double *scale)
{
    double E = 0.0, S = 0.0;
    for (int i = 0; i < NB; i++) {
        E += 0.5 * v[i] * v[i] + GRAV * q[i];
        S += 0.5 * v[i] * v[i] + GRAV * fabs(q[i]);
    }
    if (scale) *scale = S;
    return E;
}

static int check_step(const nsdae_contact_record *r, void *ctx)
{
    beads_check *b = ctx;
    double scale, E = energy(r->q, r->v, &scale);
    b->min_gap = fmin(b->min_gap, r->q[0] - 0.1);
    for (int i = 1; i < NB; i++) b->min_gap = fmin(b->min_gap, r->q[i] - r->q[i - 1] - 0.2);
    if (b->have_prev) {
        double gv0[NB], gv1[NB], dp = 0.0, law = 0.0, rise = 0.0;
        gap_rates(b->prev_v, gv0);
        gap_rates(r->v, gv1);
        for (int i = 0; i < NB; i++) dp += r->v[i] - b->prev_v[i];
        dp -= -NB * GRAV * b->h + r->P[0];
        b->max_dp = fmax(b->max_dp, fabs(dp));
        for (int c = 0; c < NB; c++) {
            law += 0.5 * r->P[c] * (gv1[c] + gv0[c]);
            if (!r->active[c]) {
                cr_expect(r->P[c] == 0.0, "inactive contact %d has P = %g", c, r->P[c]);
                continue;
            }
            const double e = b->dissipative && gv0[c] > 0.0 ? 1.0 : b->e;
            double nl = gv1[c] + e * gv0[c];
            rise += 0.5 * r->P[c] * (1.0 - e) * fmax(gv0[c], 0.0);
            b->min_newton = fmin(b->min_newton, nl);
            if (r->P[c] > 0.0) {
                b->max_newton = fmax(b->max_newton, fabs(nl));
                b->impacts++;
            }
        }
        double dE = E - b->prev_E;
        /* round-off of an energy sum whose terms add up to `scale` */
        double tol = 64.0 * DBL_EPSILON * scale;
        b->max_dE = fmax(b->max_dE, dE);
        b->max_dE_law = fmax(b->max_dE_law, fabs(dE - law));
        b->max_rise_bound = fmax(b->max_rise_bound, rise);
        if (dE > tol) b->rises++;
        /* only a separating active contact may add energy, and no more than its term */
        cr_expect(dE <= rise + tol, "t = %g: energy rose by %g (separating-contact term %g, tolerance %g)", r->t, dE,
                  rise, tol);
        if (b->dissipative) cr_expect(dE <= tol, "t = %g: energy rose by %g (tolerance %g)", r->t, dE, tol);
    } else {
        b->E0 = E;
    }
    memcpy(b->prev_v, r->v, sizeof b->prev_v);
    b->prev_E = E;
    b->E_end = E;
    b->have_prev = 1;
    return 0;
}

static beads_check run_beads(double e, double h, int dissipative)
{
    nsdae_param_value params[] = {{"e", e}};
    nsdae_lagrangian *s = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_builtin_contact_create("beads", params, 1, &s, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(s->ndof, NB);
    nsdae_moreau_options o;
    nsdae_moreau_defaults(&o);
    o.stop = 2.0;
    o.nsteps = (long)llround(2.0 / h);
    o.dissipative = dissipative;
    beads_check b;
    memset(&b, 0, sizeof b);
    b.dissipative = dissipative;
    b.e = e;
    b.h = h;
    b.min_gap = INFINITY;
    b.min_newton = INFINITY;
    cr_assert_eq(nsdae_moreau_run(s, &o, check_step, &b, NULL, NULL, NULL, &err), NSDAE_OK, "%s", err.message);
    nsdae_lagrangian_destroy(s);
    return b;
}

Test(beads, initial_column_from_the_issue)
{
    nsdae_lagrangian *s = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_builtin_contact_create("beads", NULL, 0, &s, &err), NSDAE_OK, "%s", err.message);
    cr_expect_eq(s->ncontacts, NB);
    double g[NB];
    cr_assert_eq(s->gaps(s->q0, g, s->ctx), 0);
    for (int c = 0; c < NB; c++) {
        cr_expect(fabs(g[c] - 0.25) < 1e-14, "initial gap %d = %g", c, g[c]);
        cr_expect_eq(s->restitution[c], 0.9);
    }
    nsdae_lagrangian_destroy(s);
}

static void laws_hold(int dissipative)
{
    const double hs[] = {1e-3, 5e-4, 1e-4};
    printf("beads e = 0.9, T = 2, %s law: per-step checks\n%8s %11s %7s %10s %10s %10s %10s %10s %7s %8s\n",
           dissipative ? "dissipative" : "Siconos", "h", "min gap", "gap/h", "max dE", "sep. term", "|dE-law|",
           "|dp-law|", "Newton", "rises", "impacts");
    for (int i = 0; i < 3; i++) {
        beads_check b = run_beads(0.9, hs[i], dissipative);
        printf("%8.1e %11.3e %7.3f %10.3e %10.3e %10.3e %10.3e %10.3e %7ld %8ld\n", hs[i], b.min_gap,
               b.min_gap / hs[i], b.max_dE, b.max_rise_bound, b.max_dE_law, b.max_dp, b.max_newton, b.rises,
               b.impacts);
        if (dissipative) cr_expect_eq(b.rises, 0);
        cr_expect(b.impacts > 10, "the beads should collide");
        /* penetration: the velocity-level law lets a contact close during the step that activates
         * it, by at most h times the closing speed (a few m/s here): asserted >= -10 h */
        cr_expect(b.min_gap >= -10.0 * hs[i], "h = %g: min gap %g", hs[i], b.min_gap);
        cr_expect(b.max_dp <= 1e-11, "h = %g: momentum balance off by %g", hs[i], b.max_dp);
        cr_expect(b.max_dE_law <= 1e-10, "h = %g: energy change differs from the percussions' work by %g", hs[i],
                  b.max_dE_law);
        cr_expect(b.max_newton <= 1e-10, "h = %g: Newton law residual %g", hs[i], b.max_newton);
        cr_expect(b.min_newton >= -1e-10, "h = %g: active contact approaching: %g", hs[i], b.min_newton);
        cr_expect(b.E_end < b.E0, "e = 0.9 must dissipate");
    }
}

Test(beads, laws_hold_at_every_step_siconos_law)
{
    laws_hold(0);
}

Test(beads, energy_never_increases_with_dissipative_law)
{
    laws_hold(1);
}

Test(beads, elastic_column_conserves_energy)
{
    beads_check b = run_beads(1.0, 1e-3, 0);
    printf("beads e = 1, h = 1e-3: E(0) = %.15g, E(2) = %.15g, max step dE = %.3e\n", b.E0, b.E_end, b.max_dE);
    cr_expect(b.impacts > 10);
    cr_expect(fabs(b.E_end - b.E0) <= 1e-10 * fabs(b.E0), "E(0) = %.17g, E(2) = %.17g", b.E0, b.E_end);
}
