// EXPECT block_vote SYNC|TIMEOUT
// The voting barriers are called only by the threads that have an element:
// in a partial last block the threads past n skip them.
#define block_vote block_vote_reference
#include "../../../solutions/barriers.cu"
#undef block_vote

__global__ void block_vote(const int *in, int *out, int n, int threshold)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int count = 0, all = 1, any = 0;

    if (i < n) {   // BUG: a barrier inside a branch that part of the block skips
        int pass = in[i] > threshold;
        count = __syncthreads_count(pass);
        all = __syncthreads_and(pass);
        any = __syncthreads_or(pass);
    }
    if (threadIdx.x == 0) {
        out[3 * blockIdx.x + 0] = count;
        out[3 * blockIdx.x + 1] = all != 0;
        out[3 * blockIdx.x + 2] = any != 0;
    }
}
