// EXPECT message_pass RULE
// Lesson 2: fences. Reference solution.
#include "fences.h"

// ---------------------------------------------------------------------------
// message_pass: block p produces for block p + P (P = gridDim.x / 2).
// Producers are the low block numbers: even a GPU that ran blocks one after
// the other in order would finish every producer before its consumer spins.
// ---------------------------------------------------------------------------

static __device__ void produce(const int *in, int *mailbox, int *flags, int words, int pair)
{
    const int base = pair * words;
    for (int i = threadIdx.x; i < words; i += blockDim.x)
        mailbox[base + i] = in[base + i];
    // Order this thread's payload stores before anything it (or, through the
    // barrier below, thread 0) writes later, as seen from ANY block:
    // gpu scope, because the reader is another block. One fence per thread
    // is correct here only because __threadfence() is fence.sc.gpu (SC
    // fences are totally ordered); the cheaper recipe of the docs is the
    // barrier first, then thread 0 alone fences and raises the flag
    // (zoo: ok_thread_fence.cu, ok_atomic_ref.cu).
    __threadfence();
    __syncthreads();  // every thread's payload is written and fenced
    if (threadIdx.x == 0)
        *(volatile int *)&flags[pair] = 1;  // volatile: a real store, now
}

// RED TEAM: the consumer's "acquire" is an acquire load of an UNRELATED
// location (a __device__ word nobody releases), instead of a fence or an
// acquire on the flag. In the PTX memory model an acquire pattern is on a
// location: ld.acquire of rt_other does not synchronize with the producer's
// release on flags[pair], so the payload reads are unordered after the flag.
#include <cuda/atomic>
__device__ int rt_other;

static __device__ void consume(int *mailbox, int *flags, int *out, int words, int pair)
{
    if (threadIdx.x == 0) {
        while (*(volatile int *)&flags[pair] == 0) {
        }
        cuda::atomic_ref<int, cuda::thread_scope_device> other(rt_other);
        (void)other.load(cuda::memory_order_acquire);   // not the flag
    }
    __syncthreads();
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
