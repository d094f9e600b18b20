// EXPECT split_arrive_wait PASS
// Correct: threads past n leave at once, but first arrive_and_drop(): that
// arrival counts for the current phase and lowers the expected count of
// every later phase by one, so the barrier no longer waits for them (compare
// early_return.cu, which returns without it and hangs). Their published
// value was 0; now they publish nothing, so the reads treat a neighbour
// past n as outside the tile.
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
    int base = blockIdx.x * blockDim.x;
    int len = min((int)blockDim.x, n - base);   /* threads with an element */

    if (tid == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    if (i >= n) {
        bar.arrive_and_drop();   /* leave the barrier for good, then return */
        return;
    }

    unsigned v = in[i];
    unsigned h = 0u;
    for (int t = 0; t < iters; t++) {
        unsigned *cur = buf[t & 1];
        cur[tid] = v;
        block_barrier::arrival_token token = bar.arrive();
        h = h * 31u + v;
        bar.wait(std::move(token));
        unsigned left = tid > 0 ? cur[tid - 1] : 0u;
        unsigned right = tid + 1 < len ? cur[tid + 1] : 0u;
        v = left + 2u * v + 3u * right;
    }
    out[i] = v;
    hist[i] = h;
}
