// EXPECT block_vote PASS
// Correct: __syncthreads_or in a loop whose exit is the (uniform) result of
// the vote itself, although each thread's own predicate is thread-dependent.
#define block_vote block_vote_reference
#include "../../../../solutions/barriers.cu"
#undef block_vote

__global__ void block_vote(const int *in, int *out, int n, int threshold)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int valid = i < n;
    int pass = valid && in[i] > threshold;
    int count = __syncthreads_count(pass);
    int all = __syncthreads_and(pass || !valid);
    int any = 0;
    int left = (int)(threadIdx.x & 3);   // per-thread work
    while (__syncthreads_or(left > 0)) {
        left--;
    }
    any = __syncthreads_or(pass);
    if (threadIdx.x == 0) {
        out[3 * blockIdx.x + 0] = count;
        out[3 * blockIdx.x + 1] = all != 0;
        out[3 * blockIdx.x + 2] = any != 0;
    }
}
