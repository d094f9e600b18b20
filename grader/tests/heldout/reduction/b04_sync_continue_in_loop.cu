// EXPECT mirrored_reduce SYNC static
// Bug: continue skips the barriers for threads tid >= 2*off.
#define mirrored_reduce mirrored_reduce_reference
#include "../../../../solutions/reduction.cu"
#undef mirrored_reduce

__global__ void mirrored_reduce(const int *in, int *out, int n)
{
    extern __shared__ int s[];
    unsigned tid = threadIdx.x;
    long long i = (long long)blockIdx.x * blockDim.x + tid;
    s[tid] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned off = blockDim.x / 2; off > 0; off /= 2) {
        if (tid >= 2 * off)
            continue;    // BUG
        int mirror = s[2 * off - tid - 1];
        __syncthreads();
        s[tid] += mirror;
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}
