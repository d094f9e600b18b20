// EXPECT tile_reverse SYNC static
// Cheat: __shfl_sync(full, t, 0): warp-uniform, not block-uniform
#define tile_reverse tile_reverse_reference
#include "../../../../solutions/barriers.cu"
#undef tile_reverse

__global__ void tile_reverse(const int *in, int *out, int n)
{
    extern __shared__ int tile[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int valid = tile_valid(n);
    int w0 = __shfl_sync(0xffffffffu, t, 0);
    if (t < valid)
        tile[t] = in[i];
    if (w0 < 32)
        __syncthreads();   // BUG: only some threads of the block
    if (t < valid)
        out[i] = tile[valid - 1 - t];
}
