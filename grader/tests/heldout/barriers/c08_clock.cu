// EXPECT tile_reverse SYNC static
// Cheat: clock() parity: differs between warps
#define tile_reverse tile_reverse_reference
#include "../../../../solutions/barriers.cu"
#undef tile_reverse

__global__ void tile_reverse(const int *in, int *out, int n)
{
    extern __shared__ int tile[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int valid = tile_valid(n);
    long long c = clock64();
    if (t < valid)
        tile[t] = in[i];
    if ((c & 64) != 0)
        __syncthreads();   // BUG: only some threads of the block
    if (t < valid)
        out[i] = tile[valid - 1 - t];
}
