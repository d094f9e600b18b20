// EXPECT message_pass PASS
// Correct: the flag is raised with atomicExch after a fence, and the
// consumer re-reads it through atomicCAS(flag, 1, 1) (an atomic that only
// reads) before its fence.
#define message_pass message_pass_reference
#include "../../../solutions/fences.cu"
#undef message_pass

__global__ void message_pass(const int *in, int *mailbox, int *flags, int *out, int words)
{
    const int pairs = gridDim.x / 2, b = blockIdx.x;
    if (b < pairs) {
        for (int i = threadIdx.x; i < words; i += blockDim.x)
            mailbox[b * words + i] = in[b * words + i];
        __syncthreads();
        if (threadIdx.x == 0) {
            __threadfence();
            atomicExch(&flags[b], 1);
        }
    } else if (b < 2 * pairs) {
        const int pair = b - pairs;
        if (threadIdx.x == 0) {
            while (atomicCAS(&flags[pair], 1, 1) != 1) {
            }
            __threadfence();
        }
        __syncthreads();
        for (int i = threadIdx.x; i < words; i += blockDim.x)
            out[pair * words + i] = mailbox[pair * words + i];
    }
}
