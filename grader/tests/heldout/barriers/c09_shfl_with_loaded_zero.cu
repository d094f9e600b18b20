// EXPECT tile_reverse SYNC static
// Cheat: tid xor a zero loaded from shared memory, sent through __shfl_xor_sync(.., 0): the shfl of loaded data is not followed
#define tile_reverse tile_reverse_reference
#include "../../../../solutions/barriers.cu"
#undef tile_reverse

__global__ void tile_reverse(const int *in, int *out, int n)
{
    extern __shared__ int tile[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int valid = tile_valid(n);
    __shared__ int zero;
    if (t == 0) zero = 0;
    __syncwarp();
    int tt = __shfl_xor_sync(0xffffffffu, t ^ zero, 0);
    if (t < valid)
        tile[t] = in[i];
    if (tt < valid)
        __syncthreads();   // BUG: only some threads of the block
    if (t < valid)
        out[i] = tile[valid - 1 - t];
}
