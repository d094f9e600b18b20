// EXPECT tile_pipeline RULE
/* Reference solution of lesson 7 (asynchronous barrier). */
#include "awbarrier.h"

namespace cg = cooperative_groups;

/* ---- split_arrive_wait --------------------------------------------------- */

/* Two buffers used in alternation. Iteration t writes buf[t % 2] and reads
 * it after the wait. A thread writes buf[t % 2] again only at iteration
 * t + 2, after the wait of iteration t + 1, and that wait needs the arrival
 * of every thread, which each thread makes after its reads of iteration t:
 * one barrier per iteration is enough. */
__global__ void split_arrive_wait(const unsigned *in, unsigned *out, unsigned *hist,
                                  int n, int iters)
{
    __shared__ block_barrier bar;
    __shared__ unsigned buf[2][SAW_MAX_BLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    bool active = i < n;

    if (tid == 0)
        init(&bar, blockDim.x);   /* every thread arrives once per phase */
    __syncthreads();              /* nobody may arrive before init is visible */

    unsigned v = active ? in[i] : 0u;
    unsigned h = 0u;
    for (int t = 0; t < iters; t++) {
        unsigned *cur = buf[t & 1];
        cur[tid] = v;
        block_barrier::arrival_token token = bar.arrive();
        h = h * 31u + v;          /* private work, overlapped with the others' arrivals */
        bar.wait(std::move(token));
        if (active) {
            unsigned left = tid > 0 ? cur[tid - 1] : 0u;
            unsigned right = tid + 1 < (int)blockDim.x ? cur[tid + 1] : 0u;
            v = left + 2u * v + 3u * right;
        }
    }
    if (active) {
        out[i] = v;
        hist[i] = h;
    }
}

/* ---- normalize ------------------------------------------------------------- */

__device__ double warp_sum(double x)
{
    for (int offset = 16; offset > 0; offset /= 2)
        x += __shfl_xor_sync(0xffffffffu, x, offset);
    return x;   /* every lane holds the warp's total */
}

/* The block's total of x, returned to every thread (the same bits in every
 * thread: all add warp_sums in the same order). warp_sums holds 32 doubles
 * of shared memory; no thread may still be reading it from an earlier call. */
__device__ double block_sum(block_barrier &bar, double *warp_sums, double x)
{
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int nwarps = blockDim.x / 32;
    x = warp_sum(x);
    if (lane == 0)
        warp_sums[warp] = x;
    /* arrive() then wait() at once is arrive_and_wait() spelled out: there
     * is nothing to overlap here (split_arrive_wait shows the split). */
    block_barrier::arrival_token token = bar.arrive();
    bar.wait(std::move(token));   /* every warp's total is written */
    double total = 0.0;
    for (int w = 0; w < nwarps; w++)
        total += warp_sums[w];
    return total;
}

__global__ void normalize(float *a, float *b, double *partial, int n)
{
    __shared__ block_barrier bar;
    __shared__ double warp_sums[32];
    cg::grid_group grid = cg::this_grid();

    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    __syncthreads();

    /* Phase 1: this block's share of the dot product. */
    double mine = 0.0;
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size())
        mine += (double)a[i] * (double)b[i];
    double block_dot = block_sum(bar, warp_sums, mine);
    if (threadIdx.x == 0)
        partial[blockIdx.x] = block_dot;

    /* Every block's partial is written and visible; also keeps warp_sums
     * from being overwritten while a thread of this block still reads it. */
    grid.sync();

    /* Phase 2: every block adds all partials in the same order (same dot
     * everywhere), then scales its share of the vectors. */
    double part = 0.0;
    for (unsigned j = threadIdx.x; j < gridDim.x; j += blockDim.x)
        part += partial[j];
    double norm = sqrt(block_sum(bar, warp_sums, part));
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size()) {
        a[i] = (float)(a[i] / norm);
        b[i] = (float)(b[i] / norm);
    }
}

cudaError_t launch_normalize(float *a, float *b, double *partial, int n, int block)
{
    int device, sms, per_sm;
    cudaError_t e = cudaGetDevice(&device);
    if (e != cudaSuccess)
        return e;
    e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (e != cudaSuccess)
        return e;
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, normalize, block, 0);
    if (e != cudaSuccess)
        return e;
    /* grid.sync() waits for every block: all of them must be resident. */
    int grid = per_sm * sms;
    int needed = (n + block - 1) / block;
    if (grid > needed)
        grid = needed;
    if (grid > NORMALIZE_MAX_BLOCKS)
        grid = NORMALIZE_MAX_BLOCKS;
    if (grid < 1)
        grid = 1;
    void *args[] = { &a, &b, &partial, &n };
    return cudaLaunchCooperativeKernel((const void *)normalize, grid, block, args, 0, 0);
}

/* ---- tile_pipeline ----------------------------------------------------------- */

/* Thread 0 is the producer: it copies a whole tile with one memcpy_async
 * and arrives once, so full[s] expects 1 arrival; memcpy_async adds the
 * copy itself to the phase (the phase completes when the bytes have landed
 * and the producer has arrived). Every thread is a consumer: it waits on
 * full[s] without arriving there, so it names the phase by its parity, and
 * arrives on empty[s] once it has read the stage (blockDim.x arrivals). */
__device__ void stage_tile(unsigned *stage, const unsigned *in, long long base, int len,
                           block_barrier &full)
{
    cuda::memcpy_async(stage, in + base, sizeof(unsigned) * (size_t)len, full);
    (void)full.arrive();   /* the copy does not arrive for us */
}

// RED TEAM: the tiles are staged by per-thread cp.async (__pipeline_memcpy_async)
// and completed by cp.async.wait_group + __syncthreads(): the older mechanism
// the rule refuses. A cuda::barrier is used for a live decoy only: thread 0
// copies ONE word (never read) with cuda::memcpy_async(..., bar) and the
// block waits on bar once. The PTX then holds cp.async, a copy that completes
// on an mbarrier, and mbarrier.try_wait: the three REQUIREs are met one by
// one, none by the tiles' copies.
#include <cuda_pipeline_primitives.h>
__global__ void tile_pipeline(const unsigned *in, unsigned *out, int n)
{
    __shared__ unsigned stage[TP_MAX_BLOCK];
    __shared__ block_barrier bar;
    __shared__ unsigned decoy;
    const int tid = threadIdx.x, tile = blockDim.x;
    const long long tiles = ((long long)n + tile - 1) / tile;
    if (tid == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    if (tid == 0 && n > 0)
        cuda::memcpy_async(&decoy, in, sizeof(unsigned), bar);
    bar.arrive_and_wait();

    for (long long k = blockIdx.x; k < tiles; k += gridDim.x) {
        const long long base = k * tile;
        const int len = (int)min((long long)tile, n - base);
        if (tid < len)
            __pipeline_memcpy_async(&stage[tid], &in[base + tid], sizeof(unsigned));
        __pipeline_commit();
        __pipeline_wait_prior(0);
        __syncthreads();
        if (tid < len)
            out[base + tid] = 3u * stage[tid] + stage[len - 1 - tid];
        __syncthreads();
    }
}

