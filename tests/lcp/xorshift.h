/* The random families' generator, one copy for the lcp tests: Marsaglia's xorshift64 (13, 7, 17),
 * so that each test's instances are the same on every machine and build. Each test keeps its own
 * state and seed. */
#ifndef NSDAE_TESTS_LCP_XORSHIFT_H
#define NSDAE_TESTS_LCP_XORSHIFT_H

#include <stdint.h>

/* uniform in (-1, 1), from the 53 high bits of the next state */
static inline double xorshift_uniform(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return ((*state >> 11) * (1.0 / 9007199254740992.0)) * 2 - 1;
}

#endif
