/* The order of a convergence study is fitted, not read off halvings: errors of nonsmooth
 * schemes are not monotone in h (events fall at different places in the grid). */
#include <nsdae/order_fit.h>

#include <math.h>

double nsdae_order_fit(const double *h, const double *e, int n, int *used)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (!(e[i] > 0.0) || !(h[i] > 0.0) || !isfinite(e[i])) continue;
        double x = log(h[i]), y = log(e[i]);
        sx += x; sy += y; sxx += x * x; sxy += x * y;
        m++;
    }
    if (used) *used = m;
    double den = m * sxx - sx * sx;
    if (m < 2 || den == 0.0) return NAN;
    return (m * sxy - sx * sy) / den;
}
