// EXPECT block_exclusive_scan RACE
// Exclusive from inclusive by shifting right in place: thread t reads
// s[t - 1] while thread t - 1 overwrites it, with no barrier in between.
#define block_exclusive_scan block_exclusive_scan_reference
#include "../../../solutions/scan.cu"
#undef block_exclusive_scan

__global__ void block_exclusive_scan(const int *in, int *out, int n)
{
    extern __shared__ int s[];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;

    s[tid] = (i < n) ? in[i] : 0;
    __syncthreads();
    for (int off = 1; off < blockDim.x; off *= 2) {   // a correct inclusive scan
        int add = (tid >= off) ? s[tid - off] : 0;
        __syncthreads();
        s[tid] += add;
        __syncthreads();
    }
    s[tid] = (tid > 0) ? s[tid - 1] : 0;   // BUG: needs read, barrier, write
    __syncthreads();
    if (i < n)
        out[i] = s[tid];
}
