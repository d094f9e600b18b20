// EXPECT warp_step SYNC static
// Bug: "the upper half of the warp mirrors the lower half", so only lanes
// 0-15 take part in the exchange, __syncwarp() (full mask) included: lanes
// 16-31 never reach those calls.
#define warp_step warp_step_reference
#include "../../../../solutions/barriers.cu"
#undef warp_step

__global__ void warp_step(const int *in, int *out, int n)
{
    extern __shared__ int slots[];
    int t = threadIdx.x;
    int lane = t & 31;
    int i = blockIdx.x * blockDim.x + t;
    int *warp_slots = slots + (t - lane);
    int sum = i < n ? in[i] : 0;
    warp_slots[lane] = sum;
    for (int d = 1; d < 32; d *= 2) {
        if (lane < 16) {
            __syncwarp();
            sum += warp_slots[lane ^ d];
            __syncwarp();
            warp_slots[lane] = sum;
        }
    }
    __syncwarp();
    if (lane >= 16)
        sum = warp_slots[lane - 16];
    if (i < n)
        out[i] = sum;
}
