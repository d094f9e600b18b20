/* Lesson 4, scan: CPU references (C11, no CUDA). The contracts are the ones
 * of scan.h. Sums wrap modulo 2^32: they are computed on uint32_t. */
#ifndef SYNCLAB_SCAN_REFERENCE_H
#define SYNCLAB_SCAN_REFERENCE_H

#include <stdint.h>

/* Scans each tile of `tile` elements on its own (the last may be shorter):
 * inclusive (out[i] includes in[i]) when inclusive != 0, else exclusive
 * (every tile starts at 0). */
void scan_ref_tiles(const int32_t *in, int32_t *out, int64_t n, int64_t tile, int inclusive);
/* Exclusive scan of the whole array: out[0] = 0, out[i] = in[0] + ... + in[i-1]. */
void scan_ref_exclusive(const int32_t *in, int32_t *out, int64_t n);

#endif
