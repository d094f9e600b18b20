// EXPECT message_pass PASS
// Correct: __threadfence_system() (membar.sys) on both sides is wider than
// needed (it also orders for the host), but orders for other blocks too.
#define message_pass message_pass_reference
#include "../../../solutions/fences.cu"
#undef message_pass

__global__ void message_pass(const int *in, int *mailbox, int *flags, int *out, int words)
{
    const int pairs = gridDim.x / 2, b = blockIdx.x;
    if (b < pairs) {
        for (int i = threadIdx.x; i < words; i += blockDim.x)
            mailbox[b * words + i] = in[b * words + i];
        __threadfence_system();
        __syncthreads();
        if (threadIdx.x == 0)
            *(volatile int *)&flags[b] = 1;
    } else if (b < 2 * pairs) {
        const int pair = b - pairs;
        if (threadIdx.x == 0) {
            while (*(volatile int *)&flags[pair] == 0) {
            }
            __threadfence_system();
        }
        __syncthreads();
        for (int i = threadIdx.x; i < words; i += blockDim.x)
            out[pair * words + i] = mailbox[pair * words + i];
    }
}
