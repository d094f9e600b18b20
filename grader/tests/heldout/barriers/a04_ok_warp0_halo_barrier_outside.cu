// EXPECT halo_diff PASS
// Correct: if (threadIdx.x < 32) { warp 0 computes both halos } then the
// barrier outside the branch.
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
    if (threadIdx.x < 32) {
        int lane = t & 31;
        if (lane == 0)
            ys[0] = y_at(in, base - 1, n);
        if (lane == 1 || (int)blockDim.x == 1)
            ys[blockDim.x + 1] = y_at(in, base + blockDim.x, n);
        __syncwarp(__activemask());
    }
    __syncthreads();
    if (i < n)
        out[i] = ys[t + 2] - ys[t];
}
