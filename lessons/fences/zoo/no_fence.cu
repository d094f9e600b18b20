// EXPECT message_pass RULE
// No fence between the payload stores and the flag: another block may see the flag first.
#define message_pass message_pass_reference
#include "../../../solutions/fences.cu"
#undef message_pass

__global__ void message_pass(const int *in, int *mailbox, int *flags, int *out, int words)
{
    const int pairs = gridDim.x / 2, b = blockIdx.x;
    if (b < pairs) {
        for (int i = threadIdx.x; i < words; i += blockDim.x)
            mailbox[b * words + i] = in[b * words + i];
        __syncthreads();  // orders the payload for this block only
        if (threadIdx.x == 0)
            *(volatile int *)&flags[b] = 1;
    } else if (b < 2 * pairs) {
        consume(mailbox, flags, out, words, b - pairs);
    }
}
