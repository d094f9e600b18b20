// EXPECT message_pass RULE
// Bug: the consumer polls the flag with a plain load in a __nanosleep loop
// (the sleep keeps the compiler reloading it) and fences after the loop.
// The producer is right. A plain load of a word another block writes
// meanwhile is a data race, not a wait: the fence cannot fix that.
#define message_pass message_pass_reference
#include "../../../../solutions/fences.cu"
#undef message_pass

__global__ void message_pass(const int *in, int *mailbox, int *flags, int *out, int words)
{
    const int pairs = gridDim.x / 2, b = blockIdx.x;
    if (b < pairs) {
        const int base = b * words;
        for (int i = threadIdx.x; i < words; i += blockDim.x)
            mailbox[base + i] = in[base + i];
        __syncthreads();
        if (threadIdx.x == 0) {
            __threadfence();
            *(volatile int *)&flags[b] = 1;
        }
    } else if (b < 2 * pairs) {
        const int p = b - pairs, base = p * words;
        if (threadIdx.x == 0) {
            while (flags[p] == 0)
                __nanosleep(100);
            __threadfence();
        }
        __syncthreads();
        for (int i = threadIdx.x; i < words; i += blockDim.x)
            out[base + i] = mailbox[base + i];
    }
}
