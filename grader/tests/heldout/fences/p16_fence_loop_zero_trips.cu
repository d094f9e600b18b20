// EXPECT message_pass RULE
// producer thread 0 fences once per 1024 words in a loop: for words < 1024 the loop runs zero times and no fence is made
#include <cuda/atomic>
#define message_pass message_pass_reference
#include "../../../../solutions/fences.cu"
#undef message_pass
__global__ void message_pass(const int *in, int *mailbox, int *flags, int *out, int words)
{
    const int pairs = gridDim.x / 2, b = blockIdx.x;
    if (b >= 2 * pairs) return;
    const int p = b < pairs ? b : b - pairs, base = p * words;
    if (b < pairs) {
        for (int i = threadIdx.x; i < words; i += blockDim.x) mailbox[base + i] = in[base + i];
        __syncthreads();
        if (threadIdx.x == 0) {
            for (int k = 0; k < words / 1024; ++k) __threadfence();   // BUG: may run 0 times
            *(volatile int *)&flags[p] = 1;
        }
    } else {
        if (threadIdx.x == 0) { while (*(volatile int *)&flags[p] == 0) { } __threadfence(); }
        __syncthreads();
        for (int i = threadIdx.x; i < words; i += blockDim.x) out[base + i] = mailbox[base + i];
    }
}
