// EXPECT tile_reverse SYNC static
// Bug: barrier two __noinline__ calls deep, reached under if (t & 1).
#define tile_reverse tile_reverse_reference
#include "../../../../solutions/barriers.cu"
#undef tile_reverse

__device__ __noinline__ void inner_wait(int *p) { __syncthreads(); (void)p; }
__device__ __noinline__ void outer_wait(int *p) { inner_wait(p); }

__global__ void tile_reverse(const int *in, int *out, int n)
{
    extern __shared__ int tile[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int valid = tile_valid(n);
    if (t < valid)
        tile[t] = in[i];
    __syncthreads();
    if (t & 1)
        outer_wait(tile);   // BUG: odd threads only
    if (t < valid)
        out[i] = tile[valid - 1 - t];
}
