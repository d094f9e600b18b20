// EXPECT tile_pipeline RULE
// (PASS before issue 27: the lesson now requires the copy to complete on an
// asynchronous barrier, which this correct pipeline does not use.)
// Correct as CUDA, not the exercise: the C primitives of <cuda_pipeline.h>: each thread stages its own element with
// __pipeline_memcpy_async (cp.async), double-buffered with commit / wait_prior(1);
// __syncthreads() because a thread reads another's element (stage[len-1-tid]).
#include <cuda_pipeline.h>
#define tile_pipeline tile_pipeline_reference
#include "../../../../solutions/awbarrier.cu"
#undef tile_pipeline

__device__ __forceinline__ void stage_mine(unsigned *st, const unsigned *in, long long base,
                                           int len, int tid)
{
    if (tid < len)
        __pipeline_memcpy_async(st + tid, in + base + tid, sizeof(unsigned));
    __pipeline_commit();
}

__global__ void tile_pipeline(const unsigned *in, unsigned *out, int n)
{
    __shared__ unsigned stage[2][TP_MAX_BLOCK];
    const int tid = threadIdx.x, tile = blockDim.x;
    const long long tiles = ((long long)n + tile - 1) / tile;
    const int mine = blockIdx.x < tiles ? (int)((tiles - 1 - blockIdx.x) / gridDim.x + 1) : 0;
    for (int k = 0; k < 2; k++) {
        long long base = (blockIdx.x + (long long)k * gridDim.x) * tile;
        stage_mine(stage[k], in, base, k < mine ? (int)min((long long)tile, n - base) : 0, tid);
    }
    for (int k = 0; k < mine; k++) {
        const int s = k & 1;
        const long long base = (blockIdx.x + (long long)k * gridDim.x) * tile;
        const int len = (int)min((long long)tile, n - base);
        __pipeline_wait_prior(1);   /* my copy of tile k has landed */
        __syncthreads();            /* ... and everybody's */
        if (tid < len)
            out[base + tid] = 3u * stage[s][tid] + stage[s][len - 1 - tid];
        __syncthreads();            /* stage s fully read before it is refilled */
        long long next = (blockIdx.x + (long long)(k + 2) * gridDim.x) * tile;
        stage_mine(stage[s], in, next, k + 2 < mine ? (int)min((long long)tile, n - next) : 0, tid);
    }
}
