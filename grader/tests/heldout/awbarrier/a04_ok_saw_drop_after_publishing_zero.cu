// EXPECT split_arrive_wait PASS
// Correct: threads past n store 0 in BOTH buffers, then arrive_and_drop() (an arrival of the
// current phase, with release) and return; the others iterate. Nobody writes those slots
// again, so neighbours read 0 there exactly as in the reference.
#define split_arrive_wait split_arrive_wait_reference
#include "../../../../solutions/awbarrier.cu"
#undef split_arrive_wait

__global__ void split_arrive_wait(const unsigned *in, unsigned *out, unsigned *hist,
                                  int n, int iters)
{
    __shared__ block_barrier bar;
    __shared__ unsigned buf[2][SAW_MAX_BLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    if (tid == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    if (i >= n) {
        buf[0][tid] = 0u;
        buf[1][tid] = 0u;
        if (iters > 0) bar.arrive_and_drop();
        return;
    }
    unsigned v = in[i], h = 0u;
    for (int t = 0; t < iters; t++) {
        unsigned *cur = buf[t & 1];
        cur[tid] = v;
        block_barrier::arrival_token token = bar.arrive();
        h = h * 31u + v;
        bar.wait(std::move(token));
        unsigned left = tid > 0 ? cur[tid - 1] : 0u;
        unsigned right = tid + 1 < (int)blockDim.x ? cur[tid + 1] : 0u;
        v = left + 2u * v + 3u * right;
    }
    out[i] = v;
    hist[i] = h;
}
