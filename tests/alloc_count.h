/* Counting allocations in a test executable (issue 12: nothing allocated per step once warm).
 * The executable that includes this header (once) defines malloc and its siblings, which the
 * dynamic linker then binds for every shared library too (Siconos, LAPACK, OpenBLAS, SuiteSparse),
 * and passes each call on to glibc's own (__libc_malloc...). alloc_counting turns the count on and
 * off; NSDAE_ALLOC_TRACE=1 in the environment (alloc_trace_from_env) prints a backtrace of each
 * counted call, which is how the sources are found.
 *
 * Not measurable under AddressSanitizer, which replaces the allocator with its own (these
 * definitions would hand it blocks it does not know): NSDAE_ASAN is defined there, and a test
 * says so and skips instead of including the definitions (ALLOC_COUNT_SKIPPED). */
#ifndef NSDAE_TESTS_ALLOC_COUNT_H
#define NSDAE_TESTS_ALLOC_COUNT_H

#if defined(__SANITIZE_ADDRESS__)
#define NSDAE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NSDAE_ASAN 1
#endif
#endif

#ifdef NSDAE_ASAN
#define ALLOC_COUNT_SKIPPED(suite, name)                                                                           \
    Test(suite, name)                                                                                              \
    {                                                                                                              \
        cr_skip_test("AddressSanitizer replaces malloc with its own allocator: allocations cannot be counted "     \
                     "here (the gcc build runs this test)");                                                       \
    }
#else
#include <execinfo.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile int alloc_counting, alloc_tracing, alloc_in_trace;
static volatile long alloc_count;

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static void alloc_counted(const char *what)
{
    if (!alloc_counting || alloc_in_trace) return;
    alloc_count++;
    if (!alloc_tracing) return;
    alloc_in_trace = 1; /* backtrace may allocate once (it loads libgcc_s): not counted */
    void *frames[24];
    int n = backtrace(frames, 24);
    write(2, what, strlen(what));
    write(2, ":\n", 2);
    backtrace_symbols_fd(frames, n, 2);
    alloc_in_trace = 0;
}

static inline void alloc_trace_from_env(void)
{
    const char *t = getenv("NSDAE_ALLOC_TRACE");
    alloc_tracing = t && *t == '1';
}

void *malloc(size_t n)
{
    alloc_counted("malloc");
    return __libc_malloc(n);
}

void *calloc(size_t k, size_t n)
{
    alloc_counted("calloc");
    return __libc_calloc(k, n);
}

void *realloc(void *p, size_t n)
{
    alloc_counted("realloc");
    return __libc_realloc(p, n);
}

void *aligned_alloc(size_t a, size_t n)
{
    alloc_counted("aligned_alloc");
    return __libc_memalign(a, n);
}

void *memalign(size_t a, size_t n)
{
    alloc_counted("memalign");
    return __libc_memalign(a, n);
}

int posix_memalign(void **p, size_t a, size_t n)
{
    alloc_counted("posix_memalign");
    *p = __libc_memalign(a, n);
    return *p ? 0 : 12; /* ENOMEM */
}
#endif

#endif
