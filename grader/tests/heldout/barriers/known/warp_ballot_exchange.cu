// EXPECT warp_step RULE
// Evasion: no shared memory, no shfl/redux: the butterfly moves each partner's
// 32-bit value bit by bit through __ballot_sync (vote.sync.ballot).
#define warp_step warp_step_reference
#include "../../../../../solutions/barriers.cu"
#undef warp_step
__device__ int exchange_xor(int v, int d)
{
    int lane = threadIdx.x & 31, partner = lane ^ d;
    unsigned r = 0;
    for (int b = 0; b < 32; b++) {
        unsigned m = __ballot_sync(0xffffffffu, (v >> b) & 1);
        r |= ((m >> partner) & 1u) << b;
    }
    return (int)r;
}
__global__ void warp_step(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int sum = i < n ? in[i] : 0;
    for (int d = 1; d < 32; d *= 2)
        sum += exchange_xor(sum, d);
    if (i < n)
        out[i] = sum;
}
