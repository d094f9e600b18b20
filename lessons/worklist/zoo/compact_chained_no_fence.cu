// EXPECT compact RULE
// compact as a single-pass chained scan (no atomics, as the lesson asks):
// block b waits for block b - 1's flag, reads its running count, publishes
// its own, then scatters. No fences: the flag may be seen before the count
// it stands for, and the count read before the flag (reader side). (Waiting
// on block b - 1 by blockIdx also assumes blocks start in index order.)
#define compact compact_reference
#include "../../../solutions/worklist.cu"
#undef compact

__global__ void compact_chained(const int *in, int n, int threshold, int *out, int *count,
                                int *prefix, int *ready)
{
    __shared__ int s_before;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int keep = i < n && compact_keep(in[i], threshold);
    int incl = block_inclusive_scan(keep);   // whole block
    if (threadIdx.x == blockDim.x - 1) {
        int before = 0;
        if (blockIdx.x > 0) {
            while (((volatile int *)ready)[blockIdx.x - 1] == 0) {
            }
            before = ((volatile int *)prefix)[blockIdx.x - 1];   // BUG: no fence after the wait
        }
        prefix[blockIdx.x] = before + incl;
        // BUG: no __threadfence() between the count and its flag
        ((volatile int *)ready)[blockIdx.x] = 1;
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
