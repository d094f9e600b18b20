// EXPECT sum_int SYNC static
// The second level sums the 8 warp totals with a full-mask shuffle inside
// if (threadIdx.x < 8): lanes 8-31 of warp 0 never reach it. Undefined;
// found in the PTX.
#define reduce_sum_int reduce_sum_int_reference
#include "../../../solutions/reduction.cu"
#undef reduce_sum_int

__global__ void sum_int_blocks(const int *in, long long n, int *out)
{
    __shared__ int warp_total[8];
    unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int acc = 0;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x)
        acc += in[i];
    for (int o = 16; o > 0; o /= 2)
        acc += __shfl_down_sync(0xffffffffu, acc, o);
    if (lane == 0)
        warp_total[warp] = acc;
    __syncthreads();
    if (threadIdx.x < 8) {
        acc = warp_total[threadIdx.x];
        for (int o = 4; o > 0; o /= 2)
            acc += __shfl_down_sync(0xffffffffu, acc, o);
        if (threadIdx.x == 0)
            atomicAdd(out, acc);
    }
}

void reduce_sum_int(const int *d_in, long long n, int *d_out)
{
    cudaMemsetAsync(d_out, 0, sizeof *d_out);
    if (n <= 0)
        return;
    long long blocks = (n + 255) / 256;
    if (blocks > 1024)
        blocks = 1024;
    sum_int_blocks<<<(int)blocks, 256>>>(d_in, n, d_out);
}
