// EXPECT block_vote WRONG
// The threads past n vote false in __syncthreads_and: a partial last block
// whose valid elements all pass reports all = 0.
#define block_vote block_vote_reference
#include "../../../solutions/barriers.cu"
#undef block_vote

__global__ void block_vote(const int *in, int *out, int n, int threshold)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int pass = i < n && in[i] > threshold;

    int count = __syncthreads_count(pass);
    int all = __syncthreads_and(pass);   // BUG: threads without an element must vote true
    int any = __syncthreads_or(pass);

    if (threadIdx.x == 0) {
        out[3 * blockIdx.x + 0] = count;
        out[3 * blockIdx.x + 1] = all != 0;
        out[3 * blockIdx.x + 2] = any != 0;
    }
}
