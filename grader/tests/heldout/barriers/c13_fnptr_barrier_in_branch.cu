// EXPECT tile_reverse SYNC static
// Cheat: a barrier function called through a pointer under if (t < valid)
#define tile_reverse tile_reverse_reference
#include "../../../../solutions/barriers.cu"
#undef tile_reverse
__device__ __noinline__ void do_sync() { __syncthreads(); }
__device__ __noinline__ void no_sync() { __syncwarp(); }
typedef void (*waiter)();
__device__ waiter waiters[2] = {do_sync, no_sync};
__global__ void tile_reverse(const int *in, int *out, int n)
{
    extern __shared__ int tile[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int valid = tile_valid(n);
    waiter w = waiters[n < 0];
    if (t < valid)
        tile[t] = in[i];
    if (t < valid) w();
    if (0)
        __syncthreads();   // BUG: only some threads of the block
    if (t < valid)
        out[i] = tile[valid - 1 - t];
}
