// EXPECT tile_reverse PASS
// Correct: a barrier under a flag every thread reads from shared memory
// (uniform: written by thread 0 before a barrier), and in a loop whose trip
// count is a uniform value loaded from shared memory.
#define tile_reverse tile_reverse_reference
#include "../../../../solutions/barriers.cu"
#undef tile_reverse

__global__ void tile_reverse(const int *in, int *out, int n)
{
    extern __shared__ int tile[];
    __shared__ int flag, rounds;
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int valid = tile_valid(n);
    if (t == 0) {
        flag = valid > 0;
        rounds = 1 + (valid & 1);
    }
    __syncthreads();
    if (t < valid)
        tile[t] = in[i];
    if (flag)
        __syncthreads();
    for (int r = 0; r < rounds; r++)
        __syncthreads();
    if (t < valid)
        out[i] = tile[valid - 1 - t];
}
