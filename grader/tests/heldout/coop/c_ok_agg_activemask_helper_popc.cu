// EXPECT agg_filter PASS
// agg_filter: NVIDIA's warp-aggregated atomic by hand: inside the branch, m = __activemask() is passed to a helper; leader = __ffs(m) - 1, rank = __popc(m & lanemask_lt); the leader reserves __popc(m) slots and __shfl_sync(m, base, leader) broadcasts from a lane of m. Only lanes in m take part, source lane from m.
/* Lesson 6, cooperative groups: reference solution. See docs/06-coop.md. */
#include <limits.h>
#include "coop.h"

/* ---- tile_reduce ---------------------------------------------------------- */

/* Tree sum over ANY group through a shared temp (the programming guide's
 * reduce_sum). temp holds one int per member of g. Only rank 0 ends up with
 * the full sum. */
__device__ int reduce_shared(cg::thread_group g, int *temp, int val)
{
    int rank = (int)g.thread_rank();
    /* size(), not num_threads(): CUDA 13.0 declares thread_group::num_threads()
     * but never defines it (ptxas: unresolved extern function). */
    for (int half = (int)g.size() / 2; half > 0; half /= 2) {
        temp[rank] = val;
        g.sync();   /* every write of this step lands before any read */
        if (rank < half)
            val += temp[rank + half];
        g.sync();   /* every read lands before the next step overwrites */
    }
    return val;
}

/* Tree sum in registers: shfl_down needs the tile size at compile time, so
 * it lives on thread_block_tile<N>. No shared memory, no sync: the shuffle
 * itself exchanges the values between the tile's threads. Rank 0 gets it. */
template <unsigned N>
__device__ int reduce_shfl(cg::thread_block_tile<N> tile, int val)
{
    for (unsigned offset = N / 2; offset > 0; offset /= 2)
        val += tile.shfl_down(val, offset);
    return val;
}

template <unsigned N>
__device__ void tile_shfl_and_ballot(cg::thread_block block, int v, int tile_index,
                                     int *sums_shfl, unsigned *neg_mask)
{
    cg::thread_block_tile<N> tile = cg::tiled_partition<N>(block);
    int sum = reduce_shfl(tile, v);
    unsigned negatives = tile.ballot(v < 0);   /* bit r: tile rank r */
    if (tile.thread_rank() == 0) {
        sums_shfl[tile_index] = sum;
        neg_mask[tile_index] = negatives;
    }
}

__global__ void tile_reduce(const int *in, int n, int tile_size,
                            int *sums_shared, int *sums_shfl, unsigned *neg_mask)
{
    __shared__ int temp[COOP_MAX_BLOCK];
    cg::thread_block block = cg::this_thread_block();
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int v = g < n ? in[g] : 0;
    int tile_index = g / tile_size;

    /* Runtime partition: a plain thread_group, its size known at run time. */
    cg::thread_group tile = cg::tiled_partition(block, tile_size);
    int *tile_temp = temp + (block.thread_rank() - tile.thread_rank());
    int sum = reduce_shared(tile, tile_temp, v);
    if (tile.thread_rank() == 0)
        sums_shared[tile_index] = sum;

    /* Compile-time partition: one instantiation per legal tile size. */
    switch (tile_size) {
    case 4:  tile_shfl_and_ballot<4>(block, v, tile_index, sums_shfl, neg_mask); break;
    case 8:  tile_shfl_and_ballot<8>(block, v, tile_index, sums_shfl, neg_mask); break;
    case 16: tile_shfl_and_ballot<16>(block, v, tile_index, sums_shfl, neg_mask); break;
    case 32: tile_shfl_and_ballot<32>(block, v, tile_index, sums_shfl, neg_mask); break;
    }
}

/* ---- half_block ----------------------------------------------------------- */

/* Sum of val over the group g that calls it, through temp (one int per member
 * of g); rank 0 gets it. It synchronizes the group it is GIVEN, never the
 * whole block, so part of the block may call it. A template, so g keeps its
 * concrete type: a thread_block_tile's sync() is a __syncwarp of its lanes,
 * while a plain thread_group's sync() is a run-time switch over every kind of
 * group, whose block and grid cases compile to block-wide barriers. */
template <class Group>
__device__ int group_sum(const Group &g, int *temp, int val)
{
    int rank = (int)g.thread_rank();
    for (int half = (int)g.size() / 2; half > 0; half /= 2) {
        temp[rank] = val;
        g.sync();
        if (rank < half)
            val += temp[rank + half];
        g.sync();
    }
    return val;
}

