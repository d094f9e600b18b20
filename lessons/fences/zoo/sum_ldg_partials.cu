// EXPECT single_pass_sum RULE
// Fences on both sides, but the last block reads the partials through the
// read-only cache (__ldg): that path is not coherent with stores other
// blocks make during the same launch, so it may return an old partial.
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
        if (is_last)
            __threadfence();
    }
    __syncthreads();
    if (!is_last)
        return;

    int s = 0;
    for (int b = threadIdx.x; b < (int)gridDim.x; b += blockDim.x)
        s += __ldg(&partials[b]);  // BUG: read-only load of data written in this launch
    const int total = fences_block_sum(s);
    if (threadIdx.x == 0) {
        *result = total;
        *counter = 0;
    }
}
