// EXPECT tree_reduce RULE
// Right and race-free, but not a tree: every thread atomically adds into
// one shared counter, so the block's adds are serialized (forbidden here).
#define tree_reduce tree_reduce_reference
#include "../../../solutions/reduction.cu"
#undef tree_reduce

__global__ void tree_reduce(const int *in, int *out, int n)
{
    __shared__ int total;
    unsigned tid = threadIdx.x;
    long long i = (long long)blockIdx.x * blockDim.x + tid;

    if (tid == 0)
        total = 0;
    __syncthreads();
    if (i < n)
        atomicAdd(&total, in[i]);     /* BUG (rule): atomics instead of the tree */
    __syncthreads();
    if (tid == 0)
        out[blockIdx.x] = total;
}
