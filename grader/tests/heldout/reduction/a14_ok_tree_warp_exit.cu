// EXPECT tree_reduce PASS
// Correct: tree with barriers down to 64 slots; then every warp but warp 0
// returns (after the last barrier) and warp 0 finishes with __syncwarp().
#define tree_reduce tree_reduce_reference
#include "../../../../solutions/reduction.cu"
#undef tree_reduce

__global__ void tree_reduce(const int *in, int *out, int n)
{
    extern __shared__ int s[];
    unsigned tid = threadIdx.x;
    long long i = (long long)blockIdx.x * blockDim.x + tid;
    s[tid] = i < n ? in[i] : 0;
    __syncthreads();
    unsigned off = blockDim.x / 2;
    for (; off >= 32; off /= 2) {
        if (tid < off)
            s[tid] += s[tid + off];
        __syncthreads();
    }
    if (tid >= 32)
        return;           // whole warps leave after the last barrier
    for (; off > 0; off /= 2) {
        int sum = 0;
        if (tid < off)
            sum = s[tid] + s[tid + off];
        __syncwarp();
        if (tid < off)
            s[tid] = sum;
        __syncwarp();
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}
