// EXPECT message_pass PASS
// consumer: every thread spins on the volatile flag then __threadfence()s itself, no barrier; producer standard
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
        if (threadIdx.x == 0) { __threadfence(); *(volatile int *)&flags[p] = 1; }
    } else {
        while (*(volatile int *)&flags[p] == 0) { }
        __threadfence();
        for (int i = threadIdx.x; i < words; i += blockDim.x) out[base + i] = mailbox[base + i];
    }
}
