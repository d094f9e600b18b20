// EXPECT message_pass PASS
// Correct, modern spelling: a release store of the flag, an acquire load in the spin (no __threadfence).
#include <cuda/atomic>
#define message_pass message_pass_reference
#include "../../../solutions/fences.cu"
#undef message_pass

__global__ void message_pass(const int *in, int *mailbox, int *flags, int *out, int words)
{
    const int pairs = gridDim.x / 2, b = blockIdx.x;
    const int p = b < pairs ? b : b - pairs;
    if (b >= 2 * pairs)
        return;
    cuda::atomic_ref<int, cuda::thread_scope_device> flag(flags[p]);
    if (b < pairs) {
        for (int i = threadIdx.x; i < words; i += blockDim.x)
            mailbox[p * words + i] = in[p * words + i];
        __syncthreads();  // thread 0's release then covers the whole block's payload
        if (threadIdx.x == 0)
            flag.store(1, cuda::memory_order_release);
    } else {
        if (threadIdx.x == 0)
            while (flag.load(cuda::memory_order_acquire) == 0) {
            }
        __syncthreads();
        for (int i = threadIdx.x; i < words; i += blockDim.x)
            out[p * words + i] = mailbox[p * words + i];
    }
}
