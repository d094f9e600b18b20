// EXPECT compact RULE
// chained compact spins with __ldcg on block b - 1 chosen by blockIdx: no forward progress
#define compact compact_reference
#include "../../../solutions/worklist.cu"
#undef compact

// compact as a single-pass chained scan over tiles of blockDim.x elements
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
            while (__ldcg(&ready[blockIdx.x - 1]) == 0) { }   // BUG: blockIdx chain (and a weak load)
            __threadfence();
            before = __ldcg(&prefix[blockIdx.x - 1]);
        }
        prefix[blockIdx.x] = before + incl;
        __threadfence();
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
