/* Nothing allocated per step once warm (issue 12, "Must work" 3): a bead column of 100 beads
 * (examples/bead_column.nsm, Moreau-Jean theta = 1/2, h = 1e-3) runs 2000 steps, and between step
 * 1000 and step 2000 (beads resting on each other, contact LCPs of many rows) not one malloc,
 * calloc, realloc or aligned allocation may happen, in our code or in a library it calls (Siconos,
 * LAPACK, OpenBLAS). NSDAE_ALLOC_TRACE=1 in the environment prints a backtrace of each counted
 * call (how the sources were found), NSDAE_ALLOC_BEADS=N another height.
 * The same holds on the dense path of friction and implicit forces: a bar on two frictional feet
 * (a facet LCP every step, with and without a spring read implicitly) and the woodpecker (one
 * frictional contact at a time, an implicit spring); without friction, the bar exercises the
 * dense path of implicit forces with a contact LCP of two rows; on three feet, dependent contacts
 * (a singular W, answered by Lemke on the pivoting workspace).
 * The count comes from tests/alloc_count.h; under AddressSanitizer the tests skip, saying why. */
#include <criterion/criterion.h>

#include <nsdae/model.h>
#include <nsdae/moreau.h>
#include <nsdae/translate_lagrangian.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../alloc_count.h"

#ifdef NSDAE_ASAN
#define SKIPPED(name) ALLOC_COUNT_SKIPPED(warm_allocations, name)
SKIPPED(bead_column_allocates_nothing_per_step_once_warm)
SKIPPED(bar_on_two_feet_friction_implicit_allocates_nothing_once_warm)
SKIPPED(bar_on_two_feet_friction_explicit_allocates_nothing_once_warm)
SKIPPED(bar_on_two_feet_frictionless_implicit_allocates_nothing_once_warm)
SKIPPED(bar_on_three_feet_dependent_contacts_allocate_nothing_once_warm)
SKIPPED(woodpecker_allocates_nothing_per_step_once_warm)
#else

#define EXAMPLES NSDAE_SOURCE_DIR "/examples/"
#define MODELS NSDAE_SOURCE_DIR "/tests/contact/models/"

typedef struct window {
    long from, to;      /* count from the end of step `from` to the end of step `to` */
    long counted;       /* allocations seen in the window */
    long lcp_steps;     /* steps of the window with at least two active contacts (a real LCP) */
    long one_steps;     /* steps of the window with exactly one active contact */
    int max_active;
} window;

static int watch(const nsdae_contact_record *r, void *ctx)
{
    window *w = ctx;
    if (r->k == w->from) {
        alloc_count = 0;
        alloc_counting = 1;
    } else if (r->k > w->from && r->k <= w->to) {
        if (r->nactive >= 2) w->lcp_steps++;
        if (r->nactive == 1) w->one_steps++;
        if (r->nactive > w->max_active) w->max_active = r->nactive;
        if (r->k == w->to) {
            alloc_counting = 0;
            w->counted = alloc_count;
        }
    }
    return 0;
}

typedef struct param {
    const char *name;
    double value;
} param;

typedef struct run_info {
    nsdae_moreau_summary sum;
    int implicit;       /* the forces read the state: the iteration matrix path (force_jacobian) */
    int frictional;     /* some contact has friction */
} run_info;

/* Runs the model (its parameters set first) for `to` steps of h and counts the allocations of
 * steps from+1 .. to. */
