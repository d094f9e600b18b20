// EXPECT tile_pipeline RACE|WRONG
// The consumers load their two values from the stage before waiting on
// full[s] ("prefetch into registers"): the copy of the tile may not have
// landed yet, so they read the previous tile or garbage. racecheck reports
// the copy's write against the read where it sees the cp.async write;
// otherwise the results are wrong (the plain runs read stale stages).
#define tile_pipeline tile_pipeline_reference
#include "../../../solutions/awbarrier.cu"
#undef tile_pipeline

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
        stage_tile(stage[k], in, base, (int)min((long long)tile, n - base), full[k]);
    }
    for (int k = 0; k < mine; k++) {
        const int s = k & 1;
        const long long base = (blockIdx.x + (long long)k * gridDim.x) * tile;
        const int len = (int)min((long long)tile, n - base);
        unsigned mine_x = 0u, mirror = 0u;
        if (tid < len) {
            mine_x = stage[s][tid];             /* BUG: before the wait */
            mirror = stage[s][len - 1 - tid];
        }
        full[s].wait_parity((k >> 1) & 1);
        if (tid < len)
            out[base + tid] = 3u * mine_x + mirror;
        if (tid == 0 && k + 2 < mine) {
            empty[s].arrive_and_wait();
            long long next = (blockIdx.x + (long long)(k + 2) * gridDim.x) * tile;
            stage_tile(stage[s], in, next, (int)min((long long)tile, n - next), full[s]);
        } else {
            (void)empty[s].arrive();
        }
    }
}
