// EXPECT message_pass RULE
// consumer_no_acquire.cu with the consumer in a __noinline__ helper: the
// spin and the copy of the mailbox are in a function of their own, reached
// by a call, and still there is no fence between the wait and the loads of
// the payload. The memory-order check follows the call into the helper.
#define message_pass message_pass_reference
#include "../../../solutions/fences.cu"
#undef message_pass

static __device__ __noinline__ void consume_noinline(int *mailbox, int *flags, int *out,
                                                     int words, int pair)
{
    if (threadIdx.x == 0)
        while (*(volatile int *)&flags[pair] == 0) {
        }
    // BUG: no __threadfence() after the wait
    __syncthreads();
    for (int i = threadIdx.x; i < words; i += blockDim.x)
        out[pair * words + i] = mailbox[pair * words + i];
}

__global__ void message_pass(const int *in, int *mailbox, int *flags, int *out, int words)
{
    const int pairs = gridDim.x / 2, b = blockIdx.x;
    if (b < pairs)
        produce(in, mailbox, flags, words, b);
    else if (b < 2 * pairs)
        consume_noinline(mailbox, flags, out, words, b - pairs);
}
