// EXPECT warp_step SYNC static
// Bug: lane 0 "checks" the warp's slots under a full-mask __syncwarp() that
// only it reaches (threadIdx.x % 32 == 0).
#define warp_step warp_step_reference
#include "../../../../solutions/barriers.cu"
#undef warp_step

__global__ void warp_step(const int *in, int *out, int n)
{
    extern __shared__ int slots[];
    int t = threadIdx.x;
    int lane = t % 32;
    int i = blockIdx.x * blockDim.x + t;
    int *warp_slots = slots + (t - lane);
    int sum = i < n ? in[i] : 0;
    for (int d = 1; d < 32; d *= 2) {
        warp_slots[lane] = sum;
        __syncwarp();
        sum += warp_slots[lane ^ d];
        if (t % 32 == 0)
            __syncwarp(0xffffffffu);
        __syncwarp();
    }
    if (i < n)
        out[i] = sum;
}
