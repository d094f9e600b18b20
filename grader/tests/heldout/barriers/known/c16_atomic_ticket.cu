// EXPECT tile_reverse SYNC static
// Cheat: atomicAdd ticket in shared memory (through memory: left to GPU by design)
#define tile_reverse tile_reverse_reference
#include "../../../../../solutions/barriers.cu"
#undef tile_reverse

__global__ void tile_reverse(const int *in, int *out, int n)
{
    extern __shared__ int tile[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int valid = tile_valid(n);
    __shared__ int ctr;
    if (t == 0) ctr = 0;
    __syncthreads();
    int tt = atomicAdd(&ctr, 1);
    if (t < valid)
        tile[t] = in[i];
    if (tt < valid / 2)
        __syncthreads();   // BUG: only some threads of the block
    if (t < valid)
        out[i] = tile[valid - 1 - t];
}
