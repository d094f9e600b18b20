// EXPECT message_pass PASS
// The twin of consumer_acquire_other_word.cu: the consumer spins with a
// volatile load, then reads the flag once more with an acquire load. That
// acquire reads the word the producer released, so it synchronizes with
// the producer's release and orders the payload loads after it.
#include <cuda/atomic>
#define message_pass message_pass_reference
#include "../../../solutions/fences.cu"
#undef message_pass

__global__ void message_pass(const int *in, int *mailbox, int *flags, int *out, int words)
{
    const int pairs = gridDim.x / 2, b = blockIdx.x;
    if (b < pairs) {
        produce(in, mailbox, flags, words, b);
    } else if (b < 2 * pairs) {
        const int pair = b - pairs;
        if (threadIdx.x == 0) {
            while (*(volatile int *)&flags[pair] == 0) {
            }
            cuda::atomic_ref<int, cuda::thread_scope_device> flag(flags[pair]);
            (void)flag.load(cuda::memory_order_acquire);
        }
        __syncthreads();
        for (int i = threadIdx.x; i < words; i += blockDim.x)
            out[pair * words + i] = mailbox[pair * words + i];
    }
}
