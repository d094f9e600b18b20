/* Lesson 4, scan: CPU references. */
#include "reference.h"

void scan_ref_tiles(const int32_t *in, int32_t *out, int64_t n, int64_t tile, int inclusive)
{
    for (int64_t base = 0; base < n; base += tile) {
        int64_t end = n - base < tile ? n : base + tile;
        uint32_t sum = 0;
        for (int64_t i = base; i < end; i++) {
            uint32_t x = (uint32_t)in[i];
            if (inclusive)
                sum += x;
            out[i] = (int32_t)sum; /* modulo 2^32 on every compiler we use */
            if (!inclusive)
                sum += x;
        }
    }
}

void scan_ref_exclusive(const int32_t *in, int32_t *out, int64_t n)
{
    scan_ref_tiles(in, out, n, n > 0 ? n : 1, 0);
}
