// EXPECT message_pass RULE
// CHEAT: the consumer's wait is an indirect call through a device function pointer; no fence after it before the mailbox reads
#include <cuda/atomic>
#define message_pass message_pass_reference
#include "../../../../solutions/fences.cu"
#undef message_pass
static __device__ __noinline__ void wait_flag(int *f) { while (*(volatile int *)f == 0) { } }
typedef void (*waiter_t)(int *);
__device__ waiter_t g_waiter = wait_flag;
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
        if (threadIdx.x == 0) g_waiter(&flags[p]);
        __syncthreads();
        for (int i = threadIdx.x; i < words; i += blockDim.x) out[base + i] = mailbox[base + i];
    }
}
