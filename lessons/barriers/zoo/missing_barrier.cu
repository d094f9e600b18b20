// EXPECT tile_reverse RACE
// No barrier between writing the tile and reading it: a thread may read a
// slot before the thread that owns it has written it.
#define tile_reverse tile_reverse_reference
#include "../../../solutions/barriers.cu"
#undef tile_reverse

__global__ void tile_reverse(const int *in, int *out, int n)
{
    extern __shared__ int tile[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int valid = tile_valid(n);

    if (t < valid)
        tile[t] = in[i];
    // BUG: __syncthreads() missing here.
    if (t < valid)
        out[i] = tile[valid - 1 - t];
}
