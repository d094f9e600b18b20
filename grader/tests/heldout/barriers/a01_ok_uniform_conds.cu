// EXPECT tile_reverse PASS
// Correct: extra barriers under block-uniform conditions (blockIdx, gridDim,
// blockDim, a kernel parameter, tile_valid() which is uniform per block).
#define tile_reverse tile_reverse_reference
#include "../../../../solutions/barriers.cu"
#undef tile_reverse

__global__ void tile_reverse(const int *in, int *out, int n)
{
    extern __shared__ int tile[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int valid = tile_valid(n);
    if (blockIdx.x + 1 < gridDim.x)   // not the last block: whole tile
        __syncthreads();
    if (blockDim.x >= 64 && n > 0)
        __syncthreads();
    if (t < valid)
        tile[t] = in[i];
    if (valid == (int)blockDim.x)
        __syncthreads();
    else
        __syncthreads();
    if (n > (int)(blockIdx.x * blockDim.x) && valid > 0)
        __syncthreads();
    if (t < valid)
        out[i] = tile[valid - 1 - t];
}
