// Lesson 5, worklist insertion.
// You will write: worklist_insert, compact.
// Prerequisites: lesson 4 (the exclusive scan; you may reuse yours through
// a header of your own next to this file).
// Check: make check LESSON=worklist (make hint LESSON=worklist for a hint).
// Time: about 1.5 to 2 hours. GPU: any GPU CUDA 13 supports (sm_75 or newer).
//
// Read docs/05-worklist.md, then replace each
// SYNCLAB_TODO(...) line with your code. Contracts: lessons/worklist/worklist.h.
//
// Rules of this lesson: no atomics of any kind (atomicAdd, atomicInc, inline
// "atom."/"red." asm, cooperative-groups grid.sync() which uses them inside)
// and no CUB/thrust. Each thread finds its place with an EXCLUSIVE scan that
// you write yourself. Both exercises can share the same scan code.
#include "worklist.h"

// ---------------------------------------------------------------------------
// A multi-block exclusive scan (docs/05-worklist.md#a-scan-across-many-blocks)
//
// Suggested pieces (names and signatures are yours to choose):
//   __device__ int block_inclusive_scan(int x);
//       one value per thread -> inclusive sum over the block (shared memory
//       and __syncthreads(), or warp shuffles + shared warp sums; lesson 4)
//   __global__ void scan_tiles(const int *in, int *out, int *tile_sums, int n);
//       exclusive scan of each block's tile, plus the tile's sum
//   __global__ void add_tile_offsets(int *data, const int *tile_offsets, int n);
//   static void exclusive_scan(const int *in, int *out, int n, int *total,
//                              int *sums, int block);
//       host: scan tiles; if more than one tile, scan the tile sums (the same
//       function, recursively, on a smaller array) and add them back.
// Remember: blocks only see each other's writes across kernel launches.
// ---------------------------------------------------------------------------

// Thread t writes its nelem[t] items make_int2(t, k) at worklist[offsets[t] + k].
__global__ void write_items(const int *nelem, const int *offsets, int n, int2 *worklist)
{
    SYNCLAB_TODO(worklist_insert);
    // TODO: t = global thread index; if t < n write the items of thread t,
    // starting at its EXCLUSIVE offset (the sum of nelem of threads before t).
}

void worklist_insert(const int *nelem, int n, int2 *worklist, int *total,
                     int *scratch, int block)
{
    // TODO (docs/05-worklist.md#worklist-insertion):
    //   1. offsets = scratch[0 .. n): exclusive scan of nelem across ALL
    //      blocks, and *total = the sum of all counts;
    //   2. launch write_items.
    // scratch holds WORKLIST_SCRATCH_INTS(n) ints of garbage: use
    // scratch + n onward for the tile sums of your scan.
    int *offsets = scratch;
    write_items<<<(n + block - 1) / block, block>>>(nelem, offsets, n, worklist);
    (void)total;
}

// A kept in[i] goes to out[positions[i]].
__global__ void scatter_kept(const int *in, const int *positions, int n, int threshold, int *out)
{
    SYNCLAB_TODO(compact);
    // TODO: if i < n and compact_keep(in[i], threshold), write in[i] to its
    // place: the number of kept elements before i (an exclusive scan of 0/1 flags).
}

void compact(const int *in, int n, int threshold, int *out, int *count,
             int *scratch, int block)
{
    // TODO (docs/05-worklist.md#order-preserving-compaction):
    //   1. flags[i] = compact_keep(in[i], threshold) ? 1 : 0   (a kernel)
    //   2. positions = exclusive scan of flags, *count = their sum
    //   3. launch scatter_kept.
    // Layout suggestion: flags = scratch, positions = scratch + n,
    // tile sums from scratch + 2 * n.
    int *positions = scratch + n;
    scatter_kept<<<(n + block - 1) / block, block>>>(in, positions, n, threshold, out);
    (void)count;
}
