// EXPECT tile_pipeline PASS
// Correct, though it overlaps nothing: one stage, the whole block copies a
// tile with cuda::memcpy_async(block, ..., bar) and waits on the barrier
// (arrive_and_wait), then a second arrive_and_wait before the stage is
// refilled. The copy completes on the asynchronous barrier, as asked.
#define tile_pipeline tile_pipeline_reference
#include "../../../solutions/awbarrier.cu"
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
        cuda::memcpy_async(block, stage, in + base, sizeof(unsigned) * (size_t)len, bar);
        bar.arrive_and_wait();   /* the tile has landed */
        if (tid < len)
            out[base + tid] = 3u * stage[tid] + stage[len - 1 - tid];
        bar.arrive_and_wait();   /* every thread has read it before the next copy */
    }
}
