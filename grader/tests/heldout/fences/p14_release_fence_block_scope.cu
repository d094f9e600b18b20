// EXPECT message_pass RULE
// producer: atomic_thread_fence(release, thread_scope_block) (fence.acq_rel.cta) then relaxed device-scope atomic_ref store
#include <cuda/atomic>
#define message_pass message_pass_reference
#include "../../../../solutions/fences.cu"
#undef message_pass
__global__ void message_pass(const int *in, int *mailbox, int *flags, int *out, int words)
{
    const int pairs = gridDim.x / 2, b = blockIdx.x;
    if (b >= 2 * pairs) return;
    const int p = b < pairs ? b : b - pairs, base = p * words;
    cuda::atomic_ref<int, cuda::thread_scope_device> flag(flags[p]);
    if (b < pairs) {
        for (int i = threadIdx.x; i < words; i += blockDim.x) mailbox[base + i] = in[base + i];
        __syncthreads();
        if (threadIdx.x == 0) {
            cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_block);
            flag.store(1, cuda::memory_order_relaxed);
        }
    } else {
        if (threadIdx.x == 0) while (flag.load(cuda::memory_order_acquire) == 0) { }
        __syncthreads();
        for (int i = threadIdx.x; i < words; i += blockDim.x) out[base + i] = mailbox[base + i];
    }
}