/* Only the first half of the block sums, in tiles of T = min(32, half)
 * threads: 16 for blocks of 32, whole warps otherwise. (Not one multi-warp
 * thread_block_tile<blockDim.x / 2>: that works, but racecheck does not
 * understand its barrier and reports false races.) */
__global__ void half_block(const int *in, int n, int *out)
{
    __shared__ int temp[COOP_MAX_BLOCK / 2];
    __shared__ int tile_sums[COOP_MAX_BLOCK / 64];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> tile16 = cg::tiled_partition<16>(block);
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int half = (int)blockDim.x / 2;
    int tile_size = half < 32 ? half : 32;
    int base = blockIdx.x * blockDim.x;
    int r = (int)block.thread_rank();

    /* The first half of the block is exactly tiles 0 .. half / tile_size - 1. */
    if (r < half) {
        int a = base + r, b = base + r + half;
        int v = (a < n ? in[a] : 0) + (b < n ? in[b] : 0);
        int *tile_temp = temp + (r - r % tile_size);
        int s = tile_size == 16 ? group_sum(tile16, tile_temp, v) : group_sum(warp, tile_temp, v);
        if (r % tile_size == 0)
            tile_sums[r / tile_size] = s;
    }
    block.sync();   /* the whole block, outside any branch: tile_sums are ready */

    int chunk_sum = 0;
    for (int t = 0; t < half / tile_size; t++)
        chunk_sum += tile_sums[t];
    int i = base + r;
    if (i < n)
        out[i] = chunk_sum - in[i];
}

/* ---- agg_filter ----------------------------------------------------------- */

__device__ __forceinline__ int agg_reserve(filter_counter ctr, unsigned m)
{
    unsigned lane = threadIdx.x & 31u;
    int leader = __ffs(m) - 1;
    int base = 0;
    if ((int)lane == leader)
        base = filter_reserve(ctr, __popc(m));
    base = __shfl_sync(m, base, leader);
    return base + __popc(m & ((1u << lane) - 1u));
}

__global__ void agg_filter(const int *in, int n, int *out, filter_counter ctr)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int v = in[i];
        if (filter_keep(v)) {
            unsigned m = __activemask();
            out[agg_reserve(ctr, m)] = v;
        }
    }
}

/* ---- grid_two_phase ------------------------------------------------------- */

/* Maximum over the block, returned to every thread. warp_max holds one int
 * per warp; blockDim.x is a multiple of 32. The trailing sync lets the next
 * call reuse warp_max. */
__device__ int block_max(cg::thread_block block, int *warp_max, int v)
{
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    v = cg::reduce(warp, v, cg::greater<int>());
    if (warp.thread_rank() == 0)
        warp_max[warp.meta_group_rank()] = v;
    block.sync();
    int m = warp_max[0];
    for (unsigned w = 1; w < warp.meta_group_size(); w++)
        m = max(m, warp_max[w]);
    block.sync();
    return m;
}

__global__ void grid_two_phase(const int *in, int n, int *partials, int *out)
{
    __shared__ int warp_max[COOP_MAX_BLOCK / 32];
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    int first = (int)grid.thread_rank(), stride = (int)grid.num_threads();

    /* Phase 1: one partial per block. */
    int m = INT_MIN;
    for (int i = first; i < n; i += stride)
        m = max(m, in[i]);
    m = block_max(block, warp_max, m);
    if (block.thread_rank() == 0)
        partials[block.group_index().x] = m;

    grid.sync();   /* every partial of every block is written and visible */

    /* Phase 2: every block reads all partials. */
    int p = INT_MIN;
    for (unsigned b = block.thread_rank(); b < gridDim.x; b += block.num_threads())
        p = max(p, partials[b]);
    int total_max = block_max(block, warp_max, p);
    for (int i = first; i < n; i += stride)
        out[i] = total_max - in[i];
}

cudaError_t grid_two_phase_launch(const int *in, int n, int *partials, int partials_cap,
                                  int *out, int block)
{
    int device, sms, per_sm;
    cudaError_t e = cudaGetDevice(&device);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (e == cudaSuccess)
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_two_phase, block, 0);
    if (e != cudaSuccess)
        return e;

    /* Every block must be resident at once for grid.sync(): never more than
     * per_sm blocks on each SM. Fewer is fine (grid-stride loop): no more
     * blocks than elements need, nor than partials can hold. */
    int grid = per_sm * sms;
    int needed = (n + block - 1) / block;
    if (grid > needed)
        grid = needed;
    if (grid > partials_cap)
        grid = partials_cap;
    if (grid < 1)
        grid = 1;

    void *args[] = {(void *)&in, (void *)&n, (void *)&partials, (void *)&out};
    return cudaLaunchCooperativeKernel((void *)grid_two_phase, dim3(grid), dim3(block), args, 0, 0);
}
