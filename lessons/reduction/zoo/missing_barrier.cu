// EXPECT tree_reduce RACE
// The per-level __syncthreads() is missing: a level reads partial sums that
// threads of another warp may not have written yet (the answer is often
// still right; racecheck sees the hazard).
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
        if (tid < off)
            s[tid] += s[tid + off];   /* BUG: no barrier before the next level reads */
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}
