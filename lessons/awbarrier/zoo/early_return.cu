// EXPECT split_arrive_wait TIMEOUT|SYNC
// Threads past n return early, so the last block's barrier never gets the
// blockDim.x arrivals it expects: its threads wait forever.
#define split_arrive_wait split_arrive_wait_reference
#include "../../../solutions/awbarrier.cu"
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
    if (i >= n)
        return;   /* BUG: these threads never arrive */

    unsigned v = in[i];
    unsigned h = 0u;
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
