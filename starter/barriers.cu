// Lesson 1, barriers: your workspace. Read docs/01-barriers.md.
// You will write: tile_reverse, halo_diff, block_vote, warp_step.
// Prerequisites: a first CUDA kernel, threadIdx/blockIdx, shared memory.
// Check: make check LESSON=barriers (make hint LESSON=barriers for a hint).
// Time: about 1 to 1.5 hours. GPU: any GPU CUDA 13 supports (sm_75 or newer).
// The contract of each kernel (launch shape, what to write where) is in
// lessons/barriers/barriers.h. When you start an exercise, delete its
// SYNCLAB_TODO line: the grader answers TODO while the line is there.
#include "barriers.h"

// docs/01-barriers.md#tile-reverse
__global__ void tile_reverse(const int *in, int *out, int n)
{
    SYNCLAB_TODO(tile_reverse);
    // TODO:
    // 1. extern __shared__ int tile[];  (blockDim.x ints, sized by the harness)
    // 2. Work out how many elements this block owns (valid): blockDim.x,
    //    or fewer in the last block.
    // 3. Threads that own an element copy it into the tile.
    // 4. Wait until the whole tile is written. Where must that wait be so
    //    that EVERY thread of the block reaches it?
    // 5. Threads that own an element write tile[valid - 1 - t] to out.
}

// docs/01-barriers.md#halo-difference
__global__ void halo_diff(const int *in, int *out, int *scratch, int n)
{
    SYNCLAB_TODO(halo_diff);
    // TODO:
    // out[i] = y(i + 1) - y(i - 1), y(j) = halo_y(in[j]) inside [0, n), 0 outside.
    // 1. extern __shared__ int ys[];  (blockDim.x + 2 ints)
    // 2. Each thread stores y of its own element in ys[1 + t] (0 past n).
    // 3. The two halo slots ys[0] and ys[blockDim.x + 1] hold y of the
    //    elements just outside the tile: compute them from in[] in THIS
    //    block. Another block's results (in scratch or anywhere else) may
    //    not exist yet: __syncthreads() does not wait for other blocks.
    // 4. Barrier, then out[i] = ys[t + 2] - ys[t] for i < n.
    (void)scratch;
}

// docs/01-barriers.md#block-vote
__global__ void block_vote(const int *in, int *out, int n, int threshold)
{
    SYNCLAB_TODO(block_vote);
    // TODO:
    // p = (i < n && in[i] > threshold).
    // count = __syncthreads_count(...), all = __syncthreads_and(...),
    // any = __syncthreads_or(...): these are barriers, so every thread of
    // the block must call them, including the threads with i >= n.
    // What must a thread without an element pass to __syncthreads_and so
    // that it does not spoil "all"?
    // Thread 0 writes out[3*b + 0] = count, out[3*b + 1] = all ? 1 : 0,
    // out[3*b + 2] = any ? 1 : 0.
}

// docs/01-barriers.md#warp-step
__global__ void warp_step(const int *in, int *out, int n)
{
    SYNCLAB_TODO(warp_step);
    // TODO:
    // Every lane of a warp ends with the sum of the warp's 32 values (0 past n).
    // 1. extern __shared__ int slots[];  (blockDim.x ints: 32 per warp)
    // 2. For d = 1, 2, 4, 8, 16: write your running sum to your slot,
    //    __syncwarp(), add your partner's slot (lane ^ d), __syncwarp().
    //    Why are both __syncwarp() calls needed?
    // 3. No lane may return before the loop ends: its partners read its
    //    slot (a lane past n adds 0). Exited lanes would not hang
    //    __syncwarp(), but their slots would never be written.
    // 4. out[i] = sum for i < n.
}
