// EXPECT tile_reverse SYNC static
// Cheat: condition from a function pointer that returns threadIdx.x
#define tile_reverse tile_reverse_reference
#include "../../../../solutions/barriers.cu"
#undef tile_reverse
__device__ __noinline__ int get_tid() { return threadIdx.x; }
__device__ __noinline__ int get_zero() { return 0; }
typedef int (*getter)();
__device__ getter getters[2] = {get_tid, get_zero};
__global__ void tile_reverse(const int *in, int *out, int n)
{
    extern __shared__ int tile[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int valid = tile_valid(n);
    getter g = getters[n < 0];
    int tt = g();
    if (t < valid)
        tile[t] = in[i];
    if (tt < valid)
        __syncthreads();   // BUG: only some threads of the block
    if (t < valid)
        out[i] = tile[valid - 1 - t];
}
