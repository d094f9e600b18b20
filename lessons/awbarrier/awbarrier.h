/* Lesson 7: the asynchronous barrier, cuda::barrier<cuda::thread_scope_block>.
 * What you implement in starter/awbarrier.cu. Read docs/07-awbarrier.md.
 * Shared memory starts filled with garbage (0xFF bytes) at every launch:
 * initialise every __shared__ variable you read, flags included. */
#ifndef SYNCLAB_AWBARRIER_H
#define SYNCLAB_AWBARRIER_H

#include <cuda_runtime.h>

/* The lesson's minimum GPU: the hardware asynchronous barrier (mbarrier)
 * exists from sm_80 (A100) on; older GPUs emulate cuda::barrier without it. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#error                                                                                             \
    "lesson 7 (awbarrier) needs a GPU of compute capability 8.0 (sm_80) or newer: cuda::barrier is the hardware mbarrier only from sm_80 on. Build with -arch=sm_80 or newer."
#endif

#include <cuda/barrier>
#include <cooperative_groups.h>
#include <utility>
#include "synclab.h"

/* A `__shared__ cuda::barrier<...> bar;` has a constructor, and nvcc warns
 * (#20054) that a function-scope __shared__ variable is never dynamically
 * initialized. That is what we want: one thread calls init(&bar, count) and
 * __syncthreads() publishes it. The CUDA samples silence it the same way. */
#pragma nv_diag_suppress static_var_with_dynamic_init

/* The barrier type of this lesson: one per block, in shared memory. */
typedef cuda::barrier<cuda::thread_scope_block> block_barrier;

/* ---- Exercise split_arrive_wait ------------------------------------------
 * Graded range: n from 1 to 3000017 and blocks of 32 to 1024 threads
 * (the inputs reach both ends).
 * One thread per element: launched <<<ceil(n / blockDim.x), blockDim.x>>>,
 * blockDim.x a multiple of 32 up to SAW_MAX_BLOCK. Block b owns the tile of
 * elements [b * blockDim.x, min(n, (b + 1) * blockDim.x)); a thread whose
 * element is >= n holds the value 0 and takes part in every phase (or, if it
 * leaves early, arrive_and_drop()s first: docs/07-awbarrier.md#the-four-steps).
 *
 * Each thread starts with v = in[i] and h = 0, then runs `iters` iterations:
 *   1. publish v in shared memory;
 *   2. arrive on the block's cuda::barrier (keep the token);
 *   3. independent work on private data only: h = h * 31 + v;
 *   4. wait with the token;
 *   5. read the neighbours' published values, left and right within the
 *      tile (0 outside the tile), and update
 *      v = left + 2 * v + 3 * right.
 * All arithmetic is unsigned 32-bit (wraps mod 2^32). At the end out[i] = v
 * and hist[i] = h for every i < n. Two shared buffers used in alternation
 * make one barrier per iteration enough (docs: "Split arrive and wait"). */
enum { SAW_MAX_BLOCK = 1024 };
__global__ void split_arrive_wait(const unsigned *in, unsigned *out, unsigned *hist, int n,
                                  int iters);

/* ---- Exercise normalize (simpleAWBarrier) --------------------------------
 * Graded range: n from 1 to 2^24 + 2^20 - 1 and blocks of 32 to 1024 threads
 * (the inputs reach both ends).
 * a and b hold n floats (their dot product is positive). Compute
 * dot = sum a[i] * b[i] over the whole arrays, then in place
 *   a[i] = a[i] / sqrt(dot),  b[i] = b[i] / sqrt(dot).
 * The kernel reduces within each block with a cuda::barrier, combines the
 * blocks' partial sums through `partial`, and separates the phases with
 * cooperative_groups::this_grid().sync(). Any grid size must work: loop
 * with a grid stride. The grader checks it: besides calling your launcher,
 * it launches normalize itself (cooperatively) with grids of its choice
 * (1, 2, an odd count; never more than fit on the GPU or than n needs) and
 * blockDim.x * sizeof(double) bytes of dynamic shared memory.
 * partial: NORMALIZE_MAX_BLOCKS doubles of device memory, filled with
 * garbage (not zeros), yours to use (one per block, for example). */
enum { NORMALIZE_MAX_BLOCKS = 8192 };
__global__ void normalize(float *a, float *b, double *partial, int n);

/* Host launcher, called by the harness with blockDim.x = block (a multiple
 * of 32 up to 1024). grid.sync() needs a cooperative launch
 * (cudaLaunchCooperativeKernel) of a grid whose blocks are all resident at
 * once: at most (blocks per SM from the occupancy API) x (number of SMs);
 * use no more than ceil(n / block) and NORMALIZE_MAX_BLOCKS blocks.
 * Returns the launch's error code (cudaSuccess when it launched). */
cudaError_t launch_normalize(float *a, float *b, double *partial, int n, int block);

/* ---- Exercise tile_pipeline (memcpy_async, double-buffered) --------------
 * Graded range: n from 1 to 3000017 and blocks of 32 to 1024 threads
 * (the inputs reach both ends).
 * in and out hold n unsigned values, cut into tiles of blockDim.x elements:
 * tile t covers [t * blockDim.x, t * blockDim.x + len), len = min(blockDim.x,
 * n - t * blockDim.x) (only the last tile may be shorter). Block b handles
 * tiles b, b + gridDim.x, b + 2 * gridDim.x, ... in that order (a grid
 * stride over tiles: gridDim.x may be smaller or larger than the number of
 * tiles; a block with no tile does nothing). For each of its tiles x, thread
 * j < len writes
 *     out[t * blockDim.x + j] = 3 * x[j] + x[len - 1 - j]
 * (unsigned, wraps mod 2^32). Launched <<<gridDim.x, blockDim.x>>> with
 * blockDim.x a multiple of 32 up to TP_MAX_BLOCK.
 * How (docs: "A copy pipeline"): stage each tile into shared memory with
 * cuda::memcpy_async completed on a block_barrier, in two stages used in
 * alternation, so that the copy of a later tile is in flight while the
 * block computes the current one. The grader requires the asynchronous
 * copy (cp.async in the PTX) completed on an asynchronous barrier and a
 * wait on it (mbarrier in the PTX): a loop of plain loads into shared
 * memory, or __pipeline_memcpy_async with __pipeline_wait_prior and
 * __syncthreads(), is RULE. */
enum { TP_MAX_BLOCK = 1024 };
__global__ void tile_pipeline(const unsigned *in, unsigned *out, int n);

#endif
