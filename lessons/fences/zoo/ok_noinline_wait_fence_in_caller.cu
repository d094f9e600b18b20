// EXPECT message_pass PASS
// Correct: the wait is a __noinline__ helper that only spins; its caller
// fences right after the call, before the block reads the mailbox. The
// helper alone has no fence after its spin: it is judged where it is
// called, with the code around the call.
#define message_pass message_pass_reference
#include "../../../solutions/fences.cu"
#undef message_pass

static __device__ __noinline__ void wait_for(const int *flag)
{
    while (*(const volatile int *)flag == 0) {
    }
}

__global__ void message_pass(const int *in, int *mailbox, int *flags, int *out, int words)
{
    const int pairs = gridDim.x / 2, b = blockIdx.x;
    if (b < pairs) {
        produce(in, mailbox, flags, words, b);
    } else if (b < 2 * pairs) {
        const int pair = b - pairs;
        if (threadIdx.x == 0) {
            wait_for(&flags[pair]);
            __threadfence();   // acquire: after the flag, before the payload
        }
        __syncthreads();
        for (int i = threadIdx.x; i < words; i += blockDim.x)
            out[pair * words + i] = mailbox[pair * words + i];
    }
}
