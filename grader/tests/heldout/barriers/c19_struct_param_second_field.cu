// EXPECT tile_reverse SYNC static
// Cheat: tid as the 2nd field of a struct passed by value to a __noinline__ helper
#define tile_reverse tile_reverse_reference
#include "../../../../solutions/barriers.cu"
#undef tile_reverse
struct pair { int valid; int tid; };
__device__ __noinline__ void maybe_wait(pair p) { if (p.tid < p.valid / 2) __syncthreads(); }
__global__ void tile_reverse(const int *in, int *out, int n)
{
    extern __shared__ int tile[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int valid = tile_valid(n);
    pair p = {valid, t};
    if (t < valid)
        tile[t] = in[i];
    maybe_wait(p);
    if (0)
        __syncthreads();   // BUG: only some threads of the block
    if (t < valid)
        out[i] = tile[valid - 1 - t];
}
