// Lesson 2, fences.
// You will write: message_pass, single_pass_sum.
// Prerequisites: lesson 1; single_pass_sum uses lesson 3's block reduction.
// Check: make check LESSON=fences (make hint LESSON=fences for a hint).
// Time: about 1 to 1.5 hours. GPU: any GPU CUDA 13 supports (sm_75 or newer).
//
// Your workspace: read docs/02-fences.md, then replace
// each SYNCLAB_TODO(...) line with your code. The contract of each kernel
// (what the harness gives you, what you must write) is in lessons/fences/fences.h.
#include "fences.h"

// ---------------------------------------------------------------------------
// message_pass  (docs/02-fences.md#message-passing-between-blocks)
// ---------------------------------------------------------------------------
__global__ void message_pass(const int *in, int *mailbox, int *flags, int *out, int words)
{
    SYNCLAB_TODO(message_pass);
    // P = gridDim.x / 2 pairs. Block p < P produces for block p + P.
    //
    // Producer (blockIdx.x < P):
    //   - copy in[p*words + i] to mailbox[p*words + i] for i in [0, words)
    //     (a block-stride loop: words may exceed blockDim.x);
    //   - FENCE: the flag must not become visible to the other block before
    //     the payload. Which scope reaches another block? (doc: "Fence scopes")
    //   - all threads must be done (a barrier), then ONE thread writes
    //     flags[p] = 1 with a store the compiler cannot delay or drop.
    //
    // Consumer (P <= blockIdx.x < 2P):
    //   - one thread spins until flags[p] != 0. A plain load in a loop is
    //     read once and never again (doc: "volatile"): use a volatile
    //     pointer or cuda::atomic_ref with memory_order_acquire;
    //   - fence (the reading side needs one too), then a barrier so the
    //     whole block waits for that thread;
    //   - copy mailbox[p*words + i] to out[p*words + i].
    //
    // Release/acquire (cuda::atomic_ref, cuda::atomic_thread_fence) are a
    // correct alternative to __threadfence + volatile (doc: "Release and acquire").
}

// ---------------------------------------------------------------------------
// single_pass_sum  (docs/02-fences.md#single-pass-sum)
// ---------------------------------------------------------------------------
__global__ void single_pass_sum(const int *in, int n, int *partials, unsigned int *counter,
                                int *result)
{
    SYNCLAB_TODO(single_pass_sum);
    // 1. Grid-stride loop: each thread adds in[i] for
    //    i = blockIdx.x*blockDim.x + threadIdx.x, then += gridDim.x*blockDim.x.
    //    fences_block_sum(v) (given, in fences.h) returns the block's total
    //    to every thread; all threads must call it.
    // 2. Thread 0: partials[blockIdx.x] = total; then a fence that other
    //    blocks respect; then take a ticket:
    //        unsigned int ticket = atomicInc(counter, gridDim.x);
    //    The block whose ticket is gridDim.x - 1 is the last one: tell the
    //    rest of the block through a __shared__ flag and a barrier.
    // 3. The last block (all of its threads) adds partials[0 .. gridDim.x)
    //    and thread 0 writes *result.
    // 4. Put *counter back to 0: the harness launches this kernel twice and
    //    zeroes the counter only once.
}
