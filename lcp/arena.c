/* Per-call bump allocator: the solvers allocate many small arrays whose lifetimes all end
 * with the public call, so one free at the end replaces dozens of paired frees. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

struct lcp_arena_block {
    lcp_arena_block *next;
    size_t used, cap;
    max_align_t data[];
};

enum { ARENA_MIN_BLOCK = 16384 };

void *lcp_arena_alloc(lcp_arena *a, size_t bytes)
{
    size_t need = (bytes + sizeof(max_align_t) - 1) / sizeof(max_align_t);
    if (need == 0)
        need = 1;
    lcp_arena_block *b = a->head;
    if (!b || b->cap - b->used < need) {
        size_t cap = need > ARENA_MIN_BLOCK / sizeof(max_align_t) ? need : ARENA_MIN_BLOCK / sizeof(max_align_t);
        b = malloc(sizeof *b + cap * sizeof(max_align_t));
        if (!b) {
            a->failed = 1;
            return NULL;
        }
        b->cap = cap;
        b->used = 0;
        b->next = a->head;
        a->head = b;
    }
    void *p = &b->data[b->used];
    b->used += need;
    memset(p, 0, need * sizeof(max_align_t));
    return p;
}

double *lcp_arena_doubles(lcp_arena *a, size_t n)
{
    return lcp_arena_alloc(a, n * sizeof(double));
}

void lcp_arena_free(lcp_arena *a)
{
    while (a->head) {
        lcp_arena_block *n = a->head->next;
        free(a->head);
        a->head = n;
    }
    a->failed = 0;
}
