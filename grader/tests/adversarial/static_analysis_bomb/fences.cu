// Keeps the grader's memory-order analysis busy: 200 groups of wait, fenced
// read, store, fence and flag in code that never runs (n < 0). Each wait is
// checked against every flag and every store on every path, so the work
// grows with their product: without a budget the static stage ran past
// 10 minutes on this file. With one (grader/static/ptx_budget.h) it stops
// after its steps, in seconds, and the verdict is RULE ("too large or too
// complex for the grader's static analysis"), never a PASS or a hang.
// The kernels are the reference solution's otherwise.
#include "fences.h"

// One group: wait for flag k+1, read its data after a fence, then store
// data k, fence, raise flag k.
#define GROUP(k)                                                                   \
    while (*(volatile int *)&flags[(k) + 1] == 0) {                                \
    }                                                                              \
    __threadfence();                                                               \
    out[(k)] = data[(k) + 1];                                                      \
    data[(k)] = (k);                                                               \
    __threadfence();                                                               \
    *(volatile int *)&flags[(k)] = 1;
#define GROUP10(k)                                                                 \
    GROUP((k) * 10 + 0) GROUP((k) * 10 + 1) GROUP((k) * 10 + 2) GROUP((k) * 10 + 3)  \
    GROUP((k) * 10 + 4) GROUP((k) * 10 + 5) GROUP((k) * 10 + 6) GROUP((k) * 10 + 7)  \
    GROUP((k) * 10 + 8) GROUP((k) * 10 + 9)
#define GROUP200                                                                   \
    GROUP10(0) GROUP10(1) GROUP10(2) GROUP10(3) GROUP10(4) GROUP10(5) GROUP10(6)     \
    GROUP10(7) GROUP10(8) GROUP10(9) GROUP10(10) GROUP10(11) GROUP10(12)            \
    GROUP10(13) GROUP10(14) GROUP10(15) GROUP10(16) GROUP10(17) GROUP10(18)         \
    GROUP10(19)

static __device__ __forceinline__ void never_runs(int *data, int *flags, int *out)
{
    GROUP200
}


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
    if (words < 0)
        never_runs(mailbox, flags, out);
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
    if (n < 0)
        never_runs(partials, (int *)counter, result);
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
