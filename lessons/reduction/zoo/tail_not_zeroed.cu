// EXPECT tree_reduce WRONG
// Threads past n skip their shared slot instead of storing 0, so a partial
// last block sums whatever garbage shared memory held. No tool sees it
// (initcheck watches global memory only): only the full runs' results do.
#define tree_reduce tree_reduce_reference
#include "../../../solutions/reduction.cu"
#undef tree_reduce

__global__ void tree_reduce(const int *in, int *out, int n)
{
    extern __shared__ int s[];
    unsigned tid = threadIdx.x;
    long long i = (long long)blockIdx.x * blockDim.x + tid;

    if (i < n)
        s[tid] = in[i];               /* BUG: no s[tid] = 0 for i >= n */
    __syncthreads();
    for (unsigned off = blockDim.x / 2; off > 0; off /= 2) {
        if (tid < off)
            s[tid] += s[tid + off];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}
