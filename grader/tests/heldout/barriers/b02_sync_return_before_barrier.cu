// EXPECT halo_diff SYNC static
// Bug: threads past n return before the barrier.
#define halo_diff halo_diff_reference
#include "../../../../solutions/barriers.cu"
#undef halo_diff

__global__ void halo_diff(const int *in, int *out, int *scratch, int n)
{
    (void)scratch;
    extern __shared__ int ys[];
    int t = threadIdx.x;
    int base = blockIdx.x * blockDim.x;
    int i = base + t;
    ys[1 + t] = y_at(in, i, n);
    if (t == 0)
        ys[0] = y_at(in, base - 1, n);
    if (t == (int)blockDim.x - 1)
        ys[blockDim.x + 1] = y_at(in, base + blockDim.x, n);
    if (i >= n)
        return;          // BUG: before the barrier
    __syncthreads();
    out[i] = ys[t + 2] - ys[t];
}
