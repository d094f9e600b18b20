// EXPECT warp_step SYNC static
// Bug: the exchange in place, slots[lane] += slots[lane ^ d], one
// __syncwarp() per step. Between two __syncwarp() calls lane L reads slot
// L ^ d while lane L ^ d writes it: a race (racecheck did not report it).
#define warp_step warp_step_reference
#include "../../../solutions/barriers.cu"
#undef warp_step

__global__ void warp_step(const int *in, int *out, int n)
{
    extern __shared__ int slots[];
    int t = threadIdx.x;
    int lane = t & 31;
    int i = blockIdx.x * blockDim.x + t;
    int *warp_slots = slots + (t - lane);
    warp_slots[lane] = i < n ? in[i] : 0;
    __syncwarp();
    for (int d = 1; d < 32; d *= 2) {
        warp_slots[lane] += warp_slots[lane ^ d];
        __syncwarp();
    }
    if (i < n)
        out[i] = warp_slots[lane];
}
