/* fuzz_lcp's ground truth for existence: whether a small MLCP has a solution, decided in rational
 * arithmetic (exact_existence.c). */
#ifndef NSDAE_FUZZ_EXACT_EXISTENCE_H
#define NSDAE_FUZZ_EXACT_EXISTENCE_H

#include <nsdae/lcp.h>

/* 1: p has a solution; 0: it has none; -1: undecided (GLPK failed or ran out of time). */
int fuzz_mlcp_has_solution_exactly(const nsdae_mlcp *p);

/* A row's law in a pattern: w_i = 0 with z_i between its ends, or z_i at its lower (0 for a
 * complementarity row) or upper end with w_i of that end's sign. */
enum { FUZZ_LAW_INSIDE, FUZZ_LAW_AT_LO, FUZZ_LAW_AT_HI };

/* Has the pattern law (one per row) a solution, decided the same way: 1, 0, -1 undecided. */
int fuzz_pattern_feasible_exactly(const nsdae_mlcp *p, const int *law);

#endif
