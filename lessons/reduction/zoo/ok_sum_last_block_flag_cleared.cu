// EXPECT sum_int PASS
// Correct: the same last-block sum, every block writes its own flag
// (is_last = ticket == gridDim.x - 1), so the garbage shared memory starts
// with does not matter.
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
        is_last = ticket == gridDim.x - 1; // every block writes it
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
