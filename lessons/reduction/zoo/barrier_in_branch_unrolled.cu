// EXPECT tree_reduce SYNC static
// The same barrier inside `if (tid < off)`, with the levels unrolled over a
// constant bound: this form synccheck does report on the H100 ("Barrier
// error detected. Divergent thread(s) in warp"), and the PTX shows it too.
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
#pragma unroll
    for (unsigned off = 512; off > 0; off /= 2) {   /* 512 = the largest blockDim.x / 2 */
        if (off < blockDim.x && tid < off) {
            s[tid] += s[tid + off];
            __syncthreads();          /* BUG: reached by threads tid < off only */
        }
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}
