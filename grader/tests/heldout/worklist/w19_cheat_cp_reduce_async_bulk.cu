// EXPECT compact RULE
// Cheat / hidden atomic: each warp adds its kept count into its tile's
// counter with the sm_90 TMA bulk reduction
// cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 (an atomic
// read-modify-write of global memory, performed by the async proxy, like
// red.global.add), then the counts are scanned and scattered as in w09.
// The opcode starts with "cp.", not "atom."/"red.".
#define compact compact_reference
#include "../../../../solutions/worklist.cu"
#undef compact

// tc4: 4 unsigned per tile (16-byte aligned slots), zeroed by the launcher
__global__ void br_count(const int *in, int n, int threshold, unsigned *tc4)
{
    __shared__ alignas(16) unsigned slot[32][4];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned keep = i < n && compact_keep(in[i], threshold);
    unsigned c = __popc(__ballot_sync(0xffffffffu, keep));
    if (lane == 0) {
        slot[warp][0] = c;
        slot[warp][1] = slot[warp][2] = slot[warp][3] = 0;
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%0], [%1], 16;"
                     :: "l"(tc4 + 4 * (size_t)blockIdx.x),
                        "r"((unsigned)__cvta_generic_to_shared(&slot[warp][0]))
                     : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
}

__global__ void br_gather(const unsigned *tc4, int *tile_count, int tiles)
{
    int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b < tiles)
        tile_count[b] = (int)tc4[4 * (size_t)b];
}

__global__ void br_scatter(const int *in, int n, int threshold, const int *tile_off, int *out)
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
    // scratch is 256-byte aligned (cudaMalloc): tc4 at its start is 16-byte aligned
    unsigned *tc4 = (unsigned *)scratch;          // 4 * tiles
    int *tile_count = scratch + 4 * tiles, *sums = tile_count + tiles;
    cudaMemsetAsync(tc4, 0, 4 * (size_t)tiles * sizeof(unsigned));
    br_count<<<tiles, block>>>(in, n, threshold, tc4);
    br_gather<<<(tiles + block - 1) / block, block>>>(tc4, tile_count, tiles);
    exclusive_scan(tile_count, tile_count, tiles, count, sums, block);
    br_scatter<<<tiles, block>>>(in, n, threshold, tile_count, out);
}
