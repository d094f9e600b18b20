/* CPU reference for lesson 6 (cooperative groups). C11, no CUDA. */
#ifndef SYNCLAB_COOP_REFERENCE_H
#define SYNCLAB_COOP_REFERENCE_H

#include <stdint.h>

/* filter_keep() of coop.h, on the CPU. */
int coop_keep(int32_t v);

/* tile_reduce: tiles = grid * block / tile_size entries in each output;
 * thread g holds in[g] when g < n, else 0. */
void coop_tile_reduce(const int32_t *in, int64_t n, int64_t tiles, int tile_size, int32_t *sums,
                      uint32_t *neg_mask);

/* half_block: out[i] = (sum of i's chunk of `block` elements) - in[i]. */
void coop_half_block(const int32_t *in, int64_t n, int block, int32_t *out);

/* agg_filter: the kept values in input order; returns how many. */
int64_t coop_filter(const int32_t *in, int64_t n, int32_t *kept);

/* agg_filter: how many (loop iteration, block, warp) triples of the
 * canonical grid-stride loop see at least one element to keep: the most
 * filter_reserve() calls a warp-aggregated kernel may make. */
int64_t coop_filter_groups(const int32_t *in, int64_t n, int block, int grid);

/* grid_two_phase: out[i] = max(in) - in[i]. */
void coop_distance_to_max(const int32_t *in, int64_t n, int32_t *out);

#endif
