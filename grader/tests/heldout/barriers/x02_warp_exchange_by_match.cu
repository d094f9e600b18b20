// EXPECT warp_step RULE
// __match_any_sync used to find the lanes holding the same value (data crossing lanes by an instruction, not through shared memory), then the butterfly
#define warp_step warp_step_reference
#include "../../../../solutions/barriers.cu"
#undef warp_step
__global__ void warp_step(const int *in, int *out, int n)
{
    extern __shared__ int slots[];
    int t = threadIdx.x, lane = t & 31, i = blockIdx.x * blockDim.x + t;
    int *warp_slots = slots + (t - lane);
    int sum = i < n ? in[i] : 0;
    unsigned same = __match_any_sync(0xffffffffu, sum);
    for (int d = 1; d < 32; d *= 2) {
        warp_slots[lane] = sum;
        __syncwarp();
        sum += warp_slots[lane ^ d];
        __syncwarp();
    }
    if (i < n)
        out[i] = sum + (int)(same & 0u);
}
