// EXPECT split_arrive_wait PASS
// Correct: the C primitives of cuda_awbarrier_primitives.h (__mbarrier_init,
// __mbarrier_arrive, __mbarrier_test_wait) on a __mbarrier_t in shared memory.
#include <cuda_awbarrier_primitives.h>
#define split_arrive_wait split_arrive_wait_reference
#include "../../../../solutions/awbarrier.cu"
#undef split_arrive_wait
__global__ void split_arrive_wait(const unsigned *in, unsigned *out, unsigned *hist,
                                  int n, int iters)
{
    __shared__ __mbarrier_t mb;
    __shared__ unsigned buf[2][SAW_MAX_BLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    bool active = i < n;
    if (tid == 0)
        __mbarrier_init(&mb, blockDim.x);
    __syncthreads();
    unsigned v = active ? in[i] : 0u, h = 0u;
    for (int t = 0; t < iters; t++) {
        unsigned *cur = buf[t & 1];
        cur[tid] = v;
        __mbarrier_token_t tok = __mbarrier_arrive(&mb);
        h = h * 31u + v;
        while (!__mbarrier_test_wait(&mb, tok))
            ;
        if (active) {
            unsigned left = tid > 0 ? cur[tid - 1] : 0u;
            unsigned right = tid + 1 < (int)blockDim.x ? cur[tid + 1] : 0u;
            v = left + 2u * v + 3u * right;
        }
    }
    if (active) { out[i] = v; hist[i] = h; }
}
