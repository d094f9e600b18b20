// EXPECT tree_reduce RACE
// The old "unrolled last warp" trick: below 32 the levels run without any
// barrier, trusting the warp to run in lockstep. Since Volta a warp's
// threads may diverge and interleave: each level needs __syncwarp() (or
// shuffles). racecheck reports warp-level hazards.
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
    if (tid < 32) {                       /* levels 16, 8, ..., 1 inside warp 0 */
        volatile int *v = s;
        for (unsigned off = 16; off > 0; off /= 2)
            if (tid < off)
                v[tid] += v[tid + off];   /* BUG: no __syncwarp() between levels */
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}
