/* Nothing allocated per step once warm (issue 12, "Must work" 3), for the MLCS time stepper: no
 * malloc, calloc, realloc or aligned allocation between two steps well into a run, in our code
 * or in a library it calls (KLU, Siconos, LAPACK, OpenBLAS); counted by tests/alloc_count.h (under
 * AddressSanitizer the tests skip, saying why). NSDAE_ALLOC_TRACE=1 prints where each one is.
 * - the RC-diode ladder of 40 cells (examples/diode_ladder.nsm, theta = gamma = 1/2), which runs
 *   on the sparse step (KLU on the step matrix, the complementarity rows' problem alone), with
 *   diodes switching inside the window;
 * - Rocca et al.'s crossing and repulsive cases, minimal norm counting solutions: built in (two
 *   complementarity rows: the fast path) and examples/rocca_repulsive.nsm (a box row: the branch
 *   and bound, its node QPs and the KKT Lemke's rescaled retry).
 * Not held here: examples/rocca_crossing.nsm allocates 69 times in one step of 900 (t = 2.5), the
 * one whose degenerate node QP takes Siconos' Lemke as its second route (qp.c), which allocates
 * inside Siconos. */
#include <criterion/criterion.h>

#include <nsdae/model.h>
#include <nsdae/stepper.h>
#include <nsdae/translate.h>

#include "examples/builtin.h"

#include "../alloc_count.h"

#ifdef NSDAE_ASAN
ALLOC_COUNT_SKIPPED(warm_allocations, diode_ladder_on_the_sparse_step_allocates_nothing_once_warm)
ALLOC_COUNT_SKIPPED(warm_allocations, rocca_cases_on_the_fast_path_allocate_nothing_once_warm)
ALLOC_COUNT_SKIPPED(warm_allocations, rocca_repulsive_with_a_box_row_allocates_nothing_once_warm)
#else

#define EXAMPLES NSDAE_SOURCE_DIR "/examples/"

typedef struct window {
    long from, to;     /* count from the end of step `from` to the end of step `to` */
    long counted;
    int nl;            /* multipliers: how many change sign in the window (0 would prove little) */
    int on[64];
    long switches;
} window;

static int watch(const nsdae_step_record *r, void *ctx)
{
    window *w = ctx;
    if (r->k == w->from) {
        alloc_count = 0;
        alloc_counting = 1;
    }
    if (r->k >= w->from && r->k <= w->to)
        for (int j = 0; j < w->nl && j < 64; j++) {
            int on = r->lambda[j] > 0;
            if (r->k > w->from && on != w->on[j])
                w->switches++;
            w->on[j] = on;
        }
    if (r->k == w->to) {
        alloc_counting = 0;
        w->counted = alloc_count;
    }
    return 0;
}

/* Runs s for `to` steps over [0, stop] with the stepper's options from the system, counting steps
 * from+1 .. to. */
static window count_run(const nsdae_mlcs *s, long from, long to, double stop, nsdae_stepper_summary *sum)
{
    nsdae_error err = {0};
    nsdae_stepper_options o;
    cr_assert_eq(nsdae_stepper_options_for(s, &o, &err), NSDAE_OK, "%s", err.message);
    o.stop = stop;
    o.nsteps = to;
    window w = {from, to, -1, s->nl, {0}, 0};
    cr_assert_eq(nsdae_stepper_run(s, &o, watch, &w, NULL, sum, &err), NSDAE_OK, "%s", err.message);
    return w;
}

/* The same for a model file (parameter N set when n > 0). */
static window count_window(const char *file, int n, long from, long to, double stop, nsdae_stepper_summary *sum)
{
    nsdae_model *m = NULL;
    nsdae_mlcs *s = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_model_parse_file(file, &m, &err), NSDAE_OK, "%s", err.message);
    if (n > 0)
        cr_assert_eq(nsdae_model_set_param(m, "N", n, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(nsdae_translate_mlcs(m, &s, NULL, &err), NSDAE_OK, "%s", err.message);
    window w = count_run(s, from, to, stop, sum);
    nsdae_mlcs_destroy(s);
    nsdae_model_destroy(m);
    return w;
}

Test(warm_allocations, diode_ladder_on_the_sparse_step_allocates_nothing_once_warm)
{
    alloc_trace_from_env();
    nsdae_stepper_summary sum = {0};
    /* h = 1e-5 over 40 ms: the source's first period; steps 1000..4000 see diodes switch on and off */
    window w = count_window(EXAMPLES "diode_ladder.nsm", 40, 1000, 4000, 0.04, &sum);
    cr_assert_eq(sum.sparse, sum.steps, "%ld of %ld steps on the sparse path", sum.sparse, sum.steps);
    cr_assert_gt(w.switches, 0, "no diode switched in the window");
    cr_expect_eq(w.counted, 0, "%ld allocations in steps %ld..%ld (%ld diode switches); NSDAE_ALLOC_TRACE=1 "
                 "shows where", w.counted, w.from + 1, w.to, w.switches);
}

Test(warm_allocations, rocca_cases_on_the_fast_path_allocate_nothing_once_warm)
{
    alloc_trace_from_env();
    const char *cases[] = {"rocca-crossing", "rocca-repulsive"};
    for (int c = 0; c < 2; c++) {
        nsdae_mlcs *s = NULL;
        nsdae_error err = {0};
        cr_assert_eq(nsdae_builtin_create(cases[c], NULL, 0, &s, &err), NSDAE_OK, "%s", err.message);
        nsdae_stepper_summary sum = {0};
        window w = count_run(s, 100, 1000, 10.0, &sum);
        nsdae_mlcs_destroy(s);
        cr_assert_eq(sum.steps, 1000);
        cr_assert_gt(w.switches, 0, "%s: no multiplier switched in the window", cases[c]);
        cr_expect_eq(w.counted, 0, "%s: %ld allocations in steps %ld..%ld; NSDAE_ALLOC_TRACE=1 shows where",
                     cases[c], w.counted, w.from + 1, w.to);
    }
}

Test(warm_allocations, rocca_repulsive_with_a_box_row_allocates_nothing_once_warm)
{
    alloc_trace_from_env();
    nsdae_stepper_summary sum = {0};
    /* no multiplier changes sign here (the state slides), but a box row keeps every step off the
     * fast path: each is a branch and bound (29 023 allocations in this window before it was fixed) */
    window w = count_window(EXAMPLES "rocca_repulsive.nsm", 0, 100, 1000, 10.0, &sum);
    cr_assert_eq(sum.steps, 1000);
    cr_expect_eq(w.counted, 0, "%ld allocations in steps %ld..%ld; NSDAE_ALLOC_TRACE=1 shows where", w.counted,
                 w.from + 1, w.to);
}
#endif
