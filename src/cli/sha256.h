/* SHA-256 (FIPS 180-4) of a file, for the run sidecar: which model file a run used, byte for byte.
 * Written here because no library nsdae already links offers it. */
#ifndef NSDAE_CLI_SHA256_H
#define NSDAE_CLI_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct sha256 {
    uint32_t h[8];
    uint64_t length;          /* bytes hashed so far */
    unsigned char block[64];
    size_t used;              /* bytes waiting in block */
} sha256;

void sha256_init(sha256 *s);
void sha256_update(sha256 *s, const void *data, size_t n);
/* The digest as 64 lowercase hex digits and a NUL. */
void sha256_hex(sha256 *s, char hex[65]);

/* The digest of a file's bytes into hex; 0 when it cannot be read (errno set). */
int sha256_file(const char *path, char hex[65]);

#endif
