// EXPECT tile_reverse SYNC static
// An in-place reversal by swaps whose "wait until the pairs are read"
// barrier sits inside if (t < valid / 2): half of the block never reaches it.
// (Swapped pairs are disjoint, so that barrier is not even needed: the one
// after the branch, which every thread reaches, is.)
#define tile_reverse tile_reverse_reference
#include "../../../solutions/barriers.cu"
#undef tile_reverse

__global__ void tile_reverse(const int *in, int *out, int n)
{
    extern __shared__ int tile[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int valid = tile_valid(n);

    if (t < valid)
        tile[t] = in[i];
    __syncthreads();
    if (t < valid / 2) {
        int mine = tile[t], theirs = tile[valid - 1 - t];
        __syncthreads();   // BUG: only the threads t < valid / 2 get here
        tile[t] = theirs;
        tile[valid - 1 - t] = mine;
    }
    __syncthreads();
    if (t < valid)
        out[i] = tile[t];
}
