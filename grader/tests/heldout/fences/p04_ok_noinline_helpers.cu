// EXPECT message_pass PASS
// __noinline__ publish() = __threadfence + atomicExch; consumer polls atomicAdd(flag,0) then calls __noinline__ helper doing atomic_thread_fence(acq_rel, system)
#include <cuda/atomic>
#define message_pass message_pass_reference
#include "../../../../solutions/fences.cu"
#undef message_pass
static __device__ __noinline__ void publish(int *flag) { __threadfence(); atomicExch(flag, 1); }
static __device__ __noinline__ void acquire_side() { cuda::atomic_thread_fence(cuda::memory_order_acq_rel, cuda::thread_scope_system); }
__global__ void message_pass(const int *in, int *mailbox, int *flags, int *out, int words)
{
    const int pairs = gridDim.x / 2, b = blockIdx.x;
    if (b >= 2 * pairs) return;
    const int p = b < pairs ? b : b - pairs, base = p * words;
    if (b < pairs) {
        for (int i = threadIdx.x; i < words; i += blockDim.x) mailbox[base + i] = in[base + i];
        __syncthreads();
        if (threadIdx.x == 0) publish(&flags[p]);
    } else {
        if (threadIdx.x == 0) { while (atomicAdd(&flags[p], 0) == 0) { } acquire_side(); }
        __syncthreads();
        for (int i = threadIdx.x; i < words; i += blockDim.x) out[base + i] = mailbox[base + i];
    }
}
