// EXPECT half_block PASS
// Correct: no cg at all in the branch: a shared tree per warp-sized tile with
// __syncwarp(mask), mask = the lanes of this warp with r < half (0xffff for blocks of 32).
#define half_block half_block_reference
#include "../../../../solutions/coop.cu"
#undef half_block

__global__ void half_block(const int *in, int n, int *out)
{
    __shared__ int temp[COOP_MAX_BLOCK / 2];
    __shared__ int tile_sums[COOP_MAX_BLOCK / 64];
    int half = (int)blockDim.x / 2;
    int tile_size = half < 32 ? half : 32;
    unsigned mask = tile_size == 32 ? 0xffffffffu : 0x0000ffffu;
    int base = blockIdx.x * blockDim.x;
    int r = threadIdx.x;
    if (r < half) {
        int a = base + r, b = base + r + half;
        int v = (a < n ? in[a] : 0) + (b < n ? in[b] : 0);
        int *tt = temp + (r - r % tile_size);
        int k = r % tile_size;
        for (int h = tile_size / 2; h > 0; h /= 2) {
            tt[k] = v;
            __syncwarp(mask);
            if (k < h) v += tt[k + h];
            __syncwarp(mask);
        }
        if (k == 0)
            tile_sums[r / tile_size] = v;
    }
    __syncthreads();
    int chunk_sum = 0;
    for (int t = 0; t < half / tile_size; t++)
        chunk_sum += tile_sums[t];
    int i = base + r;
    if (i < n)
        out[i] = chunk_sum - in[i];
}
