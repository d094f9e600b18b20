// EXPECT tile_reverse WRONG
// The partial last tile is reversed as if it were full: its threads read
// slots blockDim.x - 1 - t that nobody wrote (garbage), not valid - 1 - t.
#define tile_reverse tile_reverse_reference
#include "../../../solutions/barriers.cu"
#undef tile_reverse

__global__ void tile_reverse(const int *in, int *out, int n)
{
    extern __shared__ int tile[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;

    if (i < n)
        tile[t] = in[i];
    __syncthreads();
    if (i < n)
        out[i] = tile[blockDim.x - 1 - t];   // BUG: valid - 1 - t
}
