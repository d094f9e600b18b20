/* SHA-256 (FIPS 180-4), for keys that name content: a class's identical
 * lesson files (class/dedup.h). */
#ifndef SYNCLAB_SHA256_H
#define SYNCLAB_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t h[8];
    uint64_t bytes;
    unsigned char block[64];
    size_t used;
} sl_sha256;

void sl_sha256_init(sl_sha256 *s);
void sl_sha256_add(sl_sha256 *s, const void *data, size_t n);
/* The digest as 64 lowercase hex digits and a NUL. */
void sl_sha256_hex(sl_sha256 *s, char out[65]);

#endif
