// EXPECT warp_step PASS
// Correct: the same exchange kept in shared memory, the partner's slot read
// into a register, __syncwarp(), then the own slot written, __syncwarp().
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
        int partner = warp_slots[lane ^ d];
        __syncwarp();
        warp_slots[lane] += partner;
        __syncwarp();
    }
    if (i < n)
        out[i] = warp_slots[lane];
}
