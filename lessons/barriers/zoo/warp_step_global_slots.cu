// EXPECT warp_step RULE static
// The butterfly with both __syncwarp() calls, but the slots are in global
// memory (the output array): right sums, and racecheck, which sees shared
// memory only, could not check the exchange. The exercise is the exchange
// through shared memory: the PTX must touch shared memory at all.
#define warp_step warp_step_reference
#include "../../../solutions/barriers.cu"
#undef warp_step

__global__ void warp_step(const int *in, int *out, int n)
{
    int t = threadIdx.x;
    int lane = t & 31;
    int i = blockIdx.x * blockDim.x + t;
    int base = i - lane; // the warp's first element: its slots in out[]
    int sum = i < n ? in[i] : 0;
    for (int d = 1; d < 32; d *= 2) {
        if (base + lane < n)
            out[base + lane] = sum; // BUG: a global slot, not a shared one
        __syncwarp();
        sum += base + (lane ^ d) < n ? out[base + (lane ^ d)] : 0;
        __syncwarp();
    }
    if (i < n)
        out[i] = sum;
}
