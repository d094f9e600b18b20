// EXPECT tile_pipeline TIMEOUT|SYNC|WRONG|RACE
// Waits with parity k % 2 instead of (k / 2) % 2: each stage is used every
// other tile, so its barrier is in phase k / 2. wait_parity(p) returns as
// soon as the phase of parity p is the one just completed, and blocks while
// it is the current one. Tile 1 (stage 1, phase 0) is waited with parity 1:
// if its copy has not landed yet the wait returns at once and the thread
// reads a stale stage (WRONG, or RACE where racecheck sees the copy); if it
// has landed, the wait is for phase 1 of full[1], tile 3, which thread 0
// copies only after every thread is done with tile 1: nobody goes on
// (TIMEOUT). Which comes first depends on timing; the small inputs with
// many tiles per block make the hang the likely one.
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
        full[s].wait_parity(k & 1);   /* BUG: the phase of full[s] is k / 2 */
        if (tid < len)
            out[base + tid] = 3u * stage[s][tid] + stage[s][len - 1 - tid];
        if (tid == 0 && k + 2 < mine) {
            empty[s].arrive_and_wait();
            long long next = (blockIdx.x + (long long)(k + 2) * gridDim.x) * tile;
            stage_tile(stage[s], in, next, (int)min((long long)tile, n - next), full[s]);
        } else {
            (void)empty[s].arrive();
        }
    }
}
