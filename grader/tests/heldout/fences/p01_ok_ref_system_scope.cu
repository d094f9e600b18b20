// EXPECT message_pass PASS
// atomic_ref<int, thread_scope_system>: release store after the barrier, acquire load spin (st.release.sys / ld.acquire.sys)
#include <cuda/atomic>
#define message_pass message_pass_reference
#include "../../../../solutions/fences.cu"
#undef message_pass
__global__ void message_pass(const int *in, int *mailbox, int *flags, int *out, int words)
{
    const int pairs = gridDim.x / 2, b = blockIdx.x;
    if (b >= 2 * pairs) return;
    const int p = b < pairs ? b : b - pairs, base = p * words;
    cuda::atomic_ref<int, cuda::thread_scope_system> flag(flags[p]);
    if (b < pairs) {
        for (int i = threadIdx.x; i < words; i += blockDim.x) mailbox[base + i] = in[base + i];
        __syncthreads();
        if (threadIdx.x == 0) flag.store(1, cuda::memory_order_release);
    } else {
        if (threadIdx.x == 0) while (flag.load(cuda::memory_order_acquire) == 0) { }
        __syncthreads();
        for (int i = threadIdx.x; i < words; i += blockDim.x) out[base + i] = mailbox[base + i];
    }
}
