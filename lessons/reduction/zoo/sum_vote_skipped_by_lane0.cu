// EXPECT sum_int SYNC static
// An early out for warps of zeros, written lane != 0 && __all_sync(...):
// lane 0 short-circuits past the full-mask vote and goes on to the
// shuffles while the 31 others vote. A warp collective only meets the same
// one (same opcode and qualifiers, PTX ISA): undefined; found in the PTX.
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
    /* skip the shuffles when the warp holds only zeros; lane 0 needs no
     * vote, it thought, since the others will tell */
    if (!(lane != 0 && __all_sync(0xffffffffu, acc == 0)))  /* BUG (sync): lane 0 skips the vote */
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
