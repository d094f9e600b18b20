// EXPECT sum_int MEMORY
// A two-pass sum: each block writes its total to a buffer the launcher
// allocates, then one block adds the buffer up. The second pass adds every
// slot the buffer has room for, not only the ones the first pass wrote: on
// a small input one block writes slot 0 and the others hold whatever
// cudaMalloc left (often zeros on a fresh GPU, so the plain runs may pass).
// initcheck names the read of memory nothing wrote. The file allocates, so
// the grader keeps initcheck for it (the initcheck lever skips only files
// that allocate no device memory).
#define reduce_sum_int reduce_sum_int_reference
#include "../../../solutions/reduction.cu"
#undef reduce_sum_int

__global__ void __launch_bounds__(SUM_THREADS)
    partial_sums(const int *in, long long n, int *partials)
{
    long long stride = (long long)gridDim.x * blockDim.x;
    int acc = 0;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        acc += in[i];
    acc = block_sum(acc);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = acc;
}

__global__ void __launch_bounds__(SUM_THREADS)
    add_partials(const int *partials, int count, int *out)
{
    int acc = 0;
    for (int i = threadIdx.x; i < count; i += blockDim.x)
        acc += partials[i];
    acc = block_sum(acc);
    if (threadIdx.x == 0)
        *out = acc;
}

void reduce_sum_int(const int *d_in, long long n, int *d_out)
{
    static int max_blocks;
    if (n <= 0) {
        cudaMemsetAsync(d_out, 0, sizeof *d_out);
        return;
    }
    int blocks = sum_blocks(n, (const void *)sum_kernel<int, int4>, &max_blocks);
    int *partials = NULL;
    cudaMalloc(&partials, (size_t)max_blocks * sizeof *partials);
    partial_sums<<<blocks, SUM_THREADS>>>(d_in, n, partials);
    /* BUG: max_blocks slots added, where only blocks were written */
    add_partials<<<1, SUM_THREADS>>>(partials, max_blocks, d_out);
    cudaFree(partials);
}
