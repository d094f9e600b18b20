// EXPECT warp_step PASS
// Correct: __syncwarp with masks from __activemask() / __ballot_sync() inside
// a warp-uniform branch; every lane of each warp is in it.
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
    if ((t >> 5) < (int)(blockDim.x >> 5)) {   // always true, warp-uniform
        unsigned m = __ballot_sync(0xffffffffu, 1);
        for (int d = 1; d < 32; d *= 2) {
            warp_slots[lane] = sum;
            __syncwarp(m);
            sum += warp_slots[lane ^ d];
            __syncwarp(__activemask());
        }
    }
    if (i < n)
        out[i] = sum;
}
