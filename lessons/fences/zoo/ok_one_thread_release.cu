// EXPECT message_pass PASS
// Correct: every thread stores its payload, __syncthreads() gathers them,
// then ONE thread fences and raises the flag: after the barrier, thread 0's
// fence orders the whole block's payload before the flag.
#define message_pass message_pass_reference
#include "../../../solutions/fences.cu"
#undef message_pass

__global__ void message_pass(const int *in, int *mailbox, int *flags, int *out, int words)
{
    const int pairs = gridDim.x / 2, b = blockIdx.x;
    if (b < pairs) {
        for (int i = threadIdx.x; i < words; i += blockDim.x)
            mailbox[b * words + i] = in[b * words + i];
        __syncthreads();
        if (threadIdx.x == 0) {
            __threadfence();
            *(volatile int *)&flags[b] = 1;
        }
    } else if (b < 2 * pairs) {
        consume(mailbox, flags, out, words, b - pairs);
    }
}
