// EXPECT tile_reverse SYNC static
// Cheat: threadIdx.x through a volatile local (st.local/ld.local)
#define tile_reverse tile_reverse_reference
#include "../../../../solutions/barriers.cu"
#undef tile_reverse

__global__ void tile_reverse(const int *in, int *out, int n)
{
    extern __shared__ int tile[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int valid = tile_valid(n);
    volatile int vt = t;
    int tt = vt;
    if (t < valid)
        tile[t] = in[i];
    if (tt < valid)
        __syncthreads();   // BUG: only some threads of the block
    if (t < valid)
        out[i] = tile[valid - 1 - t];
}
