// EXPECT message_pass PASS
// correct: the whole block waits on a shared copy of the flag that thread 0 refreshes, then every thread fences (acquire) before reading the payload
#include "fences.h"
#include <cuda/atomic>
#include <cuda_pipeline.h>

__global__ void message_pass(const int *in, int *mailbox, int *flags, int *out, int words)
{
    const int pairs = gridDim.x / 2, b = blockIdx.x;
    if (b < pairs) {
        const int base = b * words;

        for (int i = threadIdx.x; i < words; i += blockDim.x) mailbox[base + i] = in[base + i];
        __syncthreads();
        if (threadIdx.x == 0) { __threadfence(); *(volatile int *)&flags[b] = 1; }

    } else if (b < 2 * pairs) {
        const int p = b - pairs, base = p * words;

        __shared__ int s_seen;
        for (;;) {
            if (threadIdx.x == 0) s_seen = *(volatile int *)&flags[p];
            __syncthreads();
            if (s_seen) break;
            __syncthreads();
        }
        __threadfence();   // each reader orders its payload loads after the flag it saw
        for (int i = threadIdx.x; i < words; i += blockDim.x) out[base + i] = mailbox[base + i];
    }
}

__global__ void single_pass_sum(const int *in, int n, int *partials, unsigned int *counter, int *result)
{
    __shared__ bool is_last;
    int v = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) v += in[i];
    const int t = fences_block_sum(v);
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = t;
        __threadfence();
        const unsigned k = atomicInc(counter, gridDim.x);
        is_last = k == gridDim.x - 1;
        if (is_last) __threadfence();
    }
    __syncthreads();
    if (!is_last) return;
    int s = 0;
    for (int b = threadIdx.x; b < (int)gridDim.x; b += blockDim.x) s += partials[b];
    s = fences_block_sum(s);
    if (threadIdx.x == 0) { *result = s; *counter = 0; }
}
