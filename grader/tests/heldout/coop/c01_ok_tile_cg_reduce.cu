// EXPECT tile_reduce PASS
// Correct: sums_shfl by cg::reduce(tile, v, cg::plus<int>()) on thread_block_tile<4/8/16/32>,
// neg_mask by tile.ballot; sums_shared by the runtime-partition shared tree.
#define tile_reduce tile_reduce_reference
#include "../../../../solutions/coop.cu"
#undef tile_reduce

template <unsigned N>
__device__ void by_cg_reduce(cg::thread_block block, int v, int t, int *sums_shfl, unsigned *neg)
{
    cg::thread_block_tile<N> tile = cg::tiled_partition<N>(block);
    int s = cg::reduce(tile, v, cg::plus<int>());
    unsigned m = tile.ballot(v < 0);
    if (tile.thread_rank() == 0) { sums_shfl[t] = s; neg[t] = m; }
}

__global__ void tile_reduce(const int *in, int n, int tile_size,
                            int *sums_shared, int *sums_shfl, unsigned *neg_mask)
{
    __shared__ int temp[COOP_MAX_BLOCK];
    cg::thread_block block = cg::this_thread_block();
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int v = g < n ? in[g] : 0;
    int t = g / tile_size;
    cg::thread_group tile = cg::tiled_partition(block, tile_size);
    int sum = reduce_shared(tile, temp + (block.thread_rank() - tile.thread_rank()), v);
    if (tile.thread_rank() == 0)
        sums_shared[t] = sum;
    if (tile_size == 4) by_cg_reduce<4>(block, v, t, sums_shfl, neg_mask);
    else if (tile_size == 8) by_cg_reduce<8>(block, v, t, sums_shfl, neg_mask);
    else if (tile_size == 16) by_cg_reduce<16>(block, v, t, sums_shfl, neg_mask);
    else by_cg_reduce<32>(block, v, t, sums_shfl, neg_mask);
}
