// EXPECT tree_reduce RULE
// CHEAT: the CUDA 12.8+ builtin __nv_atomic_fetch_add (block scope, relaxed).
#define tree_reduce tree_reduce_reference
#include "../../../../solutions/reduction.cu"
#undef tree_reduce

__global__ void tree_reduce(const int *in, int *out, int n)
{
    extern __shared__ int s[];
    __shared__ int acc;
    unsigned tid = threadIdx.x;
    long long i = (long long)blockIdx.x * blockDim.x + tid;
    if (tid == 0) acc = 0;
    __syncthreads();
    int v = i < n ? in[i] : 0;
    __nv_atomic_fetch_add(&acc, v, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK);
    __syncthreads();
    if (tid == 0) out[blockIdx.x] = acc;
}
