// EXPECT message_pass PASS
// producer: non-zero threads return early after the barrier, thread 0 __threadfence_system + atomicCAS(flag,0,1); consumer: every thread spins with an acquire atomic_ref load (no barrier needed)
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
        if (threadIdx.x != 0) return;
        __threadfence_system();
        atomicCAS(&flags[p], 0, 1);
    } else {
        cuda::atomic_ref<int, cuda::thread_scope_device> flag(flags[p]);
        while (flag.load(cuda::memory_order_acquire) == 0) { }
        for (int i = threadIdx.x; i < words; i += blockDim.x) out[base + i] = mailbox[base + i];
    }
}
