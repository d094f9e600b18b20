// EXPECT warp_step WRONG
// The lanes past n return before the loop. The __syncwarp() calls are fine:
// lanes that have exited are excused from the mask (Programming Guide: every
// non-exited lane named in the mask must call it; measured on an H100, no
// hang, synccheck and racecheck clean). The bug is the data: the remaining
// lanes read the slots of the exited ones, which nobody wrote, so only the
// wrong sums give it away.
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

    if (i >= n)
        return;   // BUG: these lanes must stay and add 0
    int sum = in[i];
    for (int d = 1; d < 32; d *= 2) {
        warp_slots[lane] = sum;
        __syncwarp();
        sum += warp_slots[lane ^ d];
        __syncwarp();
    }
    out[i] = sum;
}
