// EXPECT half_block PASS
// Correct: the reference's half_block with one run-time partition, a plain
// cg::thread_group, instead of the typed tiles. group_sum(g) then syncs a
// thread_group, whose sync() compiles to a switch over every kind of group
// (block and grid cases hold bar.sync). Whole tiles take the branch, so
// those cases are dead code: not a divergent barrier (docs/06-coop.md).
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
    cg::thread_group tile = cg::tiled_partition(block, tile_size);   /* every thread */
    int base = blockIdx.x * blockDim.x;
    int r = (int)block.thread_rank();

    /* The first half of the block is exactly tiles 0 .. half / tile_size - 1. */
    if (r < half) {
        int a = base + r, b = base + r + half;
        int v = (a < n ? in[a] : 0) + (b < n ? in[b] : 0);
        int *tile_temp = temp + (r - r % tile_size);
        int s = group_sum(tile, tile_temp, v);   /* a thread_group: sync() is a switch */
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
