// EXPECT halo_diff WRONG
// No halo: the block treats its own edges as the array's edges (y = 0 just
// outside the tile), so the first and last element of every tile are wrong.
#define halo_diff halo_diff_reference
#include "../../../solutions/barriers.cu"
#undef halo_diff

__global__ void halo_diff(const int *in, int *out, int *scratch, int n)
{
    extern __shared__ int ys[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    (void)scratch;

    ys[1 + t] = y_at(in, i, n);
    if (t == 0)
        ys[0] = 0;                      // BUG: y(base - 1) from in[]
    if (t == (int)blockDim.x - 1)
        ys[blockDim.x + 1] = 0;         // BUG: y(base + blockDim.x) from in[]
    __syncthreads();
    if (i < n)
        out[i] = ys[t + 2] - ys[t];
}
