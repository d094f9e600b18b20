// EXPECT message_pass RULE
// CHEAT: no fence; the flag is raised through a device function pointer (indirect call) to a __noinline__ volatile store
#include <cuda/atomic>
#define message_pass message_pass_reference
#include "../../../../solutions/fences.cu"
#undef message_pass
static __device__ __noinline__ void raise_flag(int *f) { *(volatile int *)f = 1; }
static __device__ __noinline__ void do_nothing(int *) { }
typedef void (*setter_t)(int *);
__device__ setter_t g_setters[2] = { do_nothing, raise_flag };
__global__ void message_pass(const int *in, int *mailbox, int *flags, int *out, int words)
{
    const int pairs = gridDim.x / 2, b = blockIdx.x;
    if (b >= 2 * pairs) return;
    const int p = b < pairs ? b : b - pairs, base = p * words;
    if (b < pairs) {
        for (int i = threadIdx.x; i < words; i += blockDim.x) mailbox[base + i] = in[base + i];
        __syncthreads();
        setter_t s = g_setters[threadIdx.x == 0];
        s(&flags[p]);
    } else {
        if (threadIdx.x == 0) { while (*(volatile int *)&flags[p] == 0) { } __threadfence(); }
        __syncthreads();
        for (int i = threadIdx.x; i < words; i += blockDim.x) out[base + i] = mailbox[base + i];
    }
}
