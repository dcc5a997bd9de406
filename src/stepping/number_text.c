/* Shortest round-trip printing (number_text.h). %.17g always round-trips an IEEE double (17 digits
 * separate any two neighbours), and if p digits round-trip so do p + 1 (the correctly rounded
 * decimal only gets closer), so the shortest precision is found by bisection over 1..17. */
#include <nsdae/number_text.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int round_trips(char *buf, size_t size, double v, int digits)
{
    snprintf(buf, size, "%.*g", digits, v);
    return strtod(buf, NULL) == v;
}

int nsdae_shortest_text(char *buf, size_t size, double v)
{
    if (!isfinite(v)) return snprintf(buf, size, "%s", isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
    int lo = 1, hi = 17; /* hi always round-trips */
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (round_trips(buf, size, v, mid)) hi = mid;
        else lo = mid + 1;
    }
    /* %g switches to an exponent when the decimal exponent X >= the precision: 10 would print
     * "1e+01". Up to 17 digits, more precision (still a round-trip) prints it plainly instead. */
    char e[NSDAE_SHORTEST_SIZE];
    snprintf(e, sizeof e, "%.0e", v);
    int x = atoi(strchr(e, 'e') + 1);
    if (x >= hi && x < 17) hi = x + 1;
    return snprintf(buf, size, "%.*g", hi, v);
}
