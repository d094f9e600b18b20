// EXPECT tree_reduce RULE
// The atomic of tree_atomic.cu moved into a __noinline__ helper: the kernel
// itself only calls it, but the rules follow the call graph, so the
// helper's atom. counts as the exercise's.
#define tree_reduce tree_reduce_reference
#include "../../../solutions/reduction.cu"
#undef tree_reduce

__device__ __noinline__ void add_to_total(int *total, int value)
{
    atomicAdd(total, value);          /* BUG (rule): atomics instead of the tree */
}

__global__ void tree_reduce(const int *in, int *out, int n)
{
    __shared__ int total;
    unsigned tid = threadIdx.x;
    long long i = (long long)blockIdx.x * blockDim.x + tid;

    if (tid == 0)
        total = 0;
    __syncthreads();
    if (i < n)
        add_to_total(&total, in[i]);
    __syncthreads();
    if (tid == 0)
        out[blockIdx.x] = total;
}
