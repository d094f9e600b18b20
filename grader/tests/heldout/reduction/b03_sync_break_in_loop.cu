// EXPECT tree_reduce SYNC static
// Bug: break out of the level loop once tid >= off: the barrier after it
// in the loop is then missed by the threads that left.
#define tree_reduce tree_reduce_reference
#include "../../../../solutions/reduction.cu"
#undef tree_reduce

__global__ void tree_reduce(const int *in, int *out, int n)
{
    extern __shared__ int s[];
    unsigned tid = threadIdx.x;
    long long i = (long long)blockIdx.x * blockDim.x + tid;
    s[tid] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned off = blockDim.x / 2; off > 0; off /= 2) {
        if (tid >= off)
            break;       // BUG
        s[tid] += s[tid + off];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}
