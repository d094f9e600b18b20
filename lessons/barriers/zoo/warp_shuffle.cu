// EXPECT warp_step RULE
// Right answer with __shfl_xor_sync: correct, but the exercise is the
// shared-memory exchange and its __syncwarp(), which shuffles hide.
#define warp_step warp_step_reference
#include "../../../solutions/barriers.cu"
#undef warp_step

__global__ void warp_step(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int sum = i < n ? in[i] : 0;
    for (int d = 1; d < 32; d *= 2)
        sum += __shfl_xor_sync(0xffffffffu, sum, d);
    if (i < n)
        out[i] = sum;
}
