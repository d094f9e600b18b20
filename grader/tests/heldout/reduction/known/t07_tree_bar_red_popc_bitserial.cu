// EXPECT tree_reduce RULE
// JUDGMENT/CHEAT: no tree, no atomic: the block sum bit by bit with __syncthreads_count
// (bar.red.popc, the barrier's hardware reduction): 32 barriers, count << b. Exact modulo 2^32.
#define tree_reduce tree_reduce_reference
#include "../../../../../solutions/reduction.cu"
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
    unsigned sum = 0;
    for (int b = 0; b < 32; b++)
        sum += (unsigned)__syncthreads_count(((unsigned)v >> b) & 1u) << b;
    if (tid == 0) acc = (int)sum;
    __syncthreads();
    if (tid == 0) out[blockIdx.x] = acc;
}
