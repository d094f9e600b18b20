// EXPECT tree_reduce RACE
// "One warp runs in lockstep": the barriers are skipped when the block is a
// single warp. Since Volta the threads of a warp may interleave, so a level
// can read a slot before the level above wrote it. Every plain run passes;
// racecheck sees the hazards on the one-warp sanitizer inputs.
#define tree_reduce tree_reduce_reference
#include "../../../solutions/reduction.cu"
#undef tree_reduce

__global__ void tree_reduce(const int *in, int *out, int n)
{
    extern __shared__ int s[];
    unsigned tid = threadIdx.x;
    long long i = (long long)blockIdx.x * blockDim.x + tid;
    bool one_warp = blockDim.x == 32;

    s[tid] = i < n ? in[i] : 0;
    if (!one_warp)
        __syncthreads();
    for (unsigned off = blockDim.x / 2; off > 0; off /= 2) {
        if (tid < off)
            s[tid] += s[tid + off];
        if (!one_warp)   /* BUG: a warp needs __syncwarp() between levels */
            __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}
