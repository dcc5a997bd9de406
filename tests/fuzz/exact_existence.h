/* fuzz_lcp's ground truth for existence: whether a small MLCP has a solution, decided in rational
 * arithmetic (exact_existence.c). */
#ifndef NSDAE_FUZZ_EXACT_EXISTENCE_H
#define NSDAE_FUZZ_EXACT_EXISTENCE_H

#include <nsdae/lcp.h>

/* 1: p has a solution; 0: it has none; -1: undecided (GLPK failed or ran out of time). */
int fuzz_mlcp_has_solution_exactly(const nsdae_mlcp *p);

#endif
