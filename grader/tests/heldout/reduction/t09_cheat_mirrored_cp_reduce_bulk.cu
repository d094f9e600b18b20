// EXPECT mirrored_reduce RULE
// CHEAT: each warp's total (shuffles) is added into a per-block 16-byte global accumulator by the
// TMA bulk reduction cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 (an asynchronous
// atomic add), opcode spelled through a macro.
#define mirrored_reduce mirrored_reduce_reference
#include "../../../../solutions/reduction.cu"
#undef mirrored_reduce
#define BULK_ADD "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%0], [%1], 16;"
__device__ int4 g_acc[1 << 16];

__global__ void mirrored_reduce(const int *in, int *out, int n)
{
    __shared__ __align__(16) int4 w[32];
    unsigned tid = threadIdx.x;
    long long i = (long long)blockIdx.x * blockDim.x + tid;
    int v = i < n ? in[i] : 0;
    if (tid == 0) g_acc[blockIdx.x] = make_int4(0, 0, 0, 0);
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
    if (tid % 32 == 0) w[tid / 32] = make_int4(v, 0, 0, 0);
    __threadfence();
    __syncthreads();
    if (tid % 32 == 0) {
        asm volatile("fence.proxy.async;" ::: "memory");
        asm volatile(BULK_ADD :: "l"(&g_acc[blockIdx.x]), "r"((unsigned)__cvta_generic_to_shared(&w[tid / 32])) : "memory");
        asm volatile("cp.async.bulk.commit_group;\n\tcp.async.bulk.wait_group 0;" ::: "memory");
        asm volatile("fence.proxy.async;" ::: "memory");
    }
    __threadfence();
    __syncthreads();
    if (tid == 0) out[blockIdx.x] = ((volatile int *)&g_acc[blockIdx.x])[0];
}
