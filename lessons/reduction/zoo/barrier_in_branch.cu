// EXPECT tree_reduce SYNC static
// The per-level __syncthreads() sits inside `if (tid < off)`: only part of
// the block (and, for off < 32, part of a warp) reaches it. Plain runs give
// the right sum, and synccheck stays silent on this rolled loop on the H100;
// the grader finds the barrier under a thread-dependent branch in the PTX.
#define tree_reduce tree_reduce_reference
#include "../../../solutions/reduction.cu"
#undef tree_reduce

__global__ void tree_reduce(const int *in, int *out, int n)
{
    extern __shared__ int s[];
    unsigned tid = threadIdx.x;
    long long i = (long long)blockIdx.x * blockDim.x + tid;

    s[tid] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned off = blockDim.x / 2; off > 0; off /= 2) {
        if (tid < off) {
            s[tid] += s[tid + off];
            __syncthreads();          /* BUG: reached by threads tid < off only */
        }
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}
