// EXPECT halo_diff WRONG
// The seed's dkernel: y goes to global memory and the neighbours are read
// back after __syncthreads(). That barrier waits for this block only: the
// neighbour at a block edge belongs to another block, which may not have
// run yet. racecheck cannot see it (global memory); the full runs can.
#define halo_diff halo_diff_reference
#include "../../../solutions/barriers.cu"
#undef halo_diff

__global__ void halo_diff(const int *in, int *out, int *scratch, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i < n)
        scratch[i] = halo_y(in[i]);
    __syncthreads();   // BUG: does not wait for the other blocks
    if (i < n) {
        int right = i + 1 < n ? scratch[i + 1] : 0;
        int left = i > 0 ? scratch[i - 1] : 0;
        out[i] = right - left;
    }
}
