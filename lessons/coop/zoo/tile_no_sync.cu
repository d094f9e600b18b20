// EXPECT tile_reduce RACE
// The shared-memory tile reduction without g.sync(): a tile's reads of temp[]
// race with its writes (racecheck: warp-level hazards inside the tile).
#define tile_reduce tile_reduce_reference
#include "../../../solutions/coop.cu"
#undef tile_reduce

__device__ int reduce_shared_without_sync(cg::thread_group g, int *temp, int val)
{
    int rank = (int)g.thread_rank();
    for (int half = (int)g.size() / 2; half > 0; half /= 2) {
        temp[rank] = val;
        /* BUG: no g.sync() here ... */
        if (rank < half)
            val += temp[rank + half];
        /* ... nor here. */
    }
    return val;
}

__global__ void tile_reduce(const int *in, int n, int tile_size,
                            int *sums_shared, int *sums_shfl, unsigned *neg_mask)
{
    __shared__ int temp[COOP_MAX_BLOCK];
    cg::thread_block block = cg::this_thread_block();
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int v = g < n ? in[g] : 0;
    int tile_index = g / tile_size;

    cg::thread_group tile = cg::tiled_partition(block, tile_size);
    int *tile_temp = temp + (block.thread_rank() - tile.thread_rank());
    int sum = reduce_shared_without_sync(tile, tile_temp, v);
    if (tile.thread_rank() == 0)
        sums_shared[tile_index] = sum;

    switch (tile_size) {
    case 4:  tile_shfl_and_ballot<4>(block, v, tile_index, sums_shfl, neg_mask); break;
    case 8:  tile_shfl_and_ballot<8>(block, v, tile_index, sums_shfl, neg_mask); break;
    case 16: tile_shfl_and_ballot<16>(block, v, tile_index, sums_shfl, neg_mask); break;
    case 32: tile_shfl_and_ballot<32>(block, v, tile_index, sums_shfl, neg_mask); break;
    }
}
