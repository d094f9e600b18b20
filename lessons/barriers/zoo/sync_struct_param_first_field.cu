// EXPECT tile_reverse SYNC static
// The thread index as the first field of a struct passed by value to a
// __noinline__ helper that branches on it around its barrier: the caller
// stores the fields one by one ([param0+0], then [param0+4]), and each is
// followed on its own.
#define tile_reverse tile_reverse_reference
#include "../../../solutions/barriers.cu"
#undef tile_reverse
struct pair { int tid; int valid; };
__device__ __noinline__ void maybe_wait(pair p) { if (p.tid < p.valid / 2) __syncthreads(); }
__global__ void tile_reverse(const int *in, int *out, int n)
{
    extern __shared__ int tile[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int valid = tile_valid(n);
    pair p = {t, valid};
    if (t < valid)
        tile[t] = in[i];
    maybe_wait(p);   // BUG: its barrier is under p.tid, the thread index
    if (t < valid)
        out[i] = tile[valid - 1 - t];
}
