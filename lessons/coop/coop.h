/* Lesson 6: cooperative groups. What you implement in starter/coop.cu.
 * Read docs/06-coop.md first. Every kernel here is launched with a 1-D grid
 * of 1-D blocks; the harness (lessons/coop/harness.cu) chooses the shapes,
 * except for grid_two_phase, whose grid YOUR launcher chooses.
 * Shared memory starts filled with garbage (0xFF bytes) at every launch:
 * initialise every __shared__ variable you read, flags included. */
#ifndef SYNCLAB_COOP_H
#define SYNCLAB_COOP_H

#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include "synclab.h"

namespace cg = cooperative_groups;

/* The largest block any exercise of this lesson is launched with. */
#define COOP_MAX_BLOCK 1024

/* ---- tile_reduce (docs/06-coop.md#tile-reduce) ---------------------------
 * Graded range: n from 1 to 3000000 and blocks of 32 to 1024 threads
 * (the inputs reach both ends).
 * Launch: grid = ceil(n / blockDim.x) blocks; blockDim.x is a multiple of 32
 * (32..1024); tile_size is 4, 8, 16 or 32.
 * Thread g = blockIdx.x * blockDim.x + threadIdx.x holds v = in[g] when
 * g < n, else 0 (threads past n still take part in their tile's collectives).
 * Tile t is threads [t * tile_size, (t + 1) * tile_size) of the grid; there
 * are gridDim.x * blockDim.x / tile_size tiles and every tile writes:
 *   sums_shared[t] = sum of its v, computed by reduce_shared(): a
 *                    cg::thread_group from the RUNTIME
 *                    cg::tiled_partition(block, tile_size), a shared-memory
 *                    temp and g.sync();
 *   sums_shfl[t]   = the same sum, computed with shuffles on a
 *                    cg::thread_block_tile<N> (tiled_partition<N>);
 *   neg_mask[t]    = tile.ballot(v < 0): bit r set when the thread of tile
 *                    rank r holds a negative value. */
__global__ void tile_reduce(const int *in, int n, int tile_size, int *sums_shared, int *sums_shfl,
                            unsigned *neg_mask);

/* ---- half_block (docs/06-coop.md#half-block) -----------------------------
 * Graded range: n from 1 to 3000000 and blocks of 32 to 1024 threads
 * (the inputs reach both ends).
 * Launch: grid = ceil(n / blockDim.x); blockDim.x is 32, 64, 128, 256, 512
 * or 1024. Block b owns the chunk in[b * blockDim.x ...] (the last chunk may
 * be short). Only the FIRST HALF of the block (block rank < blockDim.x / 2)
 * computes the chunk's sum S: each of those threads adds two elements
 * (r and r + blockDim.x / 2, 0 past n); they reduce in tiles of
 * T = min(32, blockDim.x / 2) threads (cg::thread_block_tile<16> for blocks
 * of 32, cg::thread_block_tile<32> otherwise) by calling a device function
 * that takes the tile as a parameter, and each tile's rank 0 stores its
 * sum in shared memory. The second half calls nothing. Then every thread of
 * the block adds the tile sums and writes, for its own element i < n:
 *   out[i] = S - in[i]        (the sum of the OTHER elements of its chunk) */
__global__ void half_block(const int *in, int n, int *out);

/* ---- agg_filter (docs/06-coop.md#aggregated-filter) ----------------------
 * Graded range: n from 1 to 2^24 + 2^20 - 1 and blocks of 32 to 1024 threads
 * (the inputs reach both ends).
 * Appends every in[i] with filter_keep(in[i]) to out[], in any order, and
 * leaves the number appended in *ctr.count (the harness sets it to 0).
 * Output slots must be reserved ONLY through filter_reserve(), ONCE per
 * coalesced group: the grader counts the calls. The work must be split with
 * the canonical grid-stride loop
 *   for (i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
 *        i += gridDim.x * blockDim.x)
 * and the grader allows at most one filter_reserve() per warp per loop
 * iteration in which that warp has at least one element to keep.
 * Launch: any grid (often smaller than n / blockDim.x), any blockDim.x
 * from 32 to 1024 (not always a multiple of 32). */
typedef struct {
    int *count; /* elements appended so far: the shared output cursor */
    int *calls; /* filter_reserve() calls: read back by the grader */
} filter_counter;

__device__ __forceinline__ bool filter_keep(int v) { return v > 0; }

/* Reserves how_many consecutive slots of out[] and returns the first one.
 * One atomic on the shared cursor, plus one on the call counter. */
__device__ __forceinline__ int filter_reserve(filter_counter c, int how_many)
{
    atomicAdd(c.calls, 1);
    return atomicAdd(c.count, how_many);
}

__global__ void agg_filter(const int *in, int n, int *out, filter_counter ctr);

/* ---- grid_two_phase (docs/06-coop.md#grid-two-phase) ---------------------
 * Graded range: n from 1 to 2^24 + 2^20 - 1 and blocks of 32 to 1024 threads
 * (the inputs reach both ends).
 * out[i] = M - in[i] for every i < n, where M is the maximum of in[0..n).
 * Phase 1: each block writes the maximum of the elements it visited to
 * partials[blockIdx.x]. this_grid().sync(). Phase 2: every block reads all
 * gridDim.x partials, gets M, and writes its elements of out[].
 * The kernel must walk in[] with a grid-stride loop: the grid is limited to
 * the blocks that fit on the GPU at once, not n / blockDim.x. Any grid size
 * must work: besides calling your launcher, the grader launches
 * grid_two_phase itself (cooperatively) with grids of its choice (1, 2, an
 * odd count; never more than fit on the GPU or than n needs) and
 * blockDim.x * sizeof(double) bytes of dynamic shared memory.
 * partials has room for partials_cap ints (SMs x max blocks per SM). */
__global__ void grid_two_phase(const int *in, int n, int *partials, int *out);

/* Your host launcher: launches grid_two_phase with `block` threads per block
 * through cudaLaunchCooperativeKernel, with a grid sized from
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor x number of SMs. Returns the
 * launch's error code (cudaSuccess when it launched). The harness then waits
 * for the kernel and checks for errors itself. */
cudaError_t grid_two_phase_launch(const int *in, int n, int *partials, int partials_cap, int *out,
                                  int block);

#endif
