/* Lesson 1: barriers. What you implement in starter/barriers.cu.
 * Read docs/01-barriers.md first; each kernel below names its section.
 *
 * Common launch shape (the harness does the launch, you only write kernels):
 *   grid  = ceil(n / blockDim.x) one-dimensional blocks, n >= 1,
 *   block = blockDim.x threads, between 32 and 1024 (not always a power of
 *           two, not always a multiple of 32 except for warp_step),
 *   so the LAST block may be partial: its threads with a global index
 *   i = blockIdx.x * blockDim.x + threadIdx.x >= n have no element.
 * Outputs start filled with 0xFF bytes (-1) and the shared memory starts
 * filled with garbage: write every output element, read only what you wrote.
 */
#ifndef SYNCLAB_BARRIERS_H
#define SYNCLAB_BARRIERS_H

#include "synclab.h"

/* ---- tile_reverse (docs/01-barriers.md#tile-reverse) --------------------
 * Graded range: n from 1 to 2^22 + 3 and blocks of 32 to 1024 threads
 * (the inputs reach both ends).
 * Each block reverses its own tile through shared memory. A block's tile is
 * the elements base .. base + valid - 1, where base = blockIdx.x * blockDim.x
 * and valid = min(blockDim.x, n - base) (valid < blockDim.x only in a partial
 * last block). Within a tile, element t goes to position valid - 1 - t:
 *   out[base + t] = in[base + valid - 1 - t]      for 0 <= t < valid.
 * Dynamic shared memory: blockDim.x ints (extern __shared__ int tile[]).
 * Every thread may read in[] once and write out[] once: the reversal must go
 * through shared memory. */
__global__ void tile_reverse(const int *in, int *out, int n);

/* ---- halo_diff (docs/01-barriers.md#halo-difference) --------------------
 * Graded range: n from 1 to 2^22 + 3 and blocks of 32 to 1024 threads
 * (the inputs reach both ends).
 * A central difference of y = halo_y(in), where y is taken as 0 outside
 * [0, n):
 *   y(j)   = halo_y(in[j]) if 0 <= j < n, else 0
 *   out[i] = y(i + 1) - y(i - 1)                  for 0 <= i < n.
 * Every y is needed by two other threads, one of which may be in another
 * block. Blocks do not wait for each other: compute the y values your block
 * needs (its tile plus one halo element on each side) from in[] yourself.
 * Dynamic shared memory: blockDim.x + 2 ints.
 * scratch: n ints of global memory, filled with 0xFF bytes, that you MAY
 * use; the seed's dkernel wrote y there and read its neighbours back after
 * __syncthreads(). Find out why that is wrong before you use it. */
__global__ void halo_diff(const int *in, int *out, int *scratch, int n);

/* The per-element function of halo_diff (never negative, so never -1). */
__host__ __device__ inline int halo_y(int x) { return x * x; }

/* ---- block_vote (docs/01-barriers.md#block-vote) ------------------------
 * Graded range: n from 1 to 2^22 + 3 and blocks of 32 to 1024 threads
 * (the inputs reach both ends).
 * Per block b, over its threads' predicate p = (i < n && in[i] > threshold):
 *   out[3*b + 0] = how many threads of the block have p true,
 *   out[3*b + 1] = 1 if p holds for EVERY VALID element of the block
 *                  (threads with i >= n do not count against it), else 0,
 *   out[3*b + 2] = 1 if p holds for at least one thread, else 0.
 * Use __syncthreads_count / __syncthreads_and / __syncthreads_or (the PTX
 * must show a bar.red): no atomics. out holds 3 * gridDim.x ints. */
__global__ void block_vote(const int *in, int *out, int n, int threshold);

/* ---- warp_step (docs/01-barriers.md#warp-step) --------------------------
 * Graded range: n from 1 to 2^22 + 3 and blocks of 32 to 1024 threads
 * (the inputs reach both ends).
 * Warp all-reduce through shared memory: every element gets the sum of the
 * 32-element group it belongs to (group g holds indices 32*g .. 32*g + 31,
 * which is exactly one warp because blockDim.x is a multiple of 32 here);
 * indices >= n count as 0:
 *   out[i] = sum of in[j] for 32*(i/32) <= j < min(n, 32*(i/32) + 32).
 * Exchange values through shared memory (no __shfl_*), with __syncwarp()
 * between the steps. Dynamic shared memory: blockDim.x ints. */
__global__ void warp_step(const int *in, int *out, int n);

#endif
