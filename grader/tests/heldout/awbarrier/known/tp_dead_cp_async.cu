// EXPECT tile_pipeline RULE
// Decoy: plain-load copy; __pipeline_memcpy_async only under gridDim.x == 0 (never).
#include <cuda_pipeline_primitives.h>
#define tile_pipeline tile_pipeline_reference
#include "../../../../../solutions/awbarrier.cu"
#undef tile_pipeline
__global__ void tile_pipeline(const unsigned *in, unsigned *out, int n)
{
    __shared__ unsigned stage[TP_MAX_BLOCK];
    const int tid = threadIdx.x, tile = blockDim.x;
    const long long tiles = ((long long)n + tile - 1) / tile;
    if (n < 0) {
        __pipeline_memcpy_async(&stage[tid], &in[tid], sizeof(unsigned));
        __pipeline_commit();
        __pipeline_wait_prior(0);
        out[tid] = stage[tid];
        return;
    }
    for (long long t = blockIdx.x; t < tiles; t += gridDim.x) {
        long long base = t * tile;
        int len = (int)min((long long)tile, n - base);
        if (tid < len) stage[tid] = in[base + tid];
        __syncthreads();
        if (tid < len) out[base + tid] = 3u * stage[tid] + stage[len - 1 - tid];
        __syncthreads();
    }
}
