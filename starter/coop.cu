/* Lesson 6: cooperative groups.
 * You will write: tile_reduce, half_block, agg_filter, grid_two_phase (and
 * its launcher). Prerequisites: lessons 1 and 3 (barriers, shuffles, block
 * reductions). Check: make check LESSON=coop (make hint LESSON=coop for a
 * hint). Time: about 2 hours. GPU: any GPU CUDA 13 supports (sm_75 or newer).
 *
 * Read docs/06-coop.md, then replace each
 * SYNCLAB_TODO(...) line with your code. The contracts (launch shapes, what
 * goes where) are in lessons/coop/coop.h. */
#include <limits.h>
#include "coop.h"

/* ---- tile_reduce (docs/06-coop.md#tile-reduce) ---------------------------- */

/* Sum of val over the group g, through temp (one int per member of g).
 * TODO: a tree: at each step every member writes its value to
 * temp[g.thread_rank()], g.sync(), the lower half adds the upper half's
 * value, g.sync() again before the next step overwrites temp.
 * Rank 0 ends with the sum. (Use g.size(): CUDA 13.0 declares
 * thread_group::num_threads() but does not define it.) */
__device__ int reduce_shared(cg::thread_group g, int *temp, int val)
{
    return val;
}

/* Sum of val over the tile with tile.shfl_down(val, offset), offsets
 * N/2, N/4, ..., 1. Rank 0 ends with the sum. */
template <unsigned N>
__device__ int reduce_shfl(cg::thread_block_tile<N> tile, int val)
{
    return val;
}

__global__ void tile_reduce(const int *in, int n, int tile_size,
                            int *sums_shared, int *sums_shfl, unsigned *neg_mask)
{
    SYNCLAB_TODO(tile_reduce);
    /* TODO:
     * 1. v = in[g] for g = blockIdx.x * blockDim.x + threadIdx.x < n, else 0;
     *    tile index = g / tile_size.
     * 2. cg::thread_group tile = cg::tiled_partition(cg::this_thread_block(), tile_size);
     *    a __shared__ int temp[COOP_MAX_BLOCK], this tile's slice starting at
     *    temp + (block rank - tile rank); sums_shared[tile index] from
     *    reduce_shared, written by tile rank 0.
     * 3. switch (tile_size) { case 4: ... } into a template on N that builds
     *    cg::thread_block_tile<N> = cg::tiled_partition<N>(block) and writes
     *    sums_shfl[tile index] = reduce_shfl(tile, v) and
     *    neg_mask[tile index] = tile.ballot(v < 0) from tile rank 0. */
}

/* ---- half_block (docs/06-coop.md#half-block) ------------------------------ */

/* Sum of val over the group g that calls it, rank 0 gets it. TODO: the same
 * tree as reduce_shared, with g.sync(). A template keeps g's concrete type
 * (thread_block_tile<16> or <32>), whose sync() is a __syncwarp of the tile
 * only. Never __syncthreads() in here: half the block does not call it. */
template <class Group>
__device__ int group_sum(const Group &g, int *temp, int val)
{
    return val;
}

__global__ void half_block(const int *in, int n, int *out)
{
    SYNCLAB_TODO(half_block);
    /* TODO:
     * - __shared__ int temp[COOP_MAX_BLOCK / 2] and
     *   __shared__ int tile_sums[COOP_MAX_BLOCK / 64];
     * - half = blockDim.x / 2, T = min(32, half); build the tiles (every
     *   thread): cg::tiled_partition<16>(block) and cg::tiled_partition<32>(block);
     * - if (r < half): v = in[base + r] + in[base + r + half] (0 past n);
     *   s = group_sum(tile of T threads, this tile's slice of temp, v);
     *   tile rank 0 writes tile_sums[r / T] = s;
     * - then the WHOLE block synchronizes, outside the if;
     * - S = tile_sums[0] + ... + tile_sums[half / T - 1];
     *   out[i] = S - in[i] for i = base + r < n. */
}

/* ---- agg_filter (docs/06-coop.md#aggregated-filter) ----------------------- */

__global__ void agg_filter(const int *in, int n, int *out, filter_counter ctr)
{
    SYNCLAB_TODO(agg_filter);
    /* TODO: the canonical grid-stride loop over i. For an element to keep
     * (filter_keep(in[i])):
     *   cg::coalesced_group active = cg::coalesced_threads();
     *   the leader, active.thread_rank() == 0, calls
     *   filter_reserve(ctr, active.size()) once for the whole group;
     *   active.shfl(base, 0) gives every member the base;
     *   out[base + active.thread_rank()] = in[i].
     * The leader is NOT threadIdx.x % 32 == 0: lane 0 may not be keeping. */
}

/* ---- grid_two_phase (docs/06-coop.md#grid-two-phase) ---------------------- */

__global__ void grid_two_phase(const int *in, int n, int *partials, int *out)
{
    SYNCLAB_TODO(grid_two_phase);
    /* TODO:
     * cg::grid_group grid = cg::this_grid();
     * phase 1: each thread takes the max of in[i] for i = grid.thread_rank(),
     *   + grid.num_threads(), ... < n (INT_MIN when none); reduce over the
     *   block (warp tiles + a small __shared__ array); block rank 0 writes
     *   partials[blockIdx.x];
     * grid.sync();
     * phase 2: the block reduces partials[0 .. gridDim.x) to the maximum M
     *   and writes out[i] = M - in[i] for its grid-stride elements. */
}

cudaError_t grid_two_phase_launch(const int *in, int n, int *partials, int partials_cap,
                                  int *out, int block)
{
    /* TODO:
     * - blocks per SM: cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm,
     *   grid_two_phase, block, 0); SMs: cudaDeviceGetAttribute(&sms,
     *   cudaDevAttrMultiProcessorCount, device);
     * - grid = per_sm * sms (fewer is allowed: min with ceil(n / block) and
     *   partials_cap); more would not fit and the launch would fail;
     * - void *args[] = {(void *)&in, (void *)&n, (void *)&partials, (void *)&out};
     *   return cudaLaunchCooperativeKernel((void *)grid_two_phase, grid, block, args, 0, 0);
     * NOT grid_two_phase<<<grid, block>>>: grid.sync() would trap. */
    (void)in; (void)n; (void)partials; (void)partials_cap; (void)out; (void)block;
    return cudaErrorNotYetImplemented;
}
