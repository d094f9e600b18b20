// EXPECT half_block SYNC|TIMEOUT
// The thread_group handed to group_sum under `if (r < half)` is the whole
// block (this_thread_block() as a plain thread_group), not a tile: its
// sync() is a block-wide barrier that only the first half reaches.
#define half_block half_block_reference
#include "../../../../solutions/coop.cu"
#undef half_block

__global__ void half_block(const int *in, int n, int *out)
{
    __shared__ int temp[COOP_MAX_BLOCK / 2];
    __shared__ int tile_sums[COOP_MAX_BLOCK / 64];
    cg::thread_block block = cg::this_thread_block();
    int half = (int)blockDim.x / 2;
    int tile_size = half < 32 ? half : 32;
    cg::thread_group tile = block;   /* BUG: the whole block, not a tile */
    int base = blockIdx.x * blockDim.x;
    int r = (int)block.thread_rank();

    /* The first half of the block is exactly tiles 0 .. half / tile_size - 1. */
    if (r < half) {
        int a = base + r, b = base + r + half;
        int v = (a < n ? in[a] : 0) + (b < n ? in[b] : 0);
        int *tile_temp = temp + (r - r % tile_size);
        int s = group_sum(tile, tile_temp, v);   /* waits for the other half too */
        if (r % tile_size == 0)
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
