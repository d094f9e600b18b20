// EXPECT message_pass RULE
// CHEAT: the source reads "__threadfence()" everywhere, but a macro turns it into __threadfence_block() (membar.cta) in the student's kernel
#include <cuda/atomic>
#define message_pass message_pass_reference
#include "../../../../solutions/fences.cu"
#undef message_pass
#define __threadfence() __threadfence_block()
__global__ void message_pass(const int *in, int *mailbox, int *flags, int *out, int words)
{
    const int pairs = gridDim.x / 2, b = blockIdx.x;
    if (b >= 2 * pairs) return;
    const int p = b < pairs ? b : b - pairs, base = p * words;
    if (b < pairs) {
        for (int i = threadIdx.x; i < words; i += blockDim.x) mailbox[base + i] = in[base + i];
        __syncthreads();
        if (threadIdx.x == 0) { __threadfence(); *(volatile int *)&flags[p] = 1; }
    } else {
        if (threadIdx.x == 0) { while (*(volatile int *)&flags[p] == 0) { } __threadfence(); }
        __syncthreads();
        for (int i = threadIdx.x; i < words; i += blockDim.x) out[base + i] = mailbox[base + i];
    }
}
