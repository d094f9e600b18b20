// EXPECT warp_step PASS
// Correct: warps that lie wholly past n skip the exchange. The condition is
// on the warp's first element (t - lane), the same for all 32 lanes, so
// every lane of a warp that enters reaches each full-mask __syncwarp().
#define warp_step warp_step_reference
#include "../../../../solutions/barriers.cu"
#undef warp_step

__global__ void warp_step(const int *in, int *out, int n)
{
    extern __shared__ int slots[];
    int t = threadIdx.x;
    int lane = t & 31;
    int i = blockIdx.x * blockDim.x + t;
    int warp_first = blockIdx.x * blockDim.x + (t - lane);
    int *warp_slots = slots + (t - lane);
    if (warp_first < n) {
        int sum = i < n ? in[i] : 0;
        for (int d = 1; d < 32; d *= 2) {
            warp_slots[lane] = sum;
            __syncwarp();
            sum += warp_slots[lane ^ d];
            __syncwarp();
        }
        if (i < n)
            out[i] = sum;
    }
}