static window count_window(const char *file, const param *params, int nparams, long from, long to, double h,
                           run_info *info)
{
    nsdae_model *m = NULL;
    nsdae_lagrangian *s = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_model_parse_file(file, &m, &err), NSDAE_OK, "%s", err.message);
    for (int k = 0; k < nparams; k++)
        cr_assert_eq(nsdae_model_set_param(m, params[k].name, params[k].value, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(nsdae_translate_lagrangian(m, &s, &err), NSDAE_OK, "%s", err.message);
    nsdae_moreau_options o;
    nsdae_moreau_defaults(&o);
    o.theta = 0.5;
    o.stop = h * (double)to;
    o.nsteps = to;
    window w = {from, to, -1, 0, 0, 0};
    run_info ri = {{0}, s->force_jacobian != NULL, 0};
    for (int c = 0; c < s->ncontacts; c++) ri.frictional |= s->friction[c] > 0.0;
    cr_assert_eq(nsdae_moreau_run(s, &o, watch, &w, NULL, NULL, &ri.sum, &err), NSDAE_OK, "%s", err.message);
    if (info) *info = ri;
    nsdae_lagrangian_destroy(s);
    nsdae_model_destroy(m);
    return w;
}

static void expect_none(const char *what, const window *w)
{
    cr_expect_eq(w->counted, 0,
                 "%s: %ld allocations in steps %ld..%ld (%ld of them with an LCP, up to %d active contacts); "
                 "NSDAE_ALLOC_TRACE=1 shows where",
                 what, w->counted, w->from + 1, w->to, w->lcp_steps, w->max_active);
}

Test(warm_allocations, bead_column_allocates_nothing_per_step_once_warm)
{
    alloc_trace_from_env();
    const char *nb = getenv("NSDAE_ALLOC_BEADS"); /* another height, for measuring by hand */
    const param N = {"N", nb ? atoi(nb) : 100};
    window w = count_window(EXAMPLES "bead_column.nsm", &N, 1, 1000, 2000, 1e-3, NULL);
    /* the window must exercise the contact LCP (else zero would prove nothing) */
    cr_assert_gt(w.lcp_steps, 100, "only %ld steps of the window had two or more active contacts", w.lcp_steps);
    cr_assert_gt(w.max_active, 10);
    expect_none("bead column", &w);
}

/* A bar lying on two feet (tests/contact/models/bar_on_two_feet.nsm): both stay on the ground, so
 * every step of the window has the two contacts. With friction each step is a facet LCP
 * (stepping/friction_lcp.c) solved by the layer's Lemke on the run's workspace; without, the
 * contact LCP of the dense path (the pivoting solver). */
static void bar_on_two_feet(const param *p, int np, long from, long to, int implicit, int frictional)
{
    alloc_trace_from_env();
    run_info ri;
    window w = count_window(MODELS "bar_on_two_feet.nsm", p, np, from, to, 1e-3, &ri);
    cr_assert(ri.frictional == frictional && ri.implicit == implicit, "frictional %d, implicit %d (expected %d, %d)",
              ri.frictional, ri.implicit, frictional, implicit);
    cr_assert_eq(w.lcp_steps, to - from, "every step of the window must have both feet active (%ld)", w.lcp_steps);
    if (frictional) {
        cr_assert_geq(ri.sum.friction_solves, to, "friction LCPs solved: %ld", ri.sum.friction_solves);
        cr_expect_eq(ri.sum.friction_fallbacks, 0, "%ld friction LCPs fell back to Siconos", ri.sum.friction_fallbacks);
    } else {
        cr_assert_geq(ri.sum.lcp_solves, to - 1, "contact LCPs solved: %ld", ri.sum.lcp_solves);
        cr_expect_eq(ri.sum.lcp_fallbacks, 0, "%ld contact LCPs fell back to Siconos", ri.sum.lcp_fallbacks);
    }
    char what[80];
    snprintf(what, sizeof what, "bar on two feet, %s forces, %s", implicit ? "implicit" : "explicit",
             frictional ? "friction" : "frictionless");
    expect_none(what, &w);
}

/* With the spring (k = 10) the forces read the state, so the iteration matrix path runs too; the
 * window holds the last sliding swing (to t = 1.987) and the sticking after it: the degenerate
 * LCPs of resting contacts with zero tangential velocity and a friction split that is not unique. */
Test(warm_allocations, bar_on_two_feet_friction_implicit_allocates_nothing_once_warm)
{
    bar_on_two_feet(NULL, 0, 1000, 2500, 1, 1);
}

/* Without the spring (forces constant: explicit), launched at v0 = 2: it slides to rest at
 * t = v0 / (mu g) = 0.68 and stays; the window holds both. */
Test(warm_allocations, bar_on_two_feet_friction_explicit_allocates_nothing_once_warm)
{
    const param p[] = {{"k", 0.0}, {"x0", 0.0}, {"v0", 2.0}};
    bar_on_two_feet(p, 3, 300, 1300, 0, 1);
}

/* Implicit forces without friction: the dense path's contact LCP of two rows every step. */
Test(warm_allocations, bar_on_two_feet_frictionless_implicit_allocates_nothing_once_warm)
{
    const param p[] = {{"mu", 0.0}};
    bar_on_two_feet(p, 1, 1000, 2000, 1, 0);
}

/* Dependent contacts (tests/contact/models/bar_on_three_feet.nsm, frictionless: W of rank 2 for
 * three rows): block pivoting cannot answer, and Lemke on the pivoting workspace does, every step,
 * with nothing allocated (Siconos' Lemke, which allocates, is not reached). */
Test(warm_allocations, bar_on_three_feet_dependent_contacts_allocate_nothing_once_warm)
{
    alloc_trace_from_env();
    run_info ri;
    window w = count_window(MODELS "bar_on_three_feet.nsm", NULL, 0, 1000, 2000, 1e-3, &ri);
    cr_assert(!ri.implicit && !ri.frictional);
    cr_assert_eq(w.max_active, 3);
    cr_assert_eq(w.lcp_steps, 1000, "every step of the window must have the three feet active (%ld)", w.lcp_steps);
    cr_assert_geq(ri.sum.lcp_fallbacks, 1000, "block pivoting answered a singular W? (%ld fallbacks)",
                  ri.sum.lcp_fallbacks);
    cr_expect_eq(ri.sum.lcp_siconos, 0, "%ld contact LCPs went on to Siconos' Lemke", ri.sum.lcp_siconos);
    expect_none("bar on three feet", &w);
}

/* examples/woodpecker.nsm: three frictional contacts, one active at a time (the closed form of
 * friction_lcp.c), and a rotational spring taken implicitly (the iteration matrix, LU each step). */
Test(warm_allocations, woodpecker_allocates_nothing_per_step_once_warm)
{
    alloc_trace_from_env();
    run_info ri;
    window w = count_window(EXAMPLES "woodpecker.nsm", NULL, 0, 1000, 6000, 2e-5, &ri);
    cr_assert(ri.implicit && ri.frictional, "the woodpecker's spring is implicit, its contacts frictional");
    cr_assert_gt(w.one_steps, 1000, "only %ld steps of the window had an active contact", w.one_steps);
    expect_none("woodpecker", &w);
}
#endif
