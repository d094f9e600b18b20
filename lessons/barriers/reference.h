/* Lesson 1, barriers: CPU references (C11, no CUDA). The contracts are the
 * ones of barriers.h; grid = ceil(n / block). */
#ifndef SYNCLAB_BARRIERS_REFERENCE_H
#define SYNCLAB_BARRIERS_REFERENCE_H

#include <stdint.h>

/* Reverses each block-sized tile (the last one may be shorter). */
void ref_tile_reverse(const int32_t *in, int32_t *out, int64_t n, int64_t block);
/* The y of halo_diff: x * x (never negative). */
int32_t ref_halo_y(int32_t x);
/* out[i] = y(i + 1) - y(i - 1), y = 0 outside [0, n). */
void ref_halo_diff(const int32_t *in, int32_t *out, int64_t n);
/* out[3b] = count, out[3b+1] = all (over valid elements), out[3b+2] = any
 * of in[i] > threshold, per block; out holds 3 * ceil(n / block) values. */
void ref_block_vote(const int32_t *in, int32_t *out, int64_t n, int64_t block, int32_t threshold);
/* out[i] = sum of the 32-aligned group of in[] that holds i. */
void ref_warp_step(const int32_t *in, int32_t *out, int64_t n);

#endif
