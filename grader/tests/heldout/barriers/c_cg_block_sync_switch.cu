// EXPECT tile_reverse SYNC
// tile_reverse: the barrier is cg::this_thread_block().sync() in a switch on (threadIdx.x < valid): only case 1 holds the barrier, case 0 falls out. Part of a partial last block skips a block-wide barrier.
// Lesson 1, barriers: reference solution.
#include "barriers.h"

// Number of elements of this block's tile (blockDim.x except in a partial
// last block).
__device__ static int tile_valid(int n)
{
    int base = blockIdx.x * blockDim.x;
    int left = n - base;
    return left < (int)blockDim.x ? left : (int)blockDim.x;
}

#include <cooperative_groups.h>
__global__ void tile_reverse(const int *in, int *out, int n)
{
    extern __shared__ int tile[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int valid = tile_valid(n);

    switch (t < valid) {
    case 1:
        tile[t] = in[i];
        cooperative_groups::this_thread_block().sync();
        out[i] = tile[valid - 1 - t];
        break;
    default:
        break;
    }
}

// y(j) of halo_diff: halo_y(in[j]) inside the array, 0 outside.
__device__ static int y_at(const int *in, int j, int n)
{
    return (j >= 0 && j < n) ? halo_y(in[j]) : 0;
}

__global__ void halo_diff(const int *in, int *out, int *scratch, int n)
{
    (void)scratch;   // not needed: other blocks' results are never read
    // ys[0] = y(base - 1), ys[1 + t] = y(base + t), ys[blockDim.x + 1] =
    // y(base + blockDim.x): the tile and a one-element halo on each side.
    extern __shared__ int ys[];
    int t = threadIdx.x;
    int base = blockIdx.x * blockDim.x;
    int i = base + t;

    ys[1 + t] = y_at(in, i, n);   // 0 past n: exactly what y is there
    // The halo belongs to the neighbour blocks, which may not have run yet
    // (or may have finished long ago): recompute it from in[], never read
    // another block's results.
    if (t == 0)
        ys[0] = y_at(in, base - 1, n);
    if (t == (int)blockDim.x - 1)
        ys[blockDim.x + 1] = y_at(in, base + blockDim.x, n);
    __syncthreads();
    if (i < n)
        out[i] = ys[t + 2] - ys[t];
}

__global__ void block_vote(const int *in, int *out, int n, int threshold)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int valid = i < n;
    int pass = valid && in[i] > threshold;

    // All three are barriers: every thread of the block calls them, the
    // threads past n included (they vote, they have no element).
    int count = __syncthreads_count(pass);
    // A thread without an element must not spoil "all": it votes true,
    // the neutral element of AND.
    int all = __syncthreads_and(pass || !valid);
    int any = __syncthreads_or(pass);

    if (threadIdx.x == 0) {
        out[3 * blockIdx.x + 0] = count;
        out[3 * blockIdx.x + 1] = all != 0;
        out[3 * blockIdx.x + 2] = any != 0;
    }
}

__global__ void warp_step(const int *in, int *out, int n)
{
    extern __shared__ int slots[];
    int t = threadIdx.x;
    int lane = t & 31;
    int i = blockIdx.x * blockDim.x + t;
    int *warp_slots = slots + (t - lane);   // this warp's 32 ints

    // Lanes past n stay in the loop with 0: their partners read their slots.
    // (__syncwarp() would excuse a lane that has exited, but nobody would
    // write that lane's slot.)
    int sum = i < n ? in[i] : 0;
    // Butterfly: after the step with distance d every lane holds the sum of
    // its aligned group of 2*d lanes; after d = 16, the whole warp's.
    for (int d = 1; d < 32; d *= 2) {
        warp_slots[lane] = sum;
        __syncwarp();   // the partner's write is done before we read it
        sum += warp_slots[lane ^ d];
        __syncwarp();   // the partner has read our slot before we overwrite it
    }
    if (i < n)
        out[i] = sum;
}
