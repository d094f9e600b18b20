// EXPECT warp_step RULE
// The butterfly's slots written and read with atomics on shared memory (atomicExch, atomicAdd of 0), with __syncwarp(): racecheck does not follow atomics, so the exchange would go unchecked; the rule refuses every cross-lane data class but plain shared stores and loads
#define warp_step warp_step_reference
#include "../../../../solutions/barriers.cu"
#undef warp_step
__global__ void warp_step(const int *in, int *out, int n)
{
    extern __shared__ int slots[];
    int t = threadIdx.x, lane = t & 31, i = blockIdx.x * blockDim.x + t;
    int *warp_slots = slots + (t - lane);
    int sum = i < n ? in[i] : 0;
    for (int d = 1; d < 32; d *= 2) {
        atomicExch(&warp_slots[lane], sum);
        __syncwarp();
        sum += atomicAdd(&warp_slots[lane ^ d], 0);
        __syncwarp();
    }
    if (i < n)
        out[i] = sum;
}
