/* Lesson 7: the asynchronous barrier. Read docs/07-awbarrier.md first.
 * You will write: split_arrive_wait, normalize (and its launcher),
 * tile_pipeline. Prerequisites: lessons 1, 3 and 6. Check: make check
 * LESSON=awbarrier (make hint LESSON=awbarrier for a hint). Time: about 2 to
 * 2.5 hours. GPU: compute capability 8.0 (sm_80, A100) or newer: the
 * hardware barrier (mbarrier) and cp.async start there.
 *
 * Each exercise: delete its SYNCLAB_TODO line and write the body.
 * The contracts (launch shapes, what to write where) are in
 * lessons/awbarrier/awbarrier.h. */
#include "awbarrier.h"

namespace cg = cooperative_groups;

/* Exercise split_arrive_wait (docs: "Split arrive and wait"). */
__global__ void split_arrive_wait(const unsigned *in, unsigned *out, unsigned *hist,
                                  int n, int iters)
{
    SYNCLAB_TODO(split_arrive_wait);
    /* TODO:
     * - declare `__shared__ block_barrier bar;` and two shared buffers of
     *   SAW_MAX_BLOCK unsigned values (one per iteration parity);
     * - thread 0 calls init(&bar, blockDim.x), then __syncthreads() so no
     *   thread arrives on a barrier that is not initialized yet;
     * - v = in[i] (0 for a thread past n), h = 0; for each iteration:
     *     write v into buffer t % 2,
     *     block_barrier::arrival_token token = bar.arrive();
     *     h = h * 31u + v;          (touch no shared memory here)
     *     bar.wait(std::move(token));
     *     read left and right from buffer t % 2 (0 outside the tile) and
     *     set v = left + 2u * v + 3u * right (threads past n keep v = 0);
     * - every thread, even past n, arrives in every iteration: the barrier
     *   expects blockDim.x arrivals per phase;
     * - finally out[i] = v and hist[i] = h for i < n. */
}

/* Exercise normalize (docs: "Normalizing two vectors"). */
__global__ void normalize(float *a, float *b, double *partial, int n)
{
    SYNCLAB_TODO(normalize);
    /* TODO:
     * - cg::grid_group grid = cg::this_grid(); a __shared__ block_barrier
     *   initialized by thread 0, then __syncthreads();
     * - phase 1: each thread sums a[i] * b[i] over a grid-stride loop
     *   (double is easiest); reduce over the block: warp shuffles, one value
     *   per warp into shared memory, bar.arrive() / bar.wait(), then add the
     *   warps' values; thread 0 stores the block's sum in partial[blockIdx.x];
     * - grid.sync(): no block may read partial[] before every block wrote it;
     * - phase 2: add all gridDim.x partials (every block the same way), then
     *   a[i] = a[i] / sqrt(dot), b[i] = b[i] / sqrt(dot) over a grid-stride loop. */
}

cudaError_t launch_normalize(float *a, float *b, double *partial, int n, int block)
{
    /* TODO (docs: "Normalizing two vectors"): grid.sync() only works in a
     * cooperative launch whose blocks all fit on the GPU at once.
     * - blocks per SM: cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm,
     *   normalize, block, 0); SMs: cudaDeviceGetAttribute(&sms,
     *   cudaDevAttrMultiProcessorCount, device);
     * - grid = per_sm * sms, but at most ceil(n / block) and at most
     *   NORMALIZE_MAX_BLOCKS (and at least 1);
     * - void *args[] = { &a, &b, &partial, &n };
     *   return cudaLaunchCooperativeKernel((const void *)normalize, grid,
     *                                      block, args, 0, 0); */
    (void)a; (void)b; (void)partial; (void)n; (void)block;
    return cudaErrorNotYetImplemented;
}

/* Exercise tile_pipeline (docs: "A copy pipeline"). Needs sm_80 or newer. */
__global__ void tile_pipeline(const unsigned *in, unsigned *out, int n)
{
    SYNCLAB_TODO(tile_pipeline);
    /* TODO:
     * - shared: block_barrier full[2], empty[2]; unsigned stage[2][TP_MAX_BLOCK];
     *   thread 0 inits full[s] with 1 (the producer's arrival) and empty[s]
     *   with blockDim.x (every thread, after reading), then __syncthreads();
     * - mine = the number of this block's tiles (blockIdx.x, blockIdx.x +
     *   gridDim.x, ...); tile k of the block starts at base = (blockIdx.x +
     *   k * gridDim.x) * blockDim.x and has len = min(blockDim.x, n - base);
     * - producer (thread 0), for k = 0 and 1 (if the block has them):
     *     cuda::memcpy_async(stage[k], in + base, sizeof(unsigned) * len, full[k]);
     *     (void)full[k].arrive();       // memcpy_async does not arrive for you
     * - every thread, for k = 0 .. mine - 1, with s = k % 2:
     *     wait until tile k has landed: full[s].wait_parity(p). Which use of
     *       stage s is tile k, so which phase of full[s] holds it, and what
     *       is that phase's parity? (docs: "Phases and parity")
     *     if (threadIdx.x < len) out[base + j] = 3u * x[j] + x[len - 1 - j]
     *       with x = stage[s], j = threadIdx.x;
     *     then say "done with stage s" on empty[s]. Thread 0 also refills
     *       stage s with tile k + 2 when the block has it: what must it
     *       know before the copy may start, and how does it wait for that
     *       while still counting as one of the readers? Everyone else only
     *       arrives ((void)empty[s].arrive()). */
}
