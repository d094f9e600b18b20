// EXPECT tile_pipeline PASS
// Correct, in the other classic shape: every thread is producer and
// consumer. The whole block issues each copy together
// (cuda::memcpy_async(block, ...)), so every thread arrives on the stage's
// barrier (init with blockDim.x) and waits with arrive_and_wait(). One
// barrier per stage then does both jobs: the phase of tile k completes
// only when the copy has landed and every thread has arrived, and each
// thread arrives after it finished reading tile k - 1, so the copy of tile
// k + 1 into the other stage, issued after that wait, overwrites nothing
// still in use.
#define tile_pipeline tile_pipeline_reference
#include "../../../solutions/awbarrier.cu"
#undef tile_pipeline

__global__ void tile_pipeline(const unsigned *in, unsigned *out, int n)
{
    __shared__ block_barrier bar[2];
    __shared__ unsigned stage[2][TP_MAX_BLOCK];
    cg::thread_block block = cg::this_thread_block();
    const int tid = threadIdx.x, tile = blockDim.x;
    const long long tiles = ((long long)n + tile - 1) / tile;

    if (tid == 0) {
        init(&bar[0], tile);
        init(&bar[1], tile);
    }
    block.sync();

    long long t = blockIdx.x;
    if (t < tiles) {
        int len = (int)min((long long)tile, n - t * tile);
        cuda::memcpy_async(block, stage[0], in + t * tile, sizeof(unsigned) * (size_t)len, bar[0]);
    }
    for (int k = 0; t < tiles; k++, t += gridDim.x) {
        const int s = k & 1;
        const long long base = t * tile;
        const int len = (int)min((long long)tile, n - base);
        bar[s].arrive_and_wait();   /* tile k landed; everyone is done with tile k - 1 */
        const long long next = t + gridDim.x;
        if (next < tiles) {
            int next_len = (int)min((long long)tile, n - next * tile);
            cuda::memcpy_async(block, stage[s ^ 1], in + next * tile,
                               sizeof(unsigned) * (size_t)next_len, bar[s ^ 1]);
        }
        if (tid < len)
            out[base + tid] = 3u * stage[s][tid] + stage[s][len - 1 - tid];
    }
}
