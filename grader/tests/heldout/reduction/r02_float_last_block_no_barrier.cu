// EXPECT sum_float RULE
// BUG: same as r01 but WITHOUT the __syncthreads() between the per-warp partial stores and thread 0's release + ticket:
// the other warps' partials are not ordered before (maybe not even written before) the ticket
#include <cuda/atomic>
#define reduce_sum_float reduce_sum_float_reference
#include "../../../../solutions/reduction.cu"
#undef reduce_sum_float

enum { R_BLOCKS = 512, R_WARPS = SUM_THREADS / 32 };
__device__ float r_partials[R_BLOCKS * R_WARPS];
__device__ unsigned r_counter;

__global__ void __launch_bounds__(SUM_THREADS) r_sum(const float *in, long long n, float *out)
{
    __shared__ bool is_last;
    float acc = 0;
    for (long long i = (long long)blockIdx.x * SUM_THREADS + threadIdx.x; i < n; i += (long long)gridDim.x * SUM_THREADS)
        acc += in[i];
    acc = warp_sum(acc);
    if (threadIdx.x % 32 == 0) r_partials[blockIdx.x * R_WARPS + threadIdx.x / 32] = acc;
    if (threadIdx.x == 0) {
        cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_device);
        is_last = atomicInc(&r_counter, gridDim.x - 1) == gridDim.x - 1;
        if (is_last) cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
    }
    __syncthreads();
    if (!is_last) return;
    float s = 0;
    for (int k = threadIdx.x; k < (int)gridDim.x * R_WARPS; k += SUM_THREADS) s += r_partials[k];
    s = block_sum(s);
    if (threadIdx.x == 0) *out = s;
}

void reduce_sum_float(const float *d_in, long long n, float *d_out)
{
    long long want = (n + SUM_THREADS - 1) / SUM_THREADS;
    int blocks = (int)(want < R_BLOCKS ? want : R_BLOCKS);
    r_sum<<<blocks, SUM_THREADS>>>(d_in, n, d_out);
}
