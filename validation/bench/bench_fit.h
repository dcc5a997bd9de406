/* The exponent p of cost ~ N^p, as the size benchmarks print it (bench_model_size, bench_lag_size). */
#ifndef NSDAE_BENCH_FIT_H
#define NSDAE_BENCH_FIT_H

#include <math.h>

/* Least-squares slope of log t against log N over the rows with t > 0: the p of t ~ N^p. */
static inline double fitted_exponent(const int *n, const double *t, int rows)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int m = 0;
    for (int i = 0; i < rows; i++) {
        if (!(t[i] > 0)) continue;
        double x = log((double)n[i]), y = log(t[i]);
        sx += x; sy += y; sxx += x * x; sxy += x * y;
        m++;
    }
    if (m < 2) return NAN;
    return (m * sxy - sx * sy) / (m * sxx - sx * sx);
}

#endif
