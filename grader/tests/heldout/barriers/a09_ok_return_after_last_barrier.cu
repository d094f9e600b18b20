// EXPECT tile_reverse PASS
// Correct: whole warps past the tile and threads past valid return early,
// but only after the last barrier.
#define tile_reverse tile_reverse_reference
#include "../../../../solutions/barriers.cu"
#undef tile_reverse

__global__ void tile_reverse(const int *in, int *out, int n)
{
    extern __shared__ int tile[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int valid = tile_valid(n);
    if (t < valid)
        tile[t] = in[i];
    __syncthreads();
    if ((t >> 5) * 32 >= valid)
        return;               // whole warps with nothing to do
    if (t >= valid)
        return;
    out[i] = tile[valid - 1 - t];
}
