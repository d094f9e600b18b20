// EXPECT half_block PASS
// Correct: the hardware's answer: named barrier 1 for exactly the first half
// (bar.sync 1, half; half is a multiple of 32 when blockDim >= 64), __syncwarp(0xffff) when
// half is 16. One tree over the whole first half, sum placed in tile_sums[0], zeros elsewhere.
#define half_block half_block_reference
#include "../../../../solutions/coop.cu"
#undef half_block
__global__ void half_block(const int *in, int n, int *out)
{
    __shared__ int temp[COOP_MAX_BLOCK / 2];
    __shared__ int tile_sums[COOP_MAX_BLOCK / 64];
    int half = (int)blockDim.x / 2;
    int tile_size = half < 32 ? half : 32;
    int base = blockIdx.x * blockDim.x;
    int r = threadIdx.x;
    if (r < half) {
        int a = base + r, b = base + r + half;
        temp[r] = (a < n ? in[a] : 0) + (b < n ? in[b] : 0);
        for (int h = half / 2; h > 0; h /= 2) {
            if (half >= 32) asm volatile("bar.sync 1, %0;" :: "r"(half) : "memory");
            else __syncwarp(0x0000ffffu);
            int x = r < h ? temp[r + h] : 0;
            if (half >= 32) asm volatile("bar.sync 1, %0;" :: "r"(half) : "memory");
            else __syncwarp(0x0000ffffu);
            if (r < h) temp[r] += x;
        }
        if (r < half / tile_size) tile_sums[r] = r == 0 ? temp[0] : 0;
    }
    __syncthreads();
    int chunk_sum = 0;
    for (int t = 0; t < half / tile_size; t++)
        chunk_sum += tile_sums[t];
    int i = base + r;
    if (i < n)
        out[i] = chunk_sum - in[i];
}
