// EXPECT message_pass RULE
// consumer_no_acquire.cu's bug, with the flag read through a local
// variable: "volatile int seen; do seen = flag; while (!seen);" keeps the
// copy in local memory, and the loop's exit tests the copy, not the load.
// The wait is found by following the copy back to the flag's load.
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
        }
        // BUG: no __threadfence() after the wait
        __syncthreads();
        for (int i = threadIdx.x; i < words; i += blockDim.x)
            out[pair * words + i] = mailbox[pair * words + i];
    }
}
