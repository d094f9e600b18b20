// EXPECT block_vote SYNC static
// Bug: __syncthreads_count only by threads with an element.
#define block_vote block_vote_reference
#include "../../../../solutions/barriers.cu"
#undef block_vote

__global__ void block_vote(const int *in, int *out, int n, int threshold)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int valid = i < n;
    int pass = valid && in[i] > threshold;
    int count = 0;
    if (valid)
        count = __syncthreads_count(pass);   // BUG
    int all = __syncthreads_and(pass || !valid);
    int any = __syncthreads_or(pass);
    if (threadIdx.x == 0) {
        out[3 * blockIdx.x + 0] = count;
        out[3 * blockIdx.x + 1] = all != 0;
        out[3 * blockIdx.x + 2] = any != 0;
    }
}
