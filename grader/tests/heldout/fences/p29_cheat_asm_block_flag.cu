// EXPECT message_pass RULE
// CHEAT: no fence; the flag store hidden in an inline-asm { } block with a local register, generic-address st.relaxed.sys
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
        if (threadIdx.x == 0)
            asm volatile("{\n\t.reg .u32 one;\n\tmov.u32 one, 1;\n\tst.relaxed.sys.u32 [%0], one;\n\t}" :: "l"(&flags[p]) : "memory");
    } else {
        if (threadIdx.x == 0) { while (*(volatile int *)&flags[p] == 0) { } __threadfence(); }
        __syncthreads();
        for (int i = threadIdx.x; i < words; i += blockDim.x) out[base + i] = mailbox[base + i];
    }
}
