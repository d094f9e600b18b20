// EXPECT tree_reduce PASS
// The level's add in a helper the student put in a namespace of their own
// named cub: the name is the student's choice, the code is the student's
// (every line of it in this file), so it is not CUB's library code. What is
// CUB's is decided by the compiler's list of the headers it read.
#define tree_reduce tree_reduce_reference
#include "../../../solutions/reduction.cu"
#undef tree_reduce

namespace cub {
__device__ __noinline__ void level_add(int *s, unsigned tid, unsigned off)
{
    s[tid] += s[tid + off];
}
}

__global__ void tree_reduce(const int *in, int *out, int n)
{
    extern __shared__ int s[];
    unsigned tid = threadIdx.x;
    long long i = (long long)blockIdx.x * blockDim.x + tid;

    s[tid] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned off = blockDim.x / 2; off > 0; off /= 2) {
        if (tid < off)
            cub::level_add(s, tid, off);
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}
