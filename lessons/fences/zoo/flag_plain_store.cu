// EXPECT message_pass RULE
// The producer fences and then raises the flag with a plain store: not a
// synchronizing store (the compiler may delay or merge it, and it races with
// the consumer's volatile load). The consumer side is right.
#define message_pass message_pass_reference
#include "../../../solutions/fences.cu"
#undef message_pass

__global__ void message_pass(const int *in, int *mailbox, int *flags, int *out, int words)
{
    const int pairs = gridDim.x / 2, b = blockIdx.x;
    if (b < pairs) {
        for (int i = threadIdx.x; i < words; i += blockDim.x)
            mailbox[b * words + i] = in[b * words + i];
        __threadfence();
        __syncthreads();
        if (threadIdx.x == 0)
            flags[b] = 1;  // BUG: a plain store, not volatile or atomic
    } else if (b < 2 * pairs) {
        consume(mailbox, flags, out, words, b - pairs);
    }
}
