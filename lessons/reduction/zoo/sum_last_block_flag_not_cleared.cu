// EXPECT sum_int WRONG
// Last-block sum whose __shared__ flag is set by the block that draws the
// last ticket and never cleared by the others: it relies on shared memory
// starting at 0. The harness fills shared memory with garbage before every
// launch, so every block sees a "set" flag and adds its view of the
// partials: the sum comes out far too large.
#include <cuda/atomic>
#define reduce_sum_int reduce_sum_int_reference
#include "../../../solutions/reduction.cu"
#undef reduce_sum_int

enum { FLAG_MAX_BLOCKS = 1024 };
__device__ int g_flag_partials[FLAG_MAX_BLOCKS];
__device__ unsigned int g_flag_tickets; // atomicInc wraps it back to 0 for the next launch

__global__ void __launch_bounds__(SUM_THREADS) flag_sum(const int *in, long long n, int *out)
{
    __shared__ int is_last;
    int acc = 0;
    for (long long i = (long long)blockIdx.x * SUM_THREADS + threadIdx.x; i < n;
         i += (long long)gridDim.x * SUM_THREADS)
        acc += in[i];
    acc = block_sum(acc); // valid in thread 0
    if (threadIdx.x == 0) {
        g_flag_partials[blockIdx.x] = acc;
        cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_device);
        unsigned int ticket = atomicInc(&g_flag_tickets, gridDim.x - 1);
        cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
        if (ticket == gridDim.x - 1)
            is_last = 1; // BUG: never set to 0 in the other blocks
    }
    __syncthreads();
    if (is_last) {
        int s = 0;
        for (int b = threadIdx.x; b < (int)gridDim.x; b += SUM_THREADS)
            s += g_flag_partials[b];
        s = block_sum(s);
        if (threadIdx.x == 0)
            atomicAdd(out, s);
    }
}

void reduce_sum_int(const int *d_in, long long n, int *d_out)
{
    cudaMemsetAsync(d_out, 0, sizeof *d_out);
    if (n <= 0)
        return;
    long long want = (n + SUM_THREADS - 1) / SUM_THREADS;
    int blocks = (int)(want < FLAG_MAX_BLOCKS ? want : FLAG_MAX_BLOCKS);
    flag_sum<<<blocks, SUM_THREADS>>>(d_in, n, d_out);
}
