// EXPECT block_inclusive_scan SYNC
#define block_inclusive_scan block_inclusive_scan_reference
#include "../solutions/scan.cu"
#undef block_inclusive_scan

__global__ void block_inclusive_scan(const int *in, int *out, int n)
{
    extern __shared__ int s[];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;

    s[tid] = (i < n) ? in[i] : 0;
    __syncthreads();
    for (int off = 1; off < blockDim.x; off *= 2) {
        if (tid >= off) {
            int add = s[tid - off];
            __syncthreads();
            s[tid] += add;
            __syncthreads();
        }
    }
    __syncthreads();
    if (i < n)
        out[i] = s[tid];
}
