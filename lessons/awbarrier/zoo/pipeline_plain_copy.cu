// EXPECT tile_pipeline RULE
// Correct results, but the tiles are copied into shared memory with plain
// loads and stores and __syncthreads(): no asynchronous copy (no cp.async in
// the PTX), so nothing overlaps and it is not the exercise.
#define tile_pipeline tile_pipeline_reference
#include "../../../solutions/awbarrier.cu"
#undef tile_pipeline

__global__ void tile_pipeline(const unsigned *in, unsigned *out, int n)
{
    __shared__ unsigned stage[TP_MAX_BLOCK];
    const int tid = threadIdx.x, tile = blockDim.x;
    const long long tiles = ((long long)n + tile - 1) / tile;
    for (long long t = blockIdx.x; t < tiles; t += gridDim.x) {
        const long long base = t * tile;
        const int len = (int)min((long long)tile, n - base);
        if (tid < len)
            stage[tid] = in[base + tid];
        __syncthreads();
        if (tid < len)
            out[base + tid] = 3u * stage[tid] + stage[len - 1 - tid];
        __syncthreads();   /* before the next tile overwrites the stage */
    }
}
