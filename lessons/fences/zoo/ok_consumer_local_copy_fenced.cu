// EXPECT message_pass PASS
// Correct: the flag read through a local variable (a volatile local keeps
// the copy in local memory), then the acquire fence after the wait, as in
// the reference. The wait is found through the copy and its fence seen.
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
            volatile int seen;
            do {
                seen = *(volatile int *)&flags[pair];
            } while (!seen);
            __threadfence(); // acquire: the payload after the flag
        }
        __syncthreads();
        for (int i = threadIdx.x; i < words; i += blockDim.x)
            out[pair * words + i] = mailbox[pair * words + i];
    }
}
