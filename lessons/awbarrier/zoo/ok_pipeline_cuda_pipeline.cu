// EXPECT tile_pipeline PASS
// Correct with cuda::pipeline, the library's packaged form of the same
// double buffer: producer_acquire() waits until a stage is free (the empty
// barrier), producer_commit() closes the copies of one tile, consumer_wait()
// waits for the oldest committed tile (the full barrier, parity included)
// and consumer_release() frees its stage. Every thread is producer and
// consumer here; the copies are cp.async, so the rule accepts it.
#include <cuda/pipeline>
#define tile_pipeline tile_pipeline_reference
#include "../../../solutions/awbarrier.cu"
#undef tile_pipeline

__global__ void tile_pipeline(const unsigned *in, unsigned *out, int n)
{
    constexpr int stages = 2;
    __shared__ unsigned stage[stages][TP_MAX_BLOCK];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, stages> state;
    cg::thread_block block = cg::this_thread_block();
    auto pipe = cuda::make_pipeline(block, &state);
    const int tid = threadIdx.x, tile = blockDim.x;
    const long long tiles = ((long long)n + tile - 1) / tile;

    /* copies run `stages` tiles ahead of the computation */
    long long fetch = blockIdx.x;
    int fetched = 0;
    for (; fetched < stages && fetch < tiles; fetched++, fetch += gridDim.x) {
        pipe.producer_acquire();
        int len = (int)min((long long)tile, n - fetch * tile);
        cuda::memcpy_async(block, stage[fetched % stages], in + fetch * tile,
                           sizeof(unsigned) * (size_t)len, pipe);
        pipe.producer_commit();
    }
    for (int k = 0; (long long)blockIdx.x + (long long)k * gridDim.x < tiles; k++) {
        const int s = k % stages;
        const long long base = ((long long)blockIdx.x + (long long)k * gridDim.x) * tile;
        const int len = (int)min((long long)tile, n - base);
        pipe.consumer_wait();
        if (tid < len)
            out[base + tid] = 3u * stage[s][tid] + stage[s][len - 1 - tid];
        pipe.consumer_release();
        if (fetch < tiles) {
            pipe.producer_acquire();
            int flen = (int)min((long long)tile, n - fetch * tile);
            cuda::memcpy_async(block, stage[fetched % stages], in + fetch * tile,
                               sizeof(unsigned) * (size_t)flen, pipe);
            pipe.producer_commit();
            fetched++;
            fetch += gridDim.x;
        }
    }
}
