// EXPECT tile_reduce PASS
// Judgment probe: sums_shfl from cub::WarpReduce<int, N> (logical warps of N lanes = the tile).
// Lesson 6 has no library rule; docs/06-coop.md endorses cg::reduce for the same job, so the
// current grader should let it through (static SKIP). Whether it SHOULD: see report.
#include <cub/warp/warp_reduce.cuh>
#define tile_reduce tile_reduce_reference
#include "../../../../solutions/coop.cu"
#undef tile_reduce

template <int N>
__device__ void by_cub(cg::thread_block block, int v, int t, int *sums_shfl, unsigned *neg)
{
    __shared__ typename cub::WarpReduce<int, N>::TempStorage ts[COOP_MAX_BLOCK / N];
    cg::thread_block_tile<N> tile = cg::tiled_partition<N>(block);
    int s = cub::WarpReduce<int, N>(ts[tile.meta_group_rank()]).Sum(v);
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
    switch (tile_size) {
    case 4: by_cub<4>(block, v, t, sums_shfl, neg_mask); break;
    case 8: by_cub<8>(block, v, t, sums_shfl, neg_mask); break;
    case 16: by_cub<16>(block, v, t, sums_shfl, neg_mask); break;
    default: by_cub<32>(block, v, t, sums_shfl, neg_mask); break;
    }
}
