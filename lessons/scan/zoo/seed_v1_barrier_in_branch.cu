// EXPECT block_inclusive_scan RACE|SYNC
// The seed's v1: in-place Hillis-Steele with the barrier inside
// if (tid >= off). Threads 0 .. off-1 skip it, so it is not a barrier of the
// whole block, and it sits after the read AND the write of the step. On an
// H100 synccheck stayed silent (the threads that skip it had exited before
// the others arrived) and racecheck reported the in-place update.
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
        if (tid >= off) {
            s[tid] += s[tid - off];   // BUG: read and write in one step...
            __syncthreads();          // BUG: ...and a barrier threads 0 .. off-1 skip
        }
    }
    if (i < n)
        out[i] = s[tid];
}
