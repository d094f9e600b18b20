// EXPECT tile_reverse SYNC static
// The classic: the whole body, barrier included, inside if (i < n). In a
// partial last block the threads past n never reach the barrier. On an H100
// this happens to give right answers (the skipping threads exit at once and
// the barrier stops waiting for them) and synccheck stays silent; the grader
// finds the barrier under a thread-dependent branch in the PTX.
#define tile_reverse tile_reverse_reference
#include "../../../solutions/barriers.cu"
#undef tile_reverse

__global__ void tile_reverse(const int *in, int *out, int n)
{
    extern __shared__ int tile[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int valid = tile_valid(n);

    if (i < n) {
        tile[t] = in[i];
        __syncthreads();   // BUG: only the threads with an element get here
        out[i] = tile[valid - 1 - t];
    }
}
