// EXPECT tile_reverse PASS
// Correct: a chunked copy loop whose trip count depends only on blockDim.x
// and n (uniform), with a barrier in every iteration; the last threads'
// chunk is guarded inside, the barrier is not.
#define tile_reverse tile_reverse_reference
#include "../../../../solutions/barriers.cu"
#undef tile_reverse

__global__ void tile_reverse(const int *in, int *out, int n)
{
    extern __shared__ int tile[];
    int t = threadIdx.x;
    int base = blockIdx.x * blockDim.x;
    int valid = tile_valid(n);
    int steps = ((int)blockDim.x + 31) / 32;
    for (int k = 0; k < steps; k++) {
        int j = k * 32 + (t & 31);
        if (t < 32 && j < valid)
            tile[j] = in[base + j];
        __syncthreads();
    }
    for (unsigned s = blockDim.x; s > 1; s >>= 1)
        __syncthreads();
    if (t < valid)
        out[base + t] = tile[valid - 1 - t];
}
