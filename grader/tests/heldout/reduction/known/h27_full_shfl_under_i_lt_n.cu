// EXPECT sum_int SYNC static
// Bug the static stages miss: one element per thread, the warp sum with a
// full-mask shuffle inside if (i < n). In the last warp the lanes past n
// never reach it. The condition is on a parameter, which the lane check
// does not follow (a warp-uniform condition on a parameter is common and
// correct).
#define reduce_sum_int reduce_sum_int_reference
#include "../../../../../solutions/reduction.cu"
#undef reduce_sum_int

__global__ void sum_int_guarded(const int *in, long long n, int *out)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = in[i];
        for (int o = 16; o > 0; o /= 2)
            v += __shfl_down_sync(0xffffffffu, v, o);
        if ((threadIdx.x & 31) == 0)
            atomicAdd(out, v);
    }
}

void reduce_sum_int(const int *d_in, long long n, int *d_out)
{
    cudaMemsetAsync(d_out, 0, sizeof *d_out);
    if (n > 0)
        sum_int_guarded<<<(unsigned)((n + 255) / 256), 256>>>(d_in, n, d_out);
}
