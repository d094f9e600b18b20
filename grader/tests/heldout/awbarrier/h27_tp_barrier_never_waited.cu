// EXPECT tile_pipeline RULE
// Not the exercise: the copy completes on a cuda::barrier, but the block
// waits with cp.async.wait_all and __syncthreads() instead of the barrier
// (no mbarrier wait in the PTX): the barrier is a decoy.
#include <cuda_pipeline_primitives.h>
#define tile_pipeline tile_pipeline_reference
#include "../../../../solutions/awbarrier.cu"
#undef tile_pipeline

__global__ void tile_pipeline(const unsigned *in, unsigned *out, int n)
{
    __shared__ block_barrier bar;
    __shared__ unsigned stage[TP_MAX_BLOCK];
    cg::thread_block block = cg::this_thread_block();
    const int tid = threadIdx.x, tile = blockDim.x;
    const long long tiles = ((long long)n + tile - 1) / tile;
    if (tid == 0)
        init(&bar, tile);
    block.sync();
    for (long long t = blockIdx.x; t < tiles; t += gridDim.x) {
        long long base = t * tile;
        int len = (int)min((long long)tile, n - base);
        if (tid < len)
            cuda::memcpy_async(&stage[tid], &in[base + tid], sizeof(unsigned), bar);
        (void)bar.arrive();
        __pipeline_wait_prior(0);
        asm volatile("cp.async.wait_all;" ::: "memory");
        __syncthreads();
        if (tid < len)
            out[base + tid] = 3u * stage[tid] + stage[len - 1 - tid];
        __syncthreads();
    }
}
