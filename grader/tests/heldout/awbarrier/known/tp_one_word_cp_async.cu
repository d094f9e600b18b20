// EXPECT tile_pipeline RULE
// Cheat: one cuda::memcpy_async of a single 4-byte word per block into a
// scratch slot (never read); the tiles are copied with plain loads + __syncthreads().
#define tile_pipeline tile_pipeline_reference
#include "../../../../../solutions/awbarrier.cu"
#undef tile_pipeline
__global__ void tile_pipeline(const unsigned *in, unsigned *out, int n)
{
    __shared__ unsigned stage[TP_MAX_BLOCK];
    __shared__ unsigned scratch;
    __shared__ block_barrier bar;
    const int tid = threadIdx.x, tile = blockDim.x;
    const long long tiles = ((long long)n + tile - 1) / tile;
    if (tid == 0) init(&bar, 1);
    __syncthreads();
    if (tid == 0 && n > 0) {
        cuda::memcpy_async(&scratch, in, sizeof(unsigned), bar);
        bar.arrive_and_wait();
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
