/* Every numerical tolerance nsdae uses by default, named in one place. */
#ifndef NSDAE_TOLERANCES_H
#define NSDAE_TOLERANCES_H

/* Complementarity layer (lcp/) */
#define NSDAE_TOL_SIGN          1e-10  /* a basic value >= -tol counts as nonnegative (scaled by 1+|q|) */
#define NSDAE_TOL_RESIDUAL      1e-9   /* accepted relative residual of M z + q = w */
#define NSDAE_TOL_RANK          1e-11  /* relative singular-value cut for rank decisions */
#define NSDAE_TOL_SAME_SOLUTION 1e-8   /* two solutions closer than this (relative) are one */
#define NSDAE_TOL_OBJECTIVE     1e-10  /* relative tolerance when comparing minimal-norm objectives */
#define NSDAE_TOL_RCOND         1e-12  /* LU solutions with a smaller reciprocal condition go to the SVD path */
#define NSDAE_TOL_FAST_RCOND    1e-8   /* fast path (few complementarity rows): every pattern matrix of the
                                          equilibrated problem must be at least this well conditioned,
                                          else the branch and bound decides (sign tests need accuracy) */
#define NSDAE_TOL_PIVOT         1e-11  /* Lemke: smallest usable pivot, relative to the column's largest
                                          entry (in z0's row: relative to max |M|) */
#define NSDAE_TOL_LEX           1e-12  /* Lemke: relative difference under which two ratios tie */
#define NSDAE_TOL_SLACK         1e-9   /* a constraint slack above this (scaled) is strictly positive:
                                          decides implicit equalities, i.e. the dimension of a piece */
#define NSDAE_TOL_COMPLEMENTARITY 1e-9 /* min(z_i, w_i) below this (scaled) counts as complementary */
#define NSDAE_SPREAD_MAX_LOG2   26.0   /* log2 of the largest spread (lcp.h: the data's dynamic range in its
                                          best units) at which "no solution" is said; above, NUMERICAL */
#define NSDAE_LEMKE_MAX_PIVOTS_FACTOR 50 /* Lemke gives up after 50 * N + 1000 pivots */
#define NSDAE_TOL_PD_PIVOT      1e-6   /* the symmetric part of M counts as positive definite (one LCP
                                          solution) only when its smallest Cholesky diagonal entry is
                                          above this times the largest (1e-12 on the pivots of M): a
                                          barely positive pivot would make "unique" a rounding accident */
#define NSDAE_TOL_SYMMETRY      1e-12  /* minimal-norm weight Q: |Q_ij - Q_ji| above this times max |Q| is
                                          asymmetry, not the round-off of a weight built as B^T B */

/* Translation */
#define NSDAE_TOL_AFFINE        1e-12  /* sliding relaxation: the branch difference g1 - g2 is c h (h the
                                          switching function) when their coefficient vectors agree to
                                          this, relative to the largest coefficient; the coefficients
                                          come from parsed constants, so only round-off separates them */
#define NSDAE_TOL_SAME_EXPR     1e-9   /* Lagrangian form: two expressions agree at a test point when
                                          |a - b| <= tol (1 + max(|a|, |b|)) (contact force = gradient) */

/* Restart analysis */
#define NSDAE_TOL_FACT          1e-8   /* a fact the analysis assumed holds at the left limits when its
                                          |residual| <= tol s^2, s = max(1, |time|, |left limits|):
                                          states typed with 8 digits or read from a located event pass,
                                          a point off the guard (a rope not yet taut) does not */

/* Steppers */
#define NSDAE_TOL_STOP_TIME     1e-12  /* relative: a last step shorter than this is merged */
#define NSDAE_MJ_ACTIVATION_THRESHOLD 0.0 /* Moreau-Jean: contact active when g + (h/2) G v <= this
                                             (Siconos' MoreauJeanOSI default) */

/* Convergence studies (nsdae converge) */
#define NSDAE_TOL_ROUNDOFF_ERROR 1e-12 /* errors at most this times 1 + |reference| (a few thousand ulps)
                                          are round-off: the scheme is exact there, no order is fitted */

#endif
