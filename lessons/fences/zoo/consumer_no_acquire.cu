// EXPECT message_pass RULE
// The consumer spins on the flag, then copies the mailbox with no fence
// after the wait: its loads of the payload may be satisfied before the load
// that saw the flag, and copy the mailbox's old words. The producer is right.
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
        if (threadIdx.x == 0)
            while (*(volatile int *)&flags[pair] == 0) {
            }
        // BUG: no __threadfence() after the wait
        __syncthreads();
        for (int i = threadIdx.x; i < words; i += blockDim.x)
            out[pair * words + i] = mailbox[pair * words + i];
    }
}
