// EXPECT sum_int RULE
// sum_last_block_no_acquire.cu with the ticket drawn in a __noinline__
// helper: the partial is fenced before the call, but nothing orders the
// last block's loads of the other partials after the ticket the helper
// returns. The memory-order check follows the call into the helper.
#define reduce_sum_int reduce_sum_int_reference
#include "../../../solutions/reduction.cu"
#undef reduce_sum_int

enum { LAST_MAX_BLOCKS = 1024 };
__device__ int g_partials[LAST_MAX_BLOCKS];
__device__ unsigned int g_tickets;   // atomicInc wraps it back to 0 for the next launch

static __device__ __noinline__ unsigned int take_ticket(unsigned int *tickets)
{
    return atomicInc(tickets, gridDim.x - 1);
}

__global__ void __launch_bounds__(SUM_THREADS) last_block_sum(const int *in, long long n, int *out)
{
    __shared__ bool is_last;
    int acc = 0;
    for (long long i = (long long)blockIdx.x * SUM_THREADS + threadIdx.x; i < n;
         i += (long long)gridDim.x * SUM_THREADS)
        acc += in[i];
    acc = block_sum(acc);   // valid in thread 0
    if (threadIdx.x == 0) {
        g_partials[blockIdx.x] = acc;
        __threadfence();
        unsigned int ticket = take_ticket(&g_tickets);
        is_last = ticket == gridDim.x - 1;
        // BUG: no __threadfence() between the last ticket and the reads below
    }
    __syncthreads();
    if (is_last) {
        int s = 0;
        for (int b = threadIdx.x; b < (int)gridDim.x; b += SUM_THREADS)
            s += g_partials[b];
        s = block_sum(s);
        if (threadIdx.x == 0)
            *out = s;
    }
}

void reduce_sum_int(const int *d_in, long long n, int *d_out)
{
    long long want = (n + SUM_THREADS - 1) / SUM_THREADS;
    int blocks = (int)(want < LAST_MAX_BLOCKS ? want : LAST_MAX_BLOCKS);
    last_block_sum<<<blocks, SUM_THREADS>>>(d_in, n, d_out);
}
