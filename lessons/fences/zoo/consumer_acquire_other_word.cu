// EXPECT message_pass RULE static
// The consumer spins on the flag with a volatile load, then makes an acquire
// load, but of another variable (a __device__ word nobody releases). An
// acquire synchronizes only through the word it reads: this one orders
// nothing after the flag, and the payload loads may still be satisfied
// before the load that saw it. The producer is right.
#include <cuda/atomic>
#define message_pass message_pass_reference
#include "../../../solutions/fences.cu"
#undef message_pass

__device__ int consumer_epoch;

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
            // BUG: an acquire, but of another word than the flag
            cuda::atomic_ref<int, cuda::thread_scope_device> epoch(consumer_epoch);
            (void)epoch.load(cuda::memory_order_acquire);
        }
        __syncthreads();
        for (int i = threadIdx.x; i < words; i += blockDim.x)
            out[pair * words + i] = mailbox[pair * words + i];
    }
}
