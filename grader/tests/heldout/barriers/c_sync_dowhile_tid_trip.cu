// EXPECT halo_diff SYNC
// halo_diff: a do/while holding the __syncthreads() runs twice for the two halo threads (t == 0, t == blockDim.x-1) and once for the rest: the trip count depends on threadIdx, so most of the block skips the second barrier.
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
    (void)scratch;
    extern __shared__ int ys[];
    int t = threadIdx.x;
    int base = blockIdx.x * blockDim.x;
    int i = base + t;
    int rounds = (t == 0 || t == (int)blockDim.x - 1) ? 2 : 1;
    int r = 0;

    ys[1 + t] = y_at(in, i, n);
    do {
        if (r == 1) {
            if (t == 0)
                ys[0] = y_at(in, base - 1, n);
            else
                ys[blockDim.x + 1] = y_at(in, base + blockDim.x, n);
        }
        __syncthreads();
    } while (++r < rounds);
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
