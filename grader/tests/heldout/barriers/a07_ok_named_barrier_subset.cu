// EXPECT halo_diff PASS
// Correct: warps 0-1 use a named barrier "bar.sync 1, 64" among themselves
// (block of at least 64), then the whole block meets at __syncthreads().
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
    if (blockDim.x >= 64 && t < 64) {
        asm volatile("bar.sync 1, 64;" ::: "memory");
        if (t == 0)
            ys[0] = y_at(in, base - 1, n);
    } else if (blockDim.x < 64 && t == 0) {
        ys[0] = y_at(in, base - 1, n);
    }
    if (t == (int)blockDim.x - 1)
        ys[blockDim.x + 1] = y_at(in, base + blockDim.x, n);
    __syncthreads();
    if (i < n)
        out[i] = ys[t + 2] - ys[t];
}
