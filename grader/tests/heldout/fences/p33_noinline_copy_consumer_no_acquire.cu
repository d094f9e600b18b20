// EXPECT message_pass RULE
// natural bug: consumer spins, no fence after the spin, copies the mailbox with a __noinline__ helper (generic ld.u32)
#include <cuda/atomic>
#define message_pass message_pass_reference
#include "../../../../solutions/fences.cu"
#undef message_pass
static __device__ __noinline__ void copy_words(int *dst, const int *src, int words)
{
    for (int i = threadIdx.x; i < words; i += blockDim.x) dst[i] = src[i];
}
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
        if (threadIdx.x == 0) { while (*(volatile int *)&flags[p] == 0) { } }
        __syncthreads();
        copy_words(out + base, mailbox + base, words);
    }
}
