// EXPECT block_inclusive_scan RACE
// Hillis-Steele with its barriers skipped when the block is a single warp
// ("a warp runs in lockstep"). Since Volta the lanes of a warp interleave:
// lane t can read s[t - off] after its owner already added to it in the
// same step. The plain runs are right; racecheck sees it on the one-warp
// sanitizer inputs.
#define block_inclusive_scan block_inclusive_scan_reference
#include "../../../solutions/scan.cu"
#undef block_inclusive_scan

__global__ void block_inclusive_scan(const int *in, int *out, int n)
{
    extern __shared__ int s[];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    const bool several_warps = blockDim.x > warpSize;

    s[tid] = (i < n) ? in[i] : 0;
    if (several_warps)
        __syncthreads();
    for (int off = 1; off < blockDim.x; off *= 2) {
        int add = (tid >= off) ? s[tid - off] : 0;
        if (several_warps)   /* BUG: one warp needs __syncwarp() here */
            __syncthreads();
        s[tid] += add;
        if (several_warps)
            __syncthreads();
    }
    if (i < n)
        out[i] = s[tid];
}
