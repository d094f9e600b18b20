// EXPECT block_vote SYNC static
// __syncthreads_count is called only by the threads that have an element
// ("only they count"): in a partial last block the threads past n skip it
// and go on to the next voting barrier. At run time (H100) the block
// deadlocks and synccheck hangs with it without a report; the grader finds
// the barrier under a thread-dependent branch in the PTX.
#define block_vote block_vote_reference
#include "../../../solutions/barriers.cu"
#undef block_vote

__global__ void block_vote(const int *in, int *out, int n, int threshold)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int valid = i < n;
    int count = 0;

    if (valid)   // BUG: a barrier that part of the block skips
        count = __syncthreads_count(in[i] > threshold);
    int all = __syncthreads_and(!valid || in[i] > threshold);
    int any = __syncthreads_or(valid && in[i] > threshold);

    if (threadIdx.x == 0) {
        out[3 * blockIdx.x + 0] = count;
        out[3 * blockIdx.x + 1] = all != 0;
        out[3 * blockIdx.x + 2] = any != 0;
    }
}
