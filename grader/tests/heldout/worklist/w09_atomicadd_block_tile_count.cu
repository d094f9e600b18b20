// EXPECT compact RULE
// Bug (forbidden): "block-scope atomics are not real atomics": each tile's
// kept count is accumulated with atomicAdd_block into tile_count[b] (global,
// zeroed first), then scanned and scattered with ballot ranks. The count is
// even deterministic, but it is an atom (.cta) all the same.
#define compact compact_reference
#include "../../../../solutions/worklist.cu"
#undef compact

__global__ void ab_count(const int *in, int n, int threshold, int *tile_count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && compact_keep(in[i], threshold))
        atomicAdd_block(&tile_count[blockIdx.x], 1);   // BUG: an atomic
}

__global__ void ab_scatter(const int *in, int n, int threshold, const int *tile_off, int *out)
{
    __shared__ int wc[32];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool keep = i < n && compact_keep(in[i], threshold);
    unsigned b = __ballot_sync(0xffffffffu, keep);
    if (lane == 0)
        wc[warp] = __popc(b);
    __syncthreads();
    int before = tile_off[blockIdx.x];
    for (int w = 0; w < warp; w++)
        before += wc[w];
    if (keep)
        out[before + __popc(b & ((1u << lane) - 1u))] = in[i];
}

void compact(const int *in, int n, int threshold, int *out, int *count, int *scratch, int block)
{
    if (n <= 0) {
        cudaMemset(count, 0, sizeof(int));
        return;
    }
    int tiles = (n + block - 1) / block;
    int *tc = scratch, *sums = scratch + tiles;
    cudaMemsetAsync(tc, 0, (size_t)tiles * sizeof(int));
    ab_count<<<tiles, block>>>(in, n, threshold, tc);
    exclusive_scan(tc, tc, tiles, count, sums, block);
    ab_scatter<<<tiles, block>>>(in, n, threshold, tc, out);
}
