// EXPECT tile_reverse PASS
// Correct: a __noinline__ helper gets a struct {valid, tid} by value and
// branches only on the block-uniform field p.valid around its barrier.
#define tile_reverse tile_reverse_reference
#include "../../../../solutions/barriers.cu"
#undef tile_reverse

struct pair { int valid; int tid; };
__device__ __noinline__ void wait_then_read(pair p, const int *tile, int *dst)
{
    if (p.valid > 0)          // uniform: every thread of the block has the same valid
        __syncthreads();
    if (p.tid < p.valid)
        *dst = tile[p.valid - 1 - p.tid];
}

__global__ void tile_reverse(const int *in, int *out, int n)
{
    extern __shared__ int tile[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int valid = tile_valid(n);
    if (t < valid)
        tile[t] = in[i];
    pair p = {valid, t};
    wait_then_read(p, tile, out + i);
}
