// EXPECT tile_reverse SYNC static
// Cheat: control-dependent flag: flag set only in a tid branch that also stores
#define tile_reverse tile_reverse_reference
#include "../../../../solutions/barriers.cu"
#undef tile_reverse

__global__ void tile_reverse(const int *in, int *out, int n)
{
    extern __shared__ int tile[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int valid = tile_valid(n);
    __shared__ int sink[1024];
    int flag = 0;
    if (t < valid / 2) {
        sink[t] = t;
        flag = 1;
    } else {
        sink[t] = -t;
    }
    asm volatile("" : "+r"(flag));
    if (t < valid)
        tile[t] = in[i];
    if (flag)
        __syncthreads();   // BUG: only some threads of the block
    if (t < valid)
        out[i] = tile[valid - 1 - t];
}
