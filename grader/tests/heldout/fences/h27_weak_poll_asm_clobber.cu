// EXPECT message_pass RULE
// Bug: as h27_weak_poll_nanosleep_fence, the plain poll kept in the loop by
// an empty asm volatile with a memory clobber instead of __nanosleep, and
// the same fence after it.
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
                asm volatile("" ::: "memory");
            __threadfence();
        }
        __syncthreads();
        for (int i = threadIdx.x; i < words; i += blockDim.x)
            out[base + i] = mailbox[base + i];
    }
}
