// EXPECT tile_reverse SYNC|TIMEOUT
// The barrier sits inside if (i < n): in a partial last block the threads
// past n never reach it, so it is not a barrier of the whole block.
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
