// EXPECT message_pass RULE
// The flag copied twice through a volatile local array before the exit test; no acquire after the wait
#define message_pass message_pass_reference
#include "../../../../solutions/fences.cu"
#undef message_pass
__global__ void message_pass(const int *in, int *mailbox, int *flags, int *out, int words)
{
    const int pairs = gridDim.x / 2, b = blockIdx.x;
    if (b < pairs) {
        produce(in, mailbox, flags, words, b);
    } else if (b < 2 * pairs) {
        const int pair = b - pairs;
        if (threadIdx.x == 0) {
            volatile int copy[2];
            do {
                copy[0] = *(volatile int *)&flags[pair];
                copy[1] = copy[0] + 0;
            } while (copy[1] == 0);
        }
        __syncthreads();
        for (int i = threadIdx.x; i < words; i += blockDim.x)
            out[pair * words + i] = mailbox[pair * words + i];
    }
}
