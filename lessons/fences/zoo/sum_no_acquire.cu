// EXPECT single_pass_sum RULE
// The partial is fenced before the ticket (release), but the last block
// reads the other partials right after its ticket with no fence (acquire):
// its loads may be satisfied before the ticket, and see an old partial.
#define single_pass_sum single_pass_sum_reference
#include "../../../solutions/fences.cu"
#undef single_pass_sum

__global__ void single_pass_sum(const int *in, int n, int *partials, unsigned int *counter,
                                int *result)
{
    __shared__ bool is_last;
    const int block_total = grid_stride_block_sum(in, n);

    if (threadIdx.x == 0) {
        partials[blockIdx.x] = block_total;
        __threadfence();
        const unsigned int ticket = atomicInc(counter, gridDim.x);
        is_last = (ticket == gridDim.x - 1);
        // BUG: no __threadfence() for the last block before it reads the partials
    }
    __syncthreads();
    if (!is_last)
        return;

    const int total = sum_of_partials(partials);
    if (threadIdx.x == 0) {
        *result = total;
        *counter = 0;
    }
}
