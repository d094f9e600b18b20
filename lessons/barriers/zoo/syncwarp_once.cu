// EXPECT warp_step SYNC static
// (RACE from racecheck before issue 27: the PTX check of the exchange in
// place sees this write-after-read, unrolled, before anything runs.)
// Only the first __syncwarp(): a lane's next write may overwrite its slot
// before the partner has read the previous value (write-after-read).
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
        __syncwarp();
        sum += warp_slots[lane ^ d];
        // BUG: __syncwarp() missing before the next iteration's write
    }
    if (i < n)
        out[i] = sum;
}
