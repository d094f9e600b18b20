// EXPECT compact RULE
// chained compact: the whole block polls a shared copy of block b - 1's flag that one thread refreshes; no fence on either side, blockIdx chain
#define compact compact_reference
#include "../../../solutions/worklist.cu"
#undef compact

__global__ void compact_chained(const int *in, int n, int threshold, int *out, int *count,
                                int *prefix, int *ready)
{
    __shared__ int s_seen, s_before;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int keep = i < n && compact_keep(in[i], threshold);
    int incl = block_inclusive_scan(keep);
    const int last = blockDim.x - 1;
    int before = 0;
    if (blockIdx.x > 0) {
        for (;;) {
            if (threadIdx.x == last) s_seen = ((volatile int *)ready)[blockIdx.x - 1];
            __syncthreads();
            if (s_seen) break;
            __syncthreads();
        }
        before = ((volatile int *)prefix)[blockIdx.x - 1];   // BUG: no acquire
    }
    if (threadIdx.x == last) {
        prefix[blockIdx.x] = before + incl;
        ((volatile int *)ready)[blockIdx.x] = 1;              // BUG: no release
        if (blockIdx.x == gridDim.x - 1)
            *count = before + incl;
        s_before = before;
    }
    __syncthreads();
    if (keep)
        out[s_before + incl - 1] = in[i];
}

void compact(const int *in, int n, int threshold, int *out, int *count, int *scratch, int block)
{
    if (n <= 0) {
        cudaMemset(count, 0, sizeof(int));
        return;
    }
    int tiles = (n + block - 1) / block;
    int *prefix = scratch, *ready = scratch + tiles;
    cudaMemsetAsync(ready, 0, (size_t)tiles * sizeof(int));
    compact_chained<<<tiles, block>>>(in, n, threshold, out, count, prefix, ready);
}
