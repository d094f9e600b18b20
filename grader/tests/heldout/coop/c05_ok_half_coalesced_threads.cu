// EXPECT half_block PASS
// Correct: inside if (r < half), cg::coalesced_threads() is exactly the lanes of this warp in the
// first half (16 for blocks of 32, 32 otherwise; the whole block arrives converged at the if);
// cg::reduce over it. Its sync would be a masked __syncwarp, not a block barrier.
#define half_block half_block_reference
#include "../../../../solutions/coop.cu"
#undef half_block

__global__ void half_block(const int *in, int n, int *out)
{
    __shared__ int tile_sums[COOP_MAX_BLOCK / 64];
    cg::thread_block block = cg::this_thread_block();
    int half = (int)blockDim.x / 2;
    int tile_size = half < 32 ? half : 32;
    int base = blockIdx.x * blockDim.x;
    int r = (int)block.thread_rank();
    if (r < half) {
        cg::coalesced_group active = cg::coalesced_threads();
        int a = base + r, b = base + r + half;
        int v = (a < n ? in[a] : 0) + (b < n ? in[b] : 0);
        int s = cg::reduce(active, v, cg::plus<int>());
        if (active.thread_rank() == 0)
            tile_sums[r / tile_size] = s;
    }
    block.sync();
    int chunk_sum = 0;
    for (int t = 0; t < half / tile_size; t++)
        chunk_sum += tile_sums[t];
    int i = base + r;
    if (i < n)
        out[i] = chunk_sum - in[i];
}
