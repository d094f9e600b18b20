// EXPECT sum_int PASS
// The same early out with the whole warp voting: __all_sync(0xffffffff,
// acc == 0) gives every lane the same answer, so the warp skips the
// shuffles together or runs them together.
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
    /* skip the shuffles when the warp holds only zeros: every lane votes,
     * so every lane gets the same answer and the whole warp skips or not */
    if (!__all_sync(0xffffffffu, acc == 0))
        for (int o = 16; o > 0; o /= 2)
            acc += __shfl_down_sync(0xffffffffu, acc, o);
    if (lane == 0)
        warp_total[warp] = acc;
    __syncthreads();
    if (warp == 0) {
        acc = lane < 8 ? warp_total[lane] : 0;
        for (int o = 16; o > 0; o /= 2)
            acc += __shfl_down_sync(0xffffffffu, acc, o);
        if (lane == 0)
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
