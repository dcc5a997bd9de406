/* Comma-separated sizes on a benchmark's command line ("10,40,160"). */
#ifndef NSDAE_BENCH_LIST_H
#define NSDAE_BENCH_LIST_H

#include <stdlib.h>

/* Up to max positive integers into out; their count, or -1 when an item is not one. */
static inline int bench_parse_list(const char *s, int *out, int max)
{
    int k = 0;
    while (*s && k < max) {
        char *end;
        long v = strtol(s, &end, 10);
        if (end == s || v < 1 || v > 1000000000L) return -1;
        out[k++] = (int)v;
        s = *end == ',' ? end + 1 : end;
    }
    return k;
}

#endif
