// EXPECT message_pass PASS
// producer thread 0 publishes with atomic_ref.fetch_add(1, release) (atom.release.gpu); consumer polls atomicOr(flag,0), then atomic_thread_fence(seq_cst, device)
#include <cuda/atomic>
#define message_pass message_pass_reference
#include "../../../../solutions/fences.cu"
#undef message_pass
__global__ void message_pass(const int *in, int *mailbox, int *flags, int *out, int words)
{
    const int pairs = gridDim.x / 2, b = blockIdx.x;
    if (b >= 2 * pairs) return;
    const int p = b < pairs ? b : b - pairs, base = p * words;
    if (b < pairs) {
        for (int i = threadIdx.x; i < words; i += blockDim.x) mailbox[base + i] = in[base + i];
        __syncthreads();
        if (threadIdx.x == 0) cuda::atomic_ref<int, cuda::thread_scope_device>(flags[p]).fetch_add(1, cuda::memory_order_release);
    } else {
        if (threadIdx.x == 0) {
            while (atomicOr(&flags[p], 0) == 0) { }
            cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_device);
        }
        __syncthreads();
        for (int i = threadIdx.x; i < words; i += blockDim.x) out[base + i] = mailbox[base + i];
    }
}
