// EXPECT single_pass_sum RULE
// ticket via atomic_ref::fetch_add(1, release): releases the partial, but the last block reads the partials with no acquire
#include <cuda/atomic>
#define single_pass_sum single_pass_sum_reference
#include "../../../../solutions/fences.cu"
#undef single_pass_sum
__global__ void single_pass_sum(const int *in, int n, int *partials, unsigned int *counter, int *result)
{
    __shared__ bool is_last;
    int v = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) v += in[i];
    const int t = fences_block_sum(v);
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = t;
        is_last = cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*counter).fetch_add(1, cuda::memory_order_release) == gridDim.x - 1;
    }
    __syncthreads();
    if (!is_last) return;
    int s = 0;
    for (int k = threadIdx.x; k < (int)gridDim.x; k += blockDim.x) s += partials[k];
    s = fences_block_sum(s);
    if (threadIdx.x == 0) { *result = s; *counter = 0; }
}
