// EXPECT tile_reverse SYNC static
// Bug: switch on t % 4: cases 0-2 __syncthreads(), case 3 __syncwarp().
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
    switch (t % 4) {
    case 0:  __syncthreads(); break;
    case 1:  __syncthreads(); break;
    case 2:  __syncthreads(); break;
    default: __syncwarp(); break;   // BUG
    }
    if (t < valid)
        out[i] = tile[valid - 1 - t];
}
