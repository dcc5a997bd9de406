/* Nothing allocated per step once warm (issue 12, "Must work" 3): a bead column of 100 beads
 * (examples/bead_column.nsm, Moreau-Jean theta = 1/2, h = 1e-3) runs 2000 steps, and between step
 * 1000 and step 2000 (beads resting on each other, contact LCPs of many rows) not one malloc,
 * calloc, realloc or aligned allocation may happen, in our code or in a library it calls (Siconos,
 * LAPACK, OpenBLAS). The count comes from the allocator itself: this executable defines malloc and
 * its siblings, which the dynamic linker then binds for every shared library too, and passes each
 * call on to glibc's own (__libc_malloc...). NSDAE_ALLOC_TRACE=1 in the environment prints a
 * backtrace of each counted call (how the sources were found), NSDAE_ALLOC_BEADS=N another height.
 *
 * Not measurable under AddressSanitizer, which replaces the allocator with its own (these
 * definitions would hand it blocks it does not know): the test says so and is skipped there. */
#include <criterion/criterion.h>

#include <nsdae/model.h>
#include <nsdae/moreau.h>
#include <nsdae/translate_lagrangian.h>

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#define NSDAE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NSDAE_ASAN 1
#endif
#endif

#ifdef NSDAE_ASAN
Test(warm_allocations, bead_column_allocates_nothing_per_step_once_warm)
{
    cr_skip_test("AddressSanitizer replaces malloc with its own allocator: allocations cannot be counted here "
                 "(the gcc build runs this test)");
}
#else
static volatile int counting, tracing, in_trace;
static volatile long allocations;

#include <execinfo.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static void counted(const char *what)
{
    if (!counting || in_trace) return;
    allocations++;
    if (!tracing) return;
    in_trace = 1; /* backtrace may allocate once (it loads libgcc_s): not counted */
    void *frames[24];
    int n = backtrace(frames, 24);
    write(2, what, strlen(what));
    write(2, ":\n", 2);
    backtrace_symbols_fd(frames, n, 2);
    in_trace = 0;
}

void *malloc(size_t n)
{
    counted("malloc");
    return __libc_malloc(n);
}

void *calloc(size_t k, size_t n)
{
    counted("calloc");
    return __libc_calloc(k, n);
}

void *realloc(void *p, size_t n)
{
    counted("realloc");
    return __libc_realloc(p, n);
}

void *aligned_alloc(size_t a, size_t n)
{
    counted("aligned_alloc");
    return __libc_memalign(a, n);
}

void *memalign(size_t a, size_t n)
{
    counted("memalign");
    return __libc_memalign(a, n);
}

int posix_memalign(void **p, size_t a, size_t n)
{
    counted("posix_memalign");
    *p = __libc_memalign(a, n);
    return *p ? 0 : 12; /* ENOMEM */
}

#define EXAMPLES NSDAE_SOURCE_DIR "/examples/"

typedef struct window {
    long from, to;      /* count from the end of step `from` to the end of step `to` */
    long counted;       /* allocations seen in the window */
    long lcp_steps;     /* steps of the window with at least two active contacts (a real LCP) */
    int max_active;
} window;

static int watch(const nsdae_contact_record *r, void *ctx)
{
    window *w = ctx;
    if (r->k == w->from) {
        allocations = 0;
        counting = 1;
    } else if (r->k > w->from && r->k <= w->to) {
        if (r->nactive >= 2) w->lcp_steps++;
        if (r->nactive > w->max_active) w->max_active = r->nactive;
        if (r->k == w->to) {
            counting = 0;
            w->counted = allocations;
        }
    }
    return 0;
}

Test(warm_allocations, bead_column_allocates_nothing_per_step_once_warm)
{
    const char *t = getenv("NSDAE_ALLOC_TRACE");
    tracing = t && *t == '1';
    nsdae_model *m = NULL;
    nsdae_lagrangian *s = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_model_parse_file(EXAMPLES "bead_column.nsm", &m, &err), NSDAE_OK, "%s", err.message);
    const char *nb = getenv("NSDAE_ALLOC_BEADS"); /* another height, for measuring by hand */
    cr_assert_eq(nsdae_model_set_param(m, "N", nb ? atoi(nb) : 100, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(nsdae_translate_lagrangian(m, &s, &err), NSDAE_OK, "%s", err.message);
    nsdae_moreau_options o;
    nsdae_moreau_defaults(&o);
    o.theta = 0.5;
    o.stop = 2.0;
    o.nsteps = 2000;
    window w = {1000, 2000, -1, 0, 0};
    cr_assert_eq(nsdae_moreau_run(s, &o, watch, &w, NULL, NULL, NULL, &err), NSDAE_OK, "%s", err.message);
    /* the window must exercise the contact LCP (else zero would prove nothing) */
    cr_assert_gt(w.lcp_steps, 100, "only %ld steps of the window had two or more active contacts", w.lcp_steps);
    cr_assert_gt(w.max_active, 10);
    cr_expect_eq(w.counted, 0,
                 "%ld allocations in steps %ld..%ld (%ld of them with an LCP, up to %d active contacts); "
                 "NSDAE_ALLOC_TRACE=1 shows where",
                 w.counted, w.from + 1, w.to, w.lcp_steps, w.max_active);
    nsdae_lagrangian_destroy(s);
    nsdae_model_destroy(m);
}
#endif
