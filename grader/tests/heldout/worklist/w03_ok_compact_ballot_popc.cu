// EXPECT compact PASS
// Correct: compaction ranked with warp votes. Pass 1 counts each tile's kept
// elements (__reduce_add_sync per warp, a shared array, __syncthreads); the
// reference's recursive exclusive_scan turns the tile counts into offsets and
// *count; pass 3 ranks each kept element by __popc(ballot & lanes below) plus
// the kept counts of the warps before it (__syncthreads_count-free, shared).
#define compact compact_reference
#include "../../../../solutions/worklist.cu"
#undef compact

__global__ void bc_count(const int *in, int n, int threshold, int *tile_count)
{
    __shared__ int wc[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned keep = i < n && compact_keep(in[i], threshold);
    unsigned c = __reduce_add_sync(0xffffffffu, keep);
    if (threadIdx.x % 32 == 0)
        wc[threadIdx.x / 32] = (int)c;
    __syncthreads();
    if (threadIdx.x == 0) {
        int s = 0;
        for (int w = 0; w < (int)blockDim.x / 32; w++)
            s += wc[w];
        tile_count[blockIdx.x] = s;
    }
}

__global__ void bc_scatter(const int *in, int n, int threshold, const int *tile_off, int *out)
{
    __shared__ int wc[32];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool keep = i < n && compact_keep(in[i], threshold);
    unsigned ballot = __ballot_sync(0xffffffffu, keep);
    int rank = __popc(ballot & ((1u << lane) - 1u));
    if (lane == 0)
        wc[warp] = __popc(ballot);
    __syncthreads();
    int before = tile_off[blockIdx.x];
    for (int w = 0; w < warp; w++)
        before += wc[w];
    if (keep)
        out[before + rank] = in[i];
}

void compact(const int *in, int n, int threshold, int *out, int *count, int *scratch, int block)
{
    if (n <= 0) {
        cudaMemset(count, 0, sizeof(int));
        return;
    }
    int tiles = (n + block - 1) / block;
    int *tile_count = scratch, *sums = scratch + tiles;
    bc_count<<<tiles, block>>>(in, n, threshold, tile_count);
    exclusive_scan(tile_count, tile_count, tiles, count, sums, block);
    bc_scatter<<<tiles, block>>>(in, n, threshold, tile_count, out);
}
