// EXPECT half_block PASS
// Correct: thread_block_tile<16> everywhere; tile.sync() (member) inside a
// branch on tile.meta_group_rank(), which is uniform within the tile.
#define half_block half_block_reference
#include "../../../../solutions/coop.cu"
#undef half_block

__global__ void half_block(const int *in, int n, int *out)
{
    __shared__ int temp[COOP_MAX_BLOCK / 2];
    __shared__ int tile_sums[COOP_MAX_BLOCK / 32];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
    int half = (int)blockDim.x / 2;
    int base = blockIdx.x * blockDim.x;
    int r = (int)block.thread_rank();
    unsigned ntiles = (unsigned)half / 16;
    if (tile.meta_group_rank() < ntiles) {
        int a = base + r, b = base + r + half;
        int v = (a < n ? in[a] : 0) + (b < n ? in[b] : 0);
        int *my = temp + tile.meta_group_rank() * 16;
        int rank = (int)tile.thread_rank();
        for (int h = 8; h > 0; h /= 2) {
            my[rank] = v;
            tile.sync();
            if (rank < h)
                v += my[rank + h];
            tile.sync();
        }
        if (rank == 0)
            tile_sums[tile.meta_group_rank()] = v;
    }
    cg::sync(block);
    int chunk_sum = 0;
    for (unsigned t = 0; t < ntiles; t++)
        chunk_sum += tile_sums[t];
    int i = base + r;
    if (i < n)
        out[i] = chunk_sum - in[i];
}
