// EXPECT block_vote SYNC|TIMEOUT
// Every thread votes, but the threads with and without an element do it in
// two different branches: two different barriers, each reached by part of
// the block (and part of a warp). It must be the same call.
#define block_vote block_vote_reference
#include "../../../solutions/barriers.cu"
#undef block_vote

__global__ void block_vote(const int *in, int *out, int n, int threshold)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int count, all, any;

    if (i < n) {
        int pass = in[i] > threshold;
        count = __syncthreads_count(pass);
        all = __syncthreads_and(pass);
        any = __syncthreads_or(pass);
    } else {   // BUG: same votes, different barriers
        count = __syncthreads_count(0);
        all = __syncthreads_and(1);
        any = __syncthreads_or(0);
    }
    if (threadIdx.x == 0) {
        out[3 * blockIdx.x + 0] = count;
        out[3 * blockIdx.x + 1] = all != 0;
        out[3 * blockIdx.x + 2] = any != 0;
    }
}
