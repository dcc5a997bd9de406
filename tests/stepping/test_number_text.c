/* Shortest round-trip printing: known decimal texts (the double nearest 0.005 is printed 0.005 by any
 * shortest-digits printer, 0.1 + 0.2 needs 17 digits: 0.30000000000000004), and for many doubles the text
 * reads back as the same double and no shorter %g text does. */
#include <nsdae/number_text.h>

#include <criterion/criterion.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *text_of(double v)
{
    static char buf[NSDAE_SHORTEST_SIZE];
    nsdae_shortest_text(buf, sizeof buf, v);
    return buf;
}

Test(number_text, known_texts)
{
    cr_expect_str_eq(text_of(0.005), "0.005");
    cr_expect_str_eq(text_of(0.1 + 0.2), "0.30000000000000004");
    cr_expect_str_eq(text_of(1.0), "1");
    cr_expect_str_eq(text_of(10.0), "10");
    cr_expect_str_eq(text_of(123456.0), "123456");
    cr_expect_str_eq(text_of(1e17), "1e+17");
    cr_expect_str_eq(text_of(1e-5), "1e-05");
    cr_expect_str_eq(text_of(-2.5e-300), "-2.5e-300");
    cr_expect_str_eq(text_of(1.0 / 3.0), "0.3333333333333333");
    cr_expect_str_eq(text_of(0.0), "0");
    cr_expect_str_eq(text_of(INFINITY), "inf");
    cr_expect_str_eq(text_of(-INFINITY), "-inf");
    cr_expect_str_eq(text_of(NAN), "nan");
    cr_expect_str_eq(text_of(5e-324), "5e-324"); /* the smallest subnormal */
}

/* xorshift64: doubles from random bit patterns cover every exponent */
static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

Test(number_text, round_trips_and_is_shortest)
{
    uint64_t seed = 0x9e3779b97f4a7c15u;
    for (int i = 0; i < 20000; i++) {
        uint64_t bits = next(&seed);
        double v;
        memcpy(&v, &bits, sizeof v);
        if (!isfinite(v)) continue;
        if (i % 2) v = (double)(bits % 100000) / 1000.0; /* decimal-looking values too */
        char buf[NSDAE_SHORTEST_SIZE], shorter[64];
        int len = nsdae_shortest_text(buf, sizeof buf, v);
        cr_assert_eq((size_t)len, strlen(buf));
        cr_assert(strtod(buf, NULL) == v, "%s does not read back as %.17g", buf, v);
        for (int p = 1; p < 17; p++) {
            snprintf(shorter, sizeof shorter, "%.*g", p, v);
            if (strtod(shorter, NULL) == v) {
                /* as short in digits: %.*g with that precision, or the plain form of a whole number */
                cr_assert(strlen(shorter) >= (size_t)len || strchr(shorter, 'e'), "%s is shorter than %s for %.17g",
                          shorter, buf, v);
                break;
            }
        }
    }
}
