// EXPECT block_inclusive_scan WRONG
// tid > off instead of tid >= off: thread off never adds s[0] (and, later,
// the slot exactly off to its left), so sums come out short. Race-free,
// so only the comparison with the CPU reference sees it.
#define block_inclusive_scan block_inclusive_scan_reference
#include "../../../solutions/scan.cu"
#undef block_inclusive_scan

__global__ void block_inclusive_scan(const int *in, int *out, int n)
{
    extern __shared__ int s[];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;

    s[tid] = (i < n) ? in[i] : 0;
    __syncthreads();
    for (int off = 1; off < blockDim.x; off *= 2) {
        int add = (tid > off) ? s[tid - off] : 0;   // BUG: must be tid >= off
        __syncthreads();
        s[tid] += add;
        __syncthreads();
    }
    if (i < n)
        out[i] = s[tid];
}
