/* The fuzz targets' own checks: a violated invariant is a crash (abort), which libFuzzer saves as a
 * finding and the replay driver reports as a failed test. */
#ifndef NSDAE_FUZZ_CHECK_H
#define NSDAE_FUZZ_CHECK_H

#include <nsdae/status.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond)                                                                                      \
    do {                                                                                                      \
        if (!(cond)) {                                                                                        \
            fprintf(stderr, "%s:%d: fuzz check failed: %s\n", __FILE__, __LINE__, #cond);                   \
            abort();                                                                                          \
        }                                                                                                     \
    } while (0)

/* every failure says why */
#define FUZZ_CHECK_STATUS(st, err) FUZZ_CHECK((st) == NSDAE_OK || (err).message[0] != '\0')

#endif
