/* Lesson 2: fences. What you implement, and the contract the harness keeps.
 * Read docs/02-fences.md first.
 * Shared memory starts filled with garbage (0xFF bytes) at every launch:
 * initialise every __shared__ variable you read, flags included. */
#ifndef SYNCLAB_FENCES_H
#define SYNCLAB_FENCES_H

#include "synclab.h"

/* ------------------------------------------------------------------------
 * Exercise message_pass  (docs/02-fences.md#message-passing-between-blocks)
 * Graded range: words from 1 to 4096 and blocks of 32 to 1024 threads (the
 * inputs reach both ends).
 *
 * The grid has 2 * P blocks (P = gridDim.x / 2 pairs); blockDim.x is 32..1024.
 * Block p < P is the PRODUCER of pair p, block p + P its CONSUMER.
 *   producer p: copy in[p*words .. p*words+words) to mailbox[same range],
 *               then raise flags[p] (write 1) so that the consumer can go;
 *   consumer p: wait until flags[p] != 0, then copy mailbox[p*words ..
 *               p*words+words) to out[same range].
 * words can be anything >= 1 (smaller or larger than blockDim.x).
 * The harness fills mailbox and out with 0xFF bytes (-1) and flags with 0
 * before the launch, and never launches more blocks than the GPU can hold
 * at once, so a producer always gets to run while its consumer waits.
 * The consumer must not read the mailbox before the flag says it is there,
 * and the producer must make sure that whoever sees the flag also sees the
 * payload: that is what the fence is for.
 * ---------------------------------------------------------------------- */
__global__ void message_pass(const int *in, int *mailbox, int *flags, int *out, int words);

/* ------------------------------------------------------------------------
 * Exercise single_pass_sum  (docs/02-fences.md#single-pass-sum)
 * Graded range: n from 1 to 2^24 + 2^20 - 1 and blocks of 32 to 1024 threads
 * (the inputs reach both ends).
 *
 * *result = in[0] + ... + in[n-1], in ONE kernel launch (any gridDim.x >= 1,
 * blockDim.x a multiple of 32, 32..1024; n >= 1, often much larger than
 * gridDim.x * blockDim.x: use a grid-stride loop).
 *   1. each block sums its elements (fences_block_sum below does the block
 *      part) and stores its partial sum to partials[blockIdx.x];
 *   2. thread 0 takes a ticket from *counter (atomicInc / atomicAdd); the
 *      block that draws the last ticket (gridDim.x - 1) knows every other
 *      partial is stored...  provided each block fenced between its partial
 *      and its ticket;
 *   3. that last block sums partials[0 .. gridDim.x) and writes *result;
 *   4. it leaves *counter at 0 again, so that the NEXT launch works.
 * The harness zeroes *counter once, when it allocates it, then launches the
 * kernel twice in a row (two different arrays, two result slots, the same
 * counter) and checks both sums and that *counter is 0 at the end.
 * Every partial and the sum fit in an int.
 * ---------------------------------------------------------------------- */
__global__ void single_pass_sum(const int *in, int n, int *partials, unsigned int *counter,
                                int *result);

/* Given (not an exercise): the sum of v over the whole block, returned to
 * every thread. Every thread of the block must call it (it holds barriers);
 * blockDim.x must be a multiple of 32. It may be called several times. */
__device__ inline int fences_block_sum(int v)
{
    __shared__ int warp_sums[32];
    __shared__ int total;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (int off = 16; off > 0; off /= 2)
        v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0)
        warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        int s = lane < (int)(blockDim.x / 32) ? warp_sums[lane] : 0;
        for (int off = 16; off > 0; off /= 2)
            s += __shfl_down_sync(0xffffffffu, s, off);
        if (lane == 0)
            total = s;
    }
    __syncthreads();
    const int sum = total;
    __syncthreads(); /* a next call may overwrite warp_sums and total */
    return sum;
}

#endif
