// EXPECT tree_reduce PASS
// Correct, in another spelling: __syncthreads() levels down to 32 slots,
// then the first warp finishes with __syncwarp() between the reads and the
// writes of each level. It must stay clean on one-warp blocks too, where
// only the warp part runs.
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
    for (unsigned off = blockDim.x / 2; off >= 32; off /= 2) {
        if (tid < off)
            s[tid] += s[tid + off];
        __syncthreads();
    }
    if (tid < 32) {
        for (unsigned off = 16; off > 0; off /= 2) {
            int sum = 0;
            if (tid < off)
                sum = s[tid] + s[tid + off];
            __syncwarp();   /* every read of this level before any write */
            if (tid < off)
                s[tid] = sum;
            __syncwarp();   /* every write before the next level reads */
        }
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}
