/* Per-call bump allocator: the solvers allocate many small arrays whose lifetimes all end
 * with the public call, so one free at the end replaces dozens of paired frees. A workspace
 * keeps its arena between calls (lcp_arena_reset, into one block): on diodeBridge20 (300 KB of
 * arena a call) glibc gave the freed blocks back to the system at the end of every call and the
 * next call faulted the pages in again, zeroed: 500 calls with one kept workspace took 0.78 s
 * user + 0.98 s sys (33 page faults a call), with the arena kept 0.39 s + 0.01 s (none). One-shot
 * calls (nsdae_lcp_minnorm) gain too: the one block freed at their end is above glibc's mmap
 * threshold, which raises its trim threshold (1.95 s against 0.47 s for 500 calls). */
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
    void *p = lcp_arena_alloc_uninit(a, bytes);
    if (p)
        memset(p, 0, bytes);
    return p;
}

void *lcp_arena_alloc_uninit(lcp_arena *a, size_t bytes)
{
    size_t need = (bytes + sizeof(max_align_t) - 1) / sizeof(max_align_t);
    if (need == 0)
        need = 1;
    lcp_arena_block *b = a->head;
    if (need > ARENA_MIN_BLOCK / sizeof(max_align_t)) {
        /* A large array gets a block of its own from calloc, behind the current head (which
         * keeps its free room): the allocator hands out pages already zero, faulted in only
         * where written. Zeroing them here cost 20 % of deltasigma's branch and bound (the KKT
         * Lemke's workspace, tens of MB of which a node writes a part). */
        lcp_arena_block *big = calloc(1, sizeof *big + need * sizeof(max_align_t));
        if (!big) {
            a->failed = 1;
            return NULL;
        }
        big->cap = big->used = need;
        if (b) {
            big->next = b->next;
            b->next = big;
        } else {
            big->next = NULL;
            a->head = big;
        }
        return big->data;
    }
    if (!b || b->cap - b->used < need) {
        size_t cap = ARENA_MIN_BLOCK / sizeof(max_align_t);
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
    return p;
}

double *lcp_arena_doubles(lcp_arena *a, size_t n)
{
    return lcp_arena_alloc(a, n * sizeof(double));
}

double *lcp_arena_doubles_uninit(lcp_arena *a, size_t n)
{
    return lcp_arena_alloc_uninit(a, n * sizeof(double));
}

/* One block of the whole capacity: a call of the same size then fits in it without a malloc
 * (blocks are filled from the head only, so several kept blocks would not all be reused). */
void lcp_arena_reset(lcp_arena *a)
{
    if (a->head && !a->head->next) {
        a->head->used = 0;
        a->failed = 0;
        return;
    }
    size_t cap = 0;
    for (lcp_arena_block *b = a->head; b; b = b->next)
        cap += b->cap;
    lcp_arena_free(a);
    if (cap == 0)
        return;
    lcp_arena_block *b = malloc(sizeof *b + cap * sizeof(max_align_t));
    if (!b)
        return;   /* the next call allocates as it goes */
    b->cap = cap;
    b->used = 0;
    b->next = NULL;
    a->head = b;
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
