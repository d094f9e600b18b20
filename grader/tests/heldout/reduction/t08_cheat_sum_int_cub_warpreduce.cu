// EXPECT sum_int RULE
// CHEAT: the block sum by cub::WarpReduce (inlined: only its header's .loc lines remain),
// then one atomicAdd per warp.
#include <cub/warp/warp_reduce.cuh>
#define reduce_sum_int reduce_sum_int_reference
#include "../../../../solutions/reduction.cu"
#undef reduce_sum_int

__global__ void cs(const int *in, long long n, int *out)
{
    __shared__ cub::WarpReduce<int>::TempStorage ts[8];
    int acc = 0;
    for (long long i = (long long)blockIdx.x * 256 + threadIdx.x; i < n; i += (long long)gridDim.x * 256)
        acc += in[i];
    acc = cub::WarpReduce<int>(ts[threadIdx.x / 32]).Sum(acc);
    if (threadIdx.x % 32 == 0) atomicAdd(out, acc);
}

void reduce_sum_int(const int *d_in, long long n, int *d_out)
{
    cudaMemsetAsync(d_out, 0, sizeof *d_out);
    if (n <= 0) return;
    long long b = (n + 1023) / 1024;
    cs<<<b < 1024 ? (int)b : 1024, 256>>>(d_in, n, d_out);
}
