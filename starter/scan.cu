// Lesson 4, scan (prefix sum): your workspace. Read docs/04-scan.md.
// You will write: block_inclusive_scan, block_exclusive_scan, scan_any_n.
// Prerequisites: lessons 1 and 3 (read / barrier / write / barrier).
// Check: make check LESSON=scan (make hint LESSON=scan for a hint).
// Time: about 3 to 5 hours, most of it scan_any_n.
// GPU: any GPU CUDA 13 supports (sm_75 or newer).
// The contract of each function (launch shape, what to write where) is in
// lessons/scan/scan.h. When you start an exercise, delete its SYNCLAB_TODO
// line(s): the grader answers TODO while one is there.
#include "scan.h"

// docs/04-scan.md#block-inclusive-scan
__global__ void block_inclusive_scan(const int *in, int *out, int n)
{
    SYNCLAB_TODO(block_inclusive_scan);
    // TODO (Hillis-Steele):
    // 1. extern __shared__ int s[];  (2 * blockDim.x ints, sized by the harness)
    //    i = blockIdx.x * blockDim.x + threadIdx.x; s[tid] = in[i], or 0 when
    //    i >= n. Barrier.
    // 2. For off = 1, 2, 4, ... < blockDim.x, every thread with tid >= off
    //    adds s[tid - off] to s[tid]. But thread tid - off is updating
    //    s[tid - off] in the same step: read the value into a register,
    //    __syncthreads(), THEN write, then __syncthreads() again.
    //    The barriers must be outside if (tid >= off): all threads reach them.
    // 3. if (i < n) out[i] = s[tid].
}

// docs/04-scan.md#block-exclusive-scan
__global__ void block_exclusive_scan(const int *in, int *out, int n)
{
    SYNCLAB_TODO(block_exclusive_scan);
    // TODO: out[base] = 0, out[base + t] = sum of the tile's t elements
    // before it. Either
    //  a) an inclusive scan as above, then each thread takes its left
    //     neighbour's value (0 for tid == 0). The neighbour's slot may not
    //     be overwritten while others still read it: read, barrier, write.
    //  b) the work-efficient scan (blockDim.x is a power of two):
    //     up-sweep for d = 1, 2, ..., blockDim.x / 2:
    //         k = (tid + 1) * 2 * d - 1; if (k < blockDim.x) s[k] += s[k - d];
    //     clear the root s[blockDim.x - 1] = 0, then down-sweep for
    //     d = blockDim.x / 2, ..., 1: the node at k gives its value to its
    //     left child k - d and adds the left child's old value to itself.
    //     One __syncthreads() after every level, reached by every thread.
}

// ---------------------------------------------------------------------------
// docs/04-scan.md#scan-of-any-n
// A skeleton of reduce-then-scan. Tiles of SCAN_TILE elements; keep or
// change the design (tile size, threads, number of passes) as you like, but
// every kernel you keep must do its work before it can pass the TODO check.

#define SCAN_THREADS 256
#define SCAN_TILE 4096   // elements per tile: SCAN_THREADS * 16

// Pass 1: tile_sum[b] = in[b * SCAN_TILE] + ... (the last tile is partial).
__global__ void reduce_tiles(const int *in, long long n, unsigned *tile_sum)
{
    SYNCLAB_TODO(scan_any_n);
    // TODO: each thread sums its elements (int4 loads for full tiles, one
    // by one with i < n checks in the last), then the block reduces with
    // warp shuffles (__shfl_xor_sync) and one shared array of warp sums.
}

// Pass 2, one block: tile_sum[] becomes its exclusive scan.
__global__ void scan_tile_sums(unsigned *tile_sum, int tiles)
{
    SYNCLAB_TODO(scan_any_n);
    // TODO: tiles can be far more than the block's threads (65536 tiles at
    // n = 2^28): each thread owns a contiguous chunk, sums it, the block
    // scans the chunk sums, each thread rewrites its chunk as prefixes.
}

// Pass 3: out = exclusive scan of the tile, starting at tile_prefix[b].
__global__ void scan_tiles(const int *in, int *out, long long n, const unsigned *tile_prefix)
{
    SYNCLAB_TODO(scan_any_n);
    // TODO: load the tile (as in pass 1), scan it in registers, across the
    // warp (__shfl_up_sync) and across the warps (shared memory between
    // two __syncthreads()), add tile_prefix[blockIdx.x], store (int4 for
    // full tiles, guarded stores in the last).
}

size_t scan_scratch_bytes(long long n)
{
    long long tiles = (n + SCAN_TILE - 1) / SCAN_TILE;
    return (size_t)tiles * sizeof(unsigned);
}

void scan_exclusive_int(const int *d_in, int *d_out, long long n, void *d_scratch)
{
    long long tiles = (n + SCAN_TILE - 1) / SCAN_TILE;
    unsigned *tile_sum = (unsigned *)d_scratch;
    reduce_tiles<<<(unsigned)tiles, SCAN_THREADS>>>(d_in, n, tile_sum);
    scan_tile_sums<<<1, 1024>>>(tile_sum, (int)tiles);
    scan_tiles<<<(unsigned)tiles, SCAN_THREADS>>>(d_in, d_out, n, tile_sum);
}
