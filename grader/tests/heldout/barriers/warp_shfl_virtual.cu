// EXPECT warp_step RULE
// Evasion: the shuffle sits in a virtual method, reached through the vtable.
#define warp_step warp_step_reference
#include "../../../../solutions/barriers.cu"
#undef warp_step
struct ex { __device__ virtual int swap(int v, int d) const = 0; };
struct shfl_ex : ex {
    __device__ int swap(int v, int d) const override { return __shfl_xor_sync(0xffffffffu, v, d); }
};
__global__ void warp_step(const int *in, int *out, int n)
{
    shfl_ex impl;
    const ex *e = &impl;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int sum = i < n ? in[i] : 0;
    for (int d = 1; d < 32; d *= 2)
        sum += e->swap(sum, d);
    if (i < n)
        out[i] = sum;
}
