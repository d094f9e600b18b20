// Lesson 5, worklist insertion: reference solution.
// Every thread finds its place in the output from an exclusive scan of what
// the threads before it write: no atomics, and the same layout on every run.
// The scan is multi-block: scan each tile, scan the tile sums (the same way,
// recursively), add each tile's offset back.
#include "worklist.h"

// Inclusive scan of one value per thread across the whole block.
// blockDim.x is a multiple of 32 (at most 1024). Call it once per kernel,
// from every thread of the block (it holds two __syncthreads()).
__device__ int block_inclusive_scan(int x)
{
    __shared__ int warp_sums[32];
    const unsigned all = 0xffffffffu;
    int lane = threadIdx.x % 32;
    int warp = threadIdx.x / 32;
    int nwarps = blockDim.x / 32;

    for (int off = 1; off < 32; off *= 2) {   // scan within the warp
        int y = __shfl_up_sync(all, x, off);
        if (lane >= off)
            x += y;
    }
    if (lane == 31)
        warp_sums[warp] = x;
    __syncthreads();   // every warp's sum is stored before warp 0 reads them

    if (warp == 0) {   // scan the warp sums; lane i only touches warp_sums[i]
        int s = lane < nwarps ? warp_sums[lane] : 0;
        for (int off = 1; off < 32; off *= 2) {
            int y = __shfl_up_sync(all, s, off);
            if (lane >= off)
                s += y;
        }
        if (lane < nwarps)
            warp_sums[lane] = s;
    }
    __syncthreads();   // the scanned sums are stored before other warps read them

    if (warp > 0)
        x += warp_sums[warp - 1];
    return x;
}

// Exclusive scan of each tile of blockDim.x elements of in into out (out may
// be in: each element is read and written by the same thread) and the sum of
// tile b into tile_sums[b]. Elements past n count as 0.
__global__ void scan_tiles(const int *in, int *out, int *tile_sums, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int x = i < n ? in[i] : 0;
    int inclusive = block_inclusive_scan(x);   // whole block, no early return
    if (i < n)
        out[i] = inclusive - x;
    if (threadIdx.x == blockDim.x - 1)
        tile_sums[blockIdx.x] = inclusive;
}

// data[i] += the scanned sum of the tiles before i's tile (same tiling as scan_tiles).
__global__ void add_tile_offsets(int *data, const int *tile_offsets, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] += tile_offsets[blockIdx.x];
}

// Exclusive scan of in[0..n) (n >= 1) into out (may be in), the grand total
// into *total. sums: scratch for the tile sums of this level and the levels
// above (n/(block-1) + one per level ints). Kernel boundaries are the only
// synchronization between blocks: each launch sees the previous one's writes.
static void exclusive_scan(const int *in, int *out, int n, int *total, int *sums, int block)
{
    int tiles = (n + block - 1) / block;
    if (tiles == 1) {   // one tile: its sum is the total
        scan_tiles<<<1, block>>>(in, out, total, n);
        return;
    }
    scan_tiles<<<tiles, block>>>(in, out, sums, n);
    exclusive_scan(sums, sums, tiles, total, sums + tiles, block);   // tile sums -> tile offsets
    add_tile_offsets<<<tiles, block>>>(out, sums, n);
}

// Thread t writes its items at worklist[offsets[t] ..] in order of k.
__global__ void write_items(const int *nelem, const int *offsets, int n, int2 *worklist)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int start = offsets[t];
    int count = nelem[t];
    for (int k = 0; k < count; k++)
        worklist[start + k] = make_int2(t, k);
}

void worklist_insert(const int *nelem, int n, int2 *worklist, int *total,
                     int *scratch, int block)
{
    if (n <= 0) {
        cudaMemset(total, 0, sizeof(int));
        return;
    }
    int *offsets = scratch;       // n ints
    int *sums = scratch + n;      // tile sums of every level
    exclusive_scan(nelem, offsets, n, total, sums, block);
    write_items<<<(n + block - 1) / block, block>>>(nelem, offsets, n, worklist);
}

// flags[i] = 1 when in[i] is kept, else 0.
__global__ void flag_kept(const int *in, int *flags, int n, int threshold)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        flags[i] = compact_keep(in[i], threshold) ? 1 : 0;
}

// A kept in[i] goes to out[positions[i]]: the number of kept elements before it.
__global__ void scatter_kept(const int *in, const int *positions, int n, int threshold, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && compact_keep(in[i], threshold))
        out[positions[i]] = in[i];
}

void compact(const int *in, int n, int threshold, int *out, int *count,
             int *scratch, int block)
{
    if (n <= 0) {
        cudaMemset(count, 0, sizeof(int));
        return;
    }
    int tiles = (n + block - 1) / block;
    int *flags = scratch;              // n ints
    int *positions = scratch + n;      // n ints
    int *sums = scratch + 2 * (size_t)n;
    flag_kept<<<tiles, block>>>(in, flags, n, threshold);
    exclusive_scan(flags, positions, n, count, sums, block);
    scatter_kept<<<tiles, block>>>(in, positions, n, threshold, out);
}
