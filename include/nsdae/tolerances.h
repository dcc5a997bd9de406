/* Every numerical tolerance nsdae uses by default, named in one place. */
#ifndef NSDAE_TOLERANCES_H
#define NSDAE_TOLERANCES_H

/* Complementarity layer (lcp/) */
#define NSDAE_TOL_SIGN          1e-10  /* a basic value >= -tol counts as nonnegative (scaled by 1+|q|) */
#define NSDAE_TOL_RESIDUAL      1e-9   /* accepted relative residual of M z + q = w */
#define NSDAE_TOL_RANK          1e-11  /* relative singular-value cut for rank decisions */
#define NSDAE_TOL_SAME_SOLUTION 1e-8   /* two solutions closer than this (relative) are one */
#define NSDAE_TOL_OBJECTIVE     1e-10  /* relative tolerance when comparing minimal-norm objectives */

/* Steppers */
#define NSDAE_TOL_STOP_TIME     1e-12  /* relative: a last step shorter than this is merged */

#endif
