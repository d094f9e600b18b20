// EXPECT block_inclusive_scan SYNC
// Threads past n return before the loop: the barriers are no longer reached
// by the whole block in a partial last tile.
#define block_inclusive_scan block_inclusive_scan_reference
#include "../solutions/scan.cu"
#undef block_inclusive_scan

__global__ void block_inclusive_scan(const int *in, int *out, int n)
{
    extern __shared__ int s[];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;

    if (i >= n)
        return;   // BUG: these threads skip every barrier below
    s[tid] = in[i];
    __syncthreads();
    for (int off = 1; off < blockDim.x; off *= 2) {
        int add = (tid >= off) ? s[tid - off] : 0;
        __syncthreads();
        s[tid] += add;
        __syncthreads();
    }
    out[i] = s[tid];
}
