/* Shortest round-trip text of a double: the fewest significant digits (1 to 17) that strtod reads
 * back as the same double, so 0.005 prints "0.005", not "0.0050000000000000001", and no digit of
 * the value is lost. Used by the CSV sink and every other writer of numbers meant to be read back.
 * Cost: a binary search over the precision, about five snprintf/strtod pairs per number. Thread-safe
 * (no state). */
#ifndef NSDAE_NUMBER_TEXT_H
#define NSDAE_NUMBER_TEXT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Room for any result: sign, 17 digits, point, exponent "e-308", NUL. */
#define NSDAE_SHORTEST_SIZE 32

/* Writes v into buf (size >= NSDAE_SHORTEST_SIZE) in %g style with the fewest digits that round-trip;
 * "inf", "-inf" and "nan" for non-finite values. Returns the length written. */
int nsdae_shortest_text(char *buf, size_t size, double v);

#ifdef __cplusplus
}
#endif

#endif
