// EXPECT half_block PASS
// Correct, another spelling: the reference's half_block, but the tiles are
// handed to the non-template reduce_shared(cg::thread_group g, ...) of
// tile_reduce, called under `if (r < half)` that whole tiles take. Its
// g.sync() is the generic group's switch; only the tile case runs here.
#define half_block half_block_reference
#include "../../../solutions/coop.cu"
#undef half_block

__global__ void half_block(const int *in, int n, int *out)
{
    __shared__ int temp[COOP_MAX_BLOCK / 2];
    __shared__ int tile_sums[COOP_MAX_BLOCK / 64];
    cg::thread_block block = cg::this_thread_block();
    int half = (int)blockDim.x / 2;
    int tile_size = half < 32 ? half : 32;
    cg::thread_group tile = cg::tiled_partition(block, tile_size);
    int base = blockIdx.x * blockDim.x;
    int r = (int)block.thread_rank();

    if (r < half) {
        int a = base + r, b = base + r + half;
        int v = (a < n ? in[a] : 0) + (b < n ? in[b] : 0);
        int s = reduce_shared(tile, temp + (r - r % tile_size), v);
        if (tile.thread_rank() == 0)
            tile_sums[r / tile_size] = s;
    }
    block.sync();

    int chunk_sum = 0;
    for (int t = 0; t < half / tile_size; t++)
        chunk_sum += tile_sums[t];
    int i = base + r;
    if (i < n)
        out[i] = chunk_sum - in[i];
}
