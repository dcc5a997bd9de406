/* Convergence studies: least-squares order of an error sequence. */
#ifndef NSDAE_CONVERGENCE_H
#define NSDAE_CONVERGENCE_H

/* Slope of log(e) against log(h) by least squares over the pairs with e > 0 and h > 0.
 * *used receives how many pairs entered the fit; NAN when fewer than two. */
double nsdae_fit_order(const double *h, const double *e, int n, int *used);

#endif
