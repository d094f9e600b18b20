// EXPECT tile_reverse SYNC static
// Cheat: threadIdx.x through a real local-memory array (ld.local; left to GPU by design)
#define tile_reverse tile_reverse_reference
#include "../../../../../solutions/barriers.cu"
#undef tile_reverse

__global__ void tile_reverse(const int *in, int *out, int n)
{
    extern __shared__ int tile[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int valid = tile_valid(n);
    volatile int loc[4];
    loc[t & 3] = t;
    int tt = loc[t & 3];
    if (t < valid)
        tile[t] = in[i];
    if (tt < valid)
        __syncthreads();   // BUG: only some threads of the block
    if (t < valid)
        out[i] = tile[valid - 1 - t];
}
