// EXPECT tile_pipeline RULE
// (PASS before issue 27: the lesson now requires the copy to complete on an
// asynchronous barrier, which this correct pipeline does not use.)
// Correct as CUDA, not the exercise: per-thread __pipeline_memcpy_async (cp.async) double buffer with
// commit / wait_prior and __syncthreads between stages.
#include <cuda_pipeline_primitives.h>
#define tile_pipeline tile_pipeline_reference
#include "../../../../solutions/awbarrier.cu"
#undef tile_pipeline
__global__ void tile_pipeline(const unsigned *in, unsigned *out, int n)
{
    __shared__ unsigned stage[2][TP_MAX_BLOCK];
    const int tid = threadIdx.x, tile = blockDim.x;
    const long long tiles = ((long long)n + tile - 1) / tile;
    const int mine = blockIdx.x < tiles ? (int)((tiles - 1 - blockIdx.x) / gridDim.x + 1) : 0;
    for (int k = 0; k < 2 && k < mine; k++) {
        long long base = (blockIdx.x + (long long)k * gridDim.x) * tile;
        int len = (int)min((long long)tile, n - base);
        if (tid < len) __pipeline_memcpy_async(&stage[k][tid], &in[base + tid], sizeof(unsigned));
        __pipeline_commit();
    }
    for (int k = 0; k < mine; k++) {
        const int s = k & 1;
        const long long base = (blockIdx.x + (long long)k * gridDim.x) * tile;
        const int len = (int)min((long long)tile, n - base);
        if (k + 1 < mine) __pipeline_wait_prior(1); else __pipeline_wait_prior(0);
        __syncthreads();   /* every thread's copy of tile k has landed */
        if (tid < len) out[base + tid] = 3u * stage[s][tid] + stage[s][len - 1 - tid];
        __syncthreads();   /* stage s fully read before it is refilled */
        if (k + 2 < mine) {
            long long next = (blockIdx.x + (long long)(k + 2) * gridDim.x) * tile;
            int nlen = (int)min((long long)tile, n - next);
            if (tid < nlen) __pipeline_memcpy_async(&stage[s][tid], &in[next + tid], sizeof(unsigned));
            __pipeline_commit();
        }
    }
}
