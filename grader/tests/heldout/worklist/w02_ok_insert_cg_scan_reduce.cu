// EXPECT worklist_insert PASS
// Correct: the recursive three-step scan, with the block scan written in
// cooperative groups: cg::inclusive_scan / cg::exclusive_scan over 32-thread
// tiles (shuffles), cg::reduce for the tile total (redux.sync, not red.),
// blk.sync() between the phases. No atomics anywhere.
#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
#define worklist_insert worklist_insert_reference
#include "../../../../solutions/worklist.cu"
#undef worklist_insert

// Exclusive scan of one value per thread over the block; the block total to *tile_total
// (written by one thread).
__device__ int cg_block_exclusive(int x, int *tile_total)
{
    __shared__ int wsum[32];
    cg::thread_block blk = cg::this_thread_block();
    cg::thread_block_tile<32> w = cg::tiled_partition<32>(blk);
    int incl = cg::inclusive_scan(w, x);
    if (w.thread_rank() == 31)
        wsum[w.meta_group_rank()] = incl;
    blk.sync();
    if (w.meta_group_rank() == 0) {
        int nw = (int)w.meta_group_size();
        int v = (int)w.thread_rank() < nw ? wsum[w.thread_rank()] : 0;
        int total = cg::reduce(w, v, cg::plus<int>());
        int ex = cg::exclusive_scan(w, v);
        if ((int)w.thread_rank() < nw)
            wsum[w.thread_rank()] = ex;
        if (w.thread_rank() == 0)
            *tile_total = total;
    }
    blk.sync();
    return wsum[w.meta_group_rank()] + incl - x;
}

__global__ void cg_scan_tiles(const int *in, int *out, int *tile_sums, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int x = i < n ? in[i] : 0;
    int ex = cg_block_exclusive(x, &tile_sums[blockIdx.x]);
    if (i < n)
        out[i] = ex;
}

static void cg_scan(const int *in, int *out, int n, int *total, int *sums, int block)
{
    int tiles = (n + block - 1) / block;
    if (tiles == 1) {
        cg_scan_tiles<<<1, block>>>(in, out, total, n);
        return;
    }
    cg_scan_tiles<<<tiles, block>>>(in, out, sums, n);
    cg_scan(sums, sums, tiles, total, sums + tiles, block);
    add_tile_offsets<<<tiles, block>>>(out, sums, n);
}

void worklist_insert(const int *nelem, int n, int2 *worklist, int *total, int *scratch, int block)
{
    if (n <= 0) {
        cudaMemset(total, 0, sizeof(int));
        return;
    }
    int *offsets = scratch, *sums = scratch + n;
    cg_scan(nelem, offsets, n, total, sums, block);
    write_items<<<(n + block - 1) / block, block>>>(nelem, offsets, n, worklist);
}
