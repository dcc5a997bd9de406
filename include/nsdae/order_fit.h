/* nsdae: the observed order of a convergence study, fitted by least squares on log-log pairs
 * (error against step size). Used by `nsdae converge` and by the convergence tests. */
#ifndef NSDAE_ORDER_FIT_H
#define NSDAE_ORDER_FIT_H

#ifdef __cplusplus
extern "C" {
#endif

/* Slope of log(e) against log(h) by least squares over the pairs with e > 0 and h > 0.
 * *used receives how many pairs entered the fit; NAN when fewer than two. */
double nsdae_order_fit(const double *h, const double *e, int n, int *used);

#ifdef __cplusplus
}
#endif

#endif
