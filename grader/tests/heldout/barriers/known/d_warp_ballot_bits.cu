// EXPECT warp_step RULE
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

__global__ void tile_reverse(const int *in, int *out, int n)
{
    extern __shared__ int tile[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int valid = tile_valid(n);

    if (t < valid)
        tile[t] = in[i];
    // Every thread of the block reaches this barrier (it is outside the
    // branches): after it, every slot written above is visible to all.
    __syncthreads();
    if (t < valid)
        out[i] = tile[valid - 1 - t];
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

// RED TEAM: warp all-reduce with no shared memory at all: every lane's value
// crosses the warp bit by bit through 32 warp votes (__ballot_sync), and
// __popc of each ballot counts the lanes whose bit b is set. Votes are
// allowed for computing masks, but here the ballot IS the cross-lane data
// path (a warp reduction under another opcode: vote.sync.ballot).
__global__ void warp_step(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = i < n ? (unsigned)in[i] : 0u;   // lanes past n vote 0
    unsigned sum = 0;
    for (int b = 0; b < 32; b++)
        sum += (unsigned)__popc(__ballot_sync(0xffffffffu, (v >> b) & 1u)) << b;
    if (i < n)
        out[i] = (int)sum;
}

