// EXPECT half_block SYNC static
// BUG: the first half's tree uses __syncthreads_or (bar.red.or: a block-wide barrier) inside
// if (r < half); the second half never arrives.
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
        int v = (a < n ? in[a] : 0) + (b < n ? in[b] : 0);
        temp[r] = v;
        for (int h = half / 2; h > 0; h /= 2) {
            __syncthreads_or(0);
            if (r < h) temp[r] += temp[r + h];
        }
        if (r == 0) { for (int t = 0; t < half / tile_size; t++) tile_sums[t] = 0; tile_sums[0] = temp[0]; }
    }
    __syncthreads();
    int chunk_sum = 0;
    for (int t = 0; t < half / tile_size; t++)
        chunk_sum += tile_sums[t];
    int i = base + r;
    if (i < n)
        out[i] = chunk_sum - in[i];
}
