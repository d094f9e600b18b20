// EXPECT tile_pipeline TIMEOUT|SYNC
// The producer issues memcpy_async on full[s] but never arrives: the copy
// adds itself to the phase (cp.async.mbarrier.arrive counts one more
// pending arrival and makes it when the bytes land), which is not the
// producer's own arrival. full[s] expects 1 arrival, gets none, and every
// consumer waits forever on the first tile.
#define tile_pipeline tile_pipeline_reference
#include "../../../solutions/awbarrier.cu"
#undef tile_pipeline

__device__ void stage_tile_no_arrive(unsigned *stage, const unsigned *in, long long base, int len,
                                     block_barrier &full)
{
    cuda::memcpy_async(stage, in + base, sizeof(unsigned) * (size_t)len, full);
    /* BUG: no full.arrive() */
}

__global__ void tile_pipeline(const unsigned *in, unsigned *out, int n)
{
    __shared__ block_barrier full[2], empty[2];
    __shared__ unsigned stage[2][TP_MAX_BLOCK];
    const int tid = threadIdx.x, tile = blockDim.x;
    const long long tiles = ((long long)n + tile - 1) / tile;
    const int mine = blockIdx.x < tiles ? (int)((tiles - 1 - blockIdx.x) / gridDim.x + 1) : 0;

    if (tid == 0)
        for (int s = 0; s < 2; s++) {
            init(&full[s], 1);
            init(&empty[s], tile);
        }
    __syncthreads();
    for (int k = 0; tid == 0 && k < 2 && k < mine; k++) {
        long long base = (blockIdx.x + (long long)k * gridDim.x) * tile;
        stage_tile_no_arrive(stage[k], in, base, (int)min((long long)tile, n - base), full[k]);
    }
    for (int k = 0; k < mine; k++) {
        const int s = k & 1;
        const long long base = (blockIdx.x + (long long)k * gridDim.x) * tile;
        const int len = (int)min((long long)tile, n - base);
        full[s].wait_parity((k >> 1) & 1);
        if (tid < len)
            out[base + tid] = 3u * stage[s][tid] + stage[s][len - 1 - tid];
        if (tid == 0 && k + 2 < mine) {
            empty[s].arrive_and_wait();
            long long next = (blockIdx.x + (long long)(k + 2) * gridDim.x) * tile;
            stage_tile_no_arrive(stage[s], in, next, (int)min((long long)tile, n - next), full[s]);
        } else {
            (void)empty[s].arrive();
        }
    }
}
