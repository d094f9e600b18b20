// EXPECT compact RULE
// chain_ldcg_ctaid.cu with the wait in a __noinline__ helper that spins and fences:
// the memory order is right, but block b still waits for block b - 1 chosen by
// blockIdx, through the helper's parameter: no forward progress
#define compact compact_reference
#include "../../../solutions/worklist.cu"
#undef compact

static __device__ __noinline__ void wait_ready(int *r)
{
    while (*(volatile int *)r == 0) { }
    __threadfence();
}

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
            wait_ready(&ready[blockIdx.x - 1]);   // BUG: blockIdx chain
            before = ((volatile int *)prefix)[blockIdx.x - 1];
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
