// EXPECT sum_int SYNC static
// Bug: lanes whose sum is 0 sit the warp sum out, and the others shuffle
// down with mask = __activemask(): __shfl_down_sync reads lane + o, which
// may be one of the lanes that left (not in the mask), and lane 0, which
// adds the result, may have left too.
#define reduce_sum_int reduce_sum_int_reference
#include "../../../../solutions/reduction.cu"
#undef reduce_sum_int

__global__ void sum_int_active(const int *in, long long n, int *out)
{
    int acc = 0;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x)
        acc += in[i];
    if (acc != 0) {
        unsigned m = __activemask();
        for (int o = 16; o > 0; o /= 2)
            acc += __shfl_down_sync(m, acc, o);
        if ((threadIdx.x & 31) == 0)
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
    sum_int_active<<<(int)blocks, 256>>>(d_in, n, d_out);
}
