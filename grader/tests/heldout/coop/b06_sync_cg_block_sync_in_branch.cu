// EXPECT half_block SYNC static
// Bug: block.sync() (cg::thread_block) inside if (r < half).
#define half_block half_block_reference
#include "../../../../solutions/coop.cu"
#undef half_block

__global__ void half_block(const int *in, int n, int *out)
{
    __shared__ int temp[COOP_MAX_BLOCK / 2];
    __shared__ int tile_sums[COOP_MAX_BLOCK / 64];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    cg::thread_block_tile<16> tile16 = cg::tiled_partition<16>(block);
    int half = (int)blockDim.x / 2;
    int tile_size = half < 32 ? half : 32;
    int base = blockIdx.x * blockDim.x;
    int r = (int)block.thread_rank();
    if (r < half) {
        int a = base + r, b = base + r + half;
        int v = (a < n ? in[a] : 0) + (b < n ? in[b] : 0);
        int *tile_temp = temp + (r - r % tile_size);
        int s = tile_size == 16 ? group_sum(tile16, tile_temp, v) : group_sum(warp, tile_temp, v);
        if (r % tile_size == 0)
            tile_sums[r / tile_size] = s;
        block.sync();    // BUG: only the first half gets here
    }
    int chunk_sum = 0;
    for (int t = 0; t < half / tile_size; t++)
        chunk_sum += tile_sums[t];
    int i = base + r;
    if (i < n)
        out[i] = chunk_sum - in[i];
}
