// EXPECT warp_step SYNC static
// (RACE from racecheck before issue 27; the PTX check of the exchange in
// place now sees the read of the partner's slot and the next write of the
// own slot with no __syncwarp() between them, before anything runs.)
// No __syncwarp(): the lanes of a warp are scheduled independently (Volta
// and later), so a lane may read its partner's slot before the partner wrote
// it, or after the partner already overwrote it with the next step's value.
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

    int sum = i < n ? in[i] : 0;
    for (int d = 1; d < 32; d *= 2) {
        warp_slots[lane] = sum;
        // BUG: __syncwarp() missing (write -> partner's read)
        sum += warp_slots[lane ^ d];
        // BUG: __syncwarp() missing (partner's read -> next write)
    }
    if (i < n)
        out[i] = sum;
}
