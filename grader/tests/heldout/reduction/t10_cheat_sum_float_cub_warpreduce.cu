// EXPECT sum_float RULE
// CHEAT: cub::WarpReduce<float> for the warp sums (shuffles from CUB's header), one atomicAdd per warp.
#include <cub/warp/warp_reduce.cuh>
#define reduce_sum_float reduce_sum_float_reference
#include "../../../../solutions/reduction.cu"
#undef reduce_sum_float

__global__ void cf(const float *in, long long n, float *out)
{
    __shared__ cub::WarpReduce<float>::TempStorage ts[8];
    float acc = 0.f;
    for (long long i = (long long)blockIdx.x * 256 + threadIdx.x; i < n; i += (long long)gridDim.x * 256)
        acc += in[i];
    acc = cub::WarpReduce<float>(ts[threadIdx.x / 32]).Sum(acc);
    if (threadIdx.x % 32 == 0) atomicAdd(out, acc);
}

void reduce_sum_float(const float *d_in, long long n, float *d_out)
{
    cudaMemsetAsync(d_out, 0, sizeof *d_out);
    if (n <= 0) return;
    long long b = (n + 1023) / 1024;
    cf<<<b < 1024 ? (int)b : 1024, 256>>>(d_in, n, d_out);
}
