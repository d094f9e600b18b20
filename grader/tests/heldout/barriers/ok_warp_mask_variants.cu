// EXPECT warp_step PASS
// Correct: volatile shared slots, __syncwarp(0xffffffffu) then __syncwarp(__activemask())
// (all 32 lanes are in the loop, so the active mask is full).
#define warp_step warp_step_reference
#include "../../../../solutions/barriers.cu"
#undef warp_step
__global__ void warp_step(const int *in, int *out, int n)
{
    extern __shared__ int slots[];
    volatile int *vs = slots;
    int t = threadIdx.x, lane = t % 32;
    volatile int *ws = vs + (t - lane);
    int i = blockIdx.x * blockDim.x + t;
    int sum = i < n ? in[i] : 0;
    const unsigned full = ~0u;
    for (int d = 16; d >= 1; d >>= 1) {   // reverse order of distances: same sum
        ws[lane] = sum;
        __syncwarp(full);
        sum += ws[lane ^ d];
        __syncwarp(__activemask());
    }
    if (i < n)
        out[i] = sum;
}
