// EXPECT split_arrive_wait PASS
// Correct: the hardware mbarrier through inline PTX: mbarrier.init (thread 0, then
// __syncthreads), mbarrier.arrive returning the state, mbarrier.try_wait loop on it.
#define split_arrive_wait split_arrive_wait_reference
#include "../../../../solutions/awbarrier.cu"
#undef split_arrive_wait

__device__ __forceinline__ unsigned long long mb_arrive(unsigned long long *bar)
{
    unsigned long long state;
    asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];"
                 : "=l"(state) : "r"((unsigned)__cvta_generic_to_shared(bar)) : "memory");
    return state;
}
__device__ __forceinline__ void mb_wait(unsigned long long *bar, unsigned long long state)
{
    unsigned done;
    do {
        asm volatile("{ .reg .pred p; mbarrier.try_wait.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done) : "r"((unsigned)__cvta_generic_to_shared(bar)), "l"(state) : "memory");
    } while (!done);
}

__global__ void split_arrive_wait(const unsigned *in, unsigned *out, unsigned *hist,
                                  int n, int iters)
{
    __shared__ unsigned long long bar;
    __shared__ unsigned buf[2][SAW_MAX_BLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    bool active = i < n;
    if (tid == 0)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;"
                     :: "r"((unsigned)__cvta_generic_to_shared(&bar)), "r"((unsigned)blockDim.x) : "memory");
    __syncthreads();
    unsigned v = active ? in[i] : 0u;
    unsigned h = 0u;
    for (int t = 0; t < iters; t++) {
        unsigned *cur = buf[t & 1];
        cur[tid] = v;
        unsigned long long st = mb_arrive(&bar);
        h = h * 31u + v;
        mb_wait(&bar, st);
        if (active) {
            unsigned left = tid > 0 ? cur[tid - 1] : 0u;
            unsigned right = tid + 1 < (int)blockDim.x ? cur[tid + 1] : 0u;
            v = left + 2u * v + 3u * right;
        }
    }
    if (active) { out[i] = v; hist[i] = h; }
}
