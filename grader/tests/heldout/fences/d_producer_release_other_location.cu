// EXPECT message_pass RULE
// Lesson 2: fences. Reference solution.
#include "fences.h"

// ---------------------------------------------------------------------------
// message_pass: block p produces for block p + P (P = gridDim.x / 2).
// Producers are the low block numbers: even a GPU that ran blocks one after
// the other in order would finish every producer before its consumer spins.
// ---------------------------------------------------------------------------

// RED TEAM: the producer's "release" is a release store to an UNRELATED
// location, then the flag is raised with a plain volatile (relaxed) store.
// A release store orders earlier accesses before ITSELF only: the later
// relaxed flag store may become visible before the payload (no fence between
// payload and flag, and the flag store is no release).
#include <cuda/atomic>
__device__ int rt_other;

static __device__ void produce(const int *in, int *mailbox, int *flags, int words, int pair)
{
    const int base = pair * words;
    for (int i = threadIdx.x; i < words; i += blockDim.x)
        mailbox[base + i] = in[base + i];
    __syncthreads();
    if (threadIdx.x == 0) {
        cuda::atomic_ref<int, cuda::thread_scope_device> other(rt_other);
        other.store(1, cuda::memory_order_release);     // not the flag
        *(volatile int *)&flags[pair] = 1;
    }
}


static __device__ void consume(int *mailbox, int *flags, int *out, int words, int pair)
{
    if (threadIdx.x == 0) {
        // volatile: read memory on every iteration (a plain load would be
        // hoisted out of the loop and spin forever on a register).
        while (*(volatile int *)&flags[pair] == 0) {
        }
        // The acquire side: no payload load may be satisfied before the
        // flag load that saw 1.
        __threadfence();
    }
    __syncthreads();  // the whole block waits for thread 0's verdict
    const int base = pair * words;
    for (int i = threadIdx.x; i < words; i += blockDim.x)
        out[base + i] = mailbox[base + i];
}

__global__ void message_pass(const int *in, int *mailbox, int *flags, int *out, int words)
{
    const int pairs = gridDim.x / 2;
    const int b = blockIdx.x;
    if (b < pairs)
        produce(in, mailbox, flags, words, b);
    else if (b < 2 * pairs)
        consume(mailbox, flags, out, words, b - pairs);
}

// ---------------------------------------------------------------------------
// single_pass_sum: partials, fence, ticket; the last block adds the partials.
// ---------------------------------------------------------------------------

static __device__ int grid_stride_block_sum(const int *in, int n)
{
    int v = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        v += in[i];
    return fences_block_sum(v);
}

// Called by the whole last block, once every partial is published.
static __device__ int sum_of_partials(const int *partials)
{
    int s = 0;
    for (int b = threadIdx.x; b < (int)gridDim.x; b += blockDim.x)
        s += partials[b];
    return fences_block_sum(s);
}

__global__ void single_pass_sum(const int *in, int n, int *partials, unsigned int *counter,
                                int *result)
{
    __shared__ bool is_last;
    const int block_total = grid_stride_block_sum(in, n);

    if (threadIdx.x == 0) {
        partials[blockIdx.x] = block_total;
        // The partial must be visible GPU-wide before the ticket is: whoever
        // draws the last ticket reads every partial right away.
        __threadfence();
        const unsigned int ticket = atomicInc(counter, gridDim.x);
        is_last = (ticket == gridDim.x - 1);
        if (is_last)
            __threadfence();  // acquire side: read the partials after the ticket
    }
    __syncthreads();
    if (!is_last)
        return;  // uniform: the whole block leaves or stays

    const int total = sum_of_partials(partials);
    if (threadIdx.x == 0) {
        *result = total;
        // Every block has drawn its ticket: nobody touches the counter any
        // more in this launch. A plain store is enough, the end of the
        // kernel makes it visible to the next launch.
        *counter = 0;
    }
}
