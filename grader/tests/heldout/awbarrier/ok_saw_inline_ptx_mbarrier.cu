// EXPECT split_arrive_wait PASS
// Correct: a raw 64-bit shared mbarrier driven by inline PTX (init, arrive with
// state token, test_wait loop), no cuda::barrier type.
#define split_arrive_wait split_arrive_wait_reference
#include "../../../../solutions/awbarrier.cu"
#undef split_arrive_wait
__device__ __forceinline__ unsigned smem(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__global__ void split_arrive_wait(const unsigned *in, unsigned *out, unsigned *hist,
                                  int n, int iters)
{
    __shared__ __align__(8) unsigned long long mb;
    __shared__ unsigned buf[2][SAW_MAX_BLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    bool active = i < n;
    if (tid == 0)
        asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(smem(&mb)), "r"(blockDim.x) : "memory");
    __syncthreads();
    unsigned v = active ? in[i] : 0u, h = 0u;
    for (int t = 0; t < iters; t++) {
        unsigned *cur = buf[t & 1];
        cur[tid] = v;
        unsigned long long state;
        asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(smem(&mb)) : "memory");
        h = h * 31u + v;
        unsigned done = 0;
        while (!done)
            asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                         : "=r"(done) : "r"(smem(&mb)), "l"(state) : "memory");
        if (active) {
            unsigned left = tid > 0 ? cur[tid - 1] : 0u;
            unsigned right = tid + 1 < (int)blockDim.x ? cur[tid + 1] : 0u;
            v = left + 2u * v + 3u * right;
        }
    }
    if (active) { out[i] = v; hist[i] = h; }
}
