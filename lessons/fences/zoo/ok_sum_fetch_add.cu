// EXPECT single_pass_sum PASS
// Correct: the ticket is an acq_rel fetch_add at device scope: release for the partial, acquire for the last block.
#include <cuda/atomic>
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
        cuda::atomic_ref<unsigned int, cuda::thread_scope_device> tickets(*counter);
        // acq_rel: release publishes the partial, acquire lets the last block read the others
        const unsigned int ticket = tickets.fetch_add(1, cuda::memory_order_acq_rel);
        is_last = (ticket == gridDim.x - 1);
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
