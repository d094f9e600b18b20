/* Lesson 5, worklist insertion: what you implement in starter/worklist.cu.
 * Read docs/05-worklist.md first.
 *
 * Both exercises hand every thread a place in one output array WITHOUT
 * atomics: each thread's place is an exclusive scan (prefix sum) of what the
 * threads before it write. Atomics (atomicAdd, atomicInc, ..., inline
 * "atom."/"red." asm, grid.sync()) and CUB/thrust are refused by the grader:
 * write your own multi-block scan.
 * Shared memory starts filled with garbage (0xFF bytes) at every launch:
 * initialise every __shared__ variable you read, flags included. */
#ifndef SYNCLAB_WORKLIST_H
#define SYNCLAB_WORKLIST_H

#include <cuda_runtime.h>
#include <stddef.h>
#include "synclab.h"

/* The block sizes the harness passes to your launchers: a power of two in
 * [WORKLIST_MIN_BLOCK, WORKLIST_MAX_BLOCK]. */
enum { WORKLIST_MIN_BLOCK = 32, WORKLIST_MAX_BLOCK = 1024 };

/* Size, in ints, of the device scratch buffer each launcher receives: room
 * for two arrays of n ints (e.g. flags and offsets) plus the block sums of
 * every level of a multi-block scan (n/31 + a few ints for block >= 32).
 * Its contents on entry are garbage (every byte 0xFF): write before you read. */
#define WORKLIST_SCRATCH_INTS(n) (3 * (size_t)(n) + 1024)

/* Exercise worklist_insert (docs/05-worklist.md#worklist-insertion).
 * Graded range: n from 1 to 2^24 + 2^20 - 1 and blocks of 32 to 1024 threads
 * (the inputs reach both ends).
 *
 * Thread t (0 <= t < n) pushes nelem[t] >= 0 items; its k-th item
 * (0 <= k < nelem[t]) is make_int2(t, k). All items go into ONE worklist:
 *   worklist[0 .. total) holds every item exactly once, in ANY order
 *   (order "free"), total = nelem[0] + ... + nelem[n-1];
 *   *total is written with that count;
 *   worklist[total ..) is never written (the buffer may be larger).
 * The intended way: offset[t] = nelem[0] + ... + nelem[t-1] (EXCLUSIVE scan,
 * carried across all blocks), then thread t writes worklist[offset[t] + k].
 *
 * A host function: launch as many kernels as you need, each with `block`
 * threads per block, on the default stream; do not synchronize or allocate
 * (the harness checks for errors after you return). All pointers are device
 * memory; scratch holds WORKLIST_SCRATCH_INTS(n) ints. n can be anything
 * from 1 to several million; one nelem[t] can be a million. */
void worklist_insert(const int *nelem, int n, int2 *worklist, int *total, int *scratch, int block);

/* The predicate of compact: keep x when it is >= threshold. */
__host__ __device__ inline bool compact_keep(int x, int threshold) { return x >= threshold; }

/* Exercise compact (docs/05-worklist.md#order-preserving-compaction).
 * Graded range: n from 1 to 2^24 + 2^20 - 1 and blocks of 32 to 1024 threads
 * (the inputs reach both ends).
 *
 * Order-preserving stream compaction of in[0 .. n):
 *   out[0 .. count) = the elements x of in with compact_keep(x, threshold),
 *   in their input order; *count = how many; out[count .. n) never written.
 * Same rules as worklist_insert: a host function launching kernels with
 * `block` threads per block, no atomics, scratch of WORKLIST_SCRATCH_INTS(n)
 * ints of garbage. */
void compact(const int *in, int n, int threshold, int *out, int *count, int *scratch, int block);

#endif
