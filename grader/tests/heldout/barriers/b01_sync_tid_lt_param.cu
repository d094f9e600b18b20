// EXPECT tile_reverse SYNC static
// Bug: barrier under if (threadIdx.x < n), n a kernel parameter.
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
    if (threadIdx.x < (unsigned)n)   // BUG: threads past n skip it
        __syncthreads();
    if (t < valid)
        out[i] = tile[valid - 1 - t];
}
