// EXPECT tile_pipeline RULE
// Not the exercise: one stage, __pipeline_memcpy_async per thread, then
// __pipeline_wait_prior(0) and __syncthreads(). Right answers, but the copy
// completes on no asynchronous barrier (no mbarrier in the PTX) and nothing
// overlaps: the lesson is cuda::memcpy_async completed on a cuda::barrier.
#include <cuda_pipeline_primitives.h>
#define tile_pipeline tile_pipeline_reference
#include "../../../solutions/awbarrier.cu"
#undef tile_pipeline

__global__ void tile_pipeline(const unsigned *in, unsigned *out, int n)
{
    __shared__ unsigned stage[TP_MAX_BLOCK];
    const int tid = threadIdx.x, tile = blockDim.x;
    const long long tiles = ((long long)n + tile - 1) / tile;
    for (long long t = blockIdx.x; t < tiles; t += gridDim.x) {
        long long base = t * tile;
        int len = (int)min((long long)tile, n - base);
        if (tid < len)
            __pipeline_memcpy_async(&stage[tid], &in[base + tid], sizeof(unsigned));
        __pipeline_commit();
        __pipeline_wait_prior(0);
        __syncthreads();   /* every thread's element has landed */
        if (tid < len)
            out[base + tid] = 3u * stage[tid] + stage[len - 1 - tid];
        __syncthreads();   /* read before the next copy overwrites it */
    }
}
