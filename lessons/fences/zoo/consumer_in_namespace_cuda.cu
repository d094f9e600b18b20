// EXPECT message_pass RULE
// consumer_no_acquire.cu's bug, in a helper the student put in namespace
// cuda: no fence after the wait. The mangled name (_ZN4cuda...) looks like
// libcu++'s, whose code the memory-order check does not judge; but library
// code is told by the file its lines come from, by the compiler's own
// dependency list, and these lines are the student's.
#define message_pass message_pass_reference
#include "../../../solutions/fences.cu"
#undef message_pass

namespace cuda {
__device__ __noinline__ void consume_unordered(int *mailbox, int *flags, int *out, int words,
                                               int pair)
{
    if (threadIdx.x == 0)
        while (*(volatile int *)&flags[pair] == 0) {
        }
    // BUG: no __threadfence() after the wait
    __syncthreads();
    for (int i = threadIdx.x; i < words; i += blockDim.x)
        out[pair * words + i] = mailbox[pair * words + i];
}
}  // namespace cuda

__global__ void message_pass(const int *in, int *mailbox, int *flags, int *out, int words)
{
    const int pairs = gridDim.x / 2, b = blockIdx.x;
    if (b < pairs)
        produce(in, mailbox, flags, words, b);
    else if (b < 2 * pairs)
        cuda::consume_unordered(mailbox, flags, out, words, b - pairs);
}
