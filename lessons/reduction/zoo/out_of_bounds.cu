// EXPECT tree_reduce MEMORY
// Every thread loads in[i], also when i >= n in a partial last block: a
// read past the end of the input (memcheck names it).
#define tree_reduce tree_reduce_reference
#include "../../../solutions/reduction.cu"
#undef tree_reduce

__global__ void tree_reduce(const int *in, int *out, int n)
{
    extern __shared__ int s[];
    unsigned tid = threadIdx.x;
    long long i = (long long)blockIdx.x * blockDim.x + tid;

    s[tid] = in[i];                   /* BUG: no i < n guard */
    __syncthreads();
    for (unsigned off = blockDim.x / 2; off > 0; off /= 2) {
        if (tid < off)
            s[tid] += s[tid + off];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}
