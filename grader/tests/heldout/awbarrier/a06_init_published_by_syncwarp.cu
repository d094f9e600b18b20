// EXPECT split_arrive_wait MEMORY|LAUNCH|TIMEOUT|SYNC|WRONG|RACE
// BUG: thread 0 inits the barrier and only __syncwarp() follows: warps 1.. may arrive on an
// uninitialized mbarrier (a run-time bug; blocks of one warp happen to be right).
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
    bool active = i < n;
    if (tid == 0)
        init(&bar, blockDim.x);
    __syncwarp();
    unsigned v = active ? in[i] : 0u;
    unsigned h = 0u;
    for (int t = 0; t < iters; t++) {
        unsigned *cur = buf[t & 1];
        cur[tid] = v;
        block_barrier::arrival_token token = bar.arrive();
        h = h * 31u + v;
        bar.wait(std::move(token));
        if (active) {
            unsigned left = tid > 0 ? cur[tid - 1] : 0u;
            unsigned right = tid + 1 < (int)blockDim.x ? cur[tid + 1] : 0u;
            v = left + 2u * v + 3u * right;
        }
    }
    if (active) { out[i] = v; hist[i] = h; }
}
