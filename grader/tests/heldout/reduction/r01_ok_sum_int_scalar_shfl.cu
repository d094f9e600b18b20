// EXPECT sum_int PASS
// Correct: plain grid-stride loop of scalar loads, __shfl_down_sync warp sums, warp totals
// through shared memory + __syncthreads, one atomicAdd per block.
#define reduce_sum_int reduce_sum_int_reference
#include "../../../../solutions/reduction.cu"
#undef reduce_sum_int

__global__ void my_sum(const int *in, long long n, int *out)
{
    __shared__ int wt[32];
    int acc = 0;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x)
        acc += in[i];
    for (int o = 16; o > 0; o /= 2) acc += __shfl_down_sync(0xffffffffu, acc, o);
    if (threadIdx.x % 32 == 0) wt[threadIdx.x / 32] = acc;
    __syncthreads();
    if (threadIdx.x < 32) {
        acc = threadIdx.x < blockDim.x / 32 ? wt[threadIdx.x] : 0;
        for (int o = 16; o > 0; o /= 2) acc += __shfl_down_sync(0xffffffffu, acc, o);
        if (threadIdx.x == 0) atomicAdd(out, acc);
    }
}

void reduce_sum_int(const int *d_in, long long n, int *d_out)
{
    cudaMemsetAsync(d_out, 0, sizeof *d_out);
    if (n <= 0) return;
    long long b = (n + 511) / 512;
    my_sum<<<b < 2048 ? (int)b : 2048, 512>>>(d_in, n, d_out);
}
