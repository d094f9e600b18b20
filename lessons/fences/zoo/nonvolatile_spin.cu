// EXPECT message_pass TIMEOUT
// The consumer spins on a plain int: the compiler loads the flag once, and spins forever on a register.
#define message_pass message_pass_reference
#include "../../../solutions/fences.cu"
#undef message_pass

__global__ void message_pass(const int *in, int *mailbox, int *flags, int *out, int words)
{
    const int pairs = gridDim.x / 2, b = blockIdx.x;
    if (b < pairs) {
        produce(in, mailbox, flags, words, b);
    } else if (b < 2 * pairs) {
        const int p = b - pairs;
        // Every thread waits for the flag itself (no barrier needed), but...
        while (flags[p] == 0) {  // BUG: not volatile, not atomic: read once
        }
        __threadfence();
        for (int i = threadIdx.x; i < words; i += blockDim.x)
            out[p * words + i] = mailbox[p * words + i];
    }
}
