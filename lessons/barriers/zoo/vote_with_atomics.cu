// EXPECT block_vote RULE
// Right answers the long way: shared-memory atomics and three plain
// barriers instead of the voting barriers the exercise is about.
#define block_vote block_vote_reference
#include "../../../solutions/barriers.cu"
#undef block_vote

__global__ void block_vote(const int *in, int *out, int n, int threshold)
{
    __shared__ int count, failed;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int valid = i < n;
    int pass = valid && in[i] > threshold;

    if (threadIdx.x == 0)
        count = failed = 0;
    __syncthreads();
    if (pass)
        atomicAdd(&count, 1);          // the rule: no atomics here
    if (valid && !pass)
        atomicAdd(&failed, 1);
    __syncthreads();
    if (threadIdx.x == 0) {
        out[3 * blockIdx.x + 0] = count;
        out[3 * blockIdx.x + 1] = failed == 0;
        out[3 * blockIdx.x + 2] = count > 0;
    }
}
