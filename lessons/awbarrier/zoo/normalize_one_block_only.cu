// EXPECT normalize WRONG
// The launcher runs a single block (allowed: any grid size must work) and
// the kernel only works with one: every block divides by its OWN partial
// instead of adding all gridDim.x partials. Through this launcher every
// input passes; the grader also launches normalize itself with grids of its
// choice, where the blocks scale by different wrong norms.
#define normalize normalize_reference
#define launch_normalize launch_normalize_reference
#include "../../../solutions/awbarrier.cu"
#undef normalize
#undef launch_normalize

__global__ void normalize(float *a, float *b, double *partial, int n)
{
    __shared__ block_barrier bar;
    __shared__ double warp_sums[32];
    cg::grid_group grid = cg::this_grid();

    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    __syncthreads();

    double mine = 0.0;
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size())
        mine += (double)a[i] * (double)b[i];
    double block_dot = block_sum(bar, warp_sums, mine);
    if (threadIdx.x == 0)
        partial[blockIdx.x] = block_dot;
    grid.sync();

    double norm = sqrt(partial[blockIdx.x]);   /* BUG: one block's dot, not the sum of all */
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size()) {
        a[i] = (float)(a[i] / norm);
        b[i] = (float)(b[i] / norm);
    }
}

cudaError_t launch_normalize(float *a, float *b, double *partial, int n, int block)
{
    void *args[] = {&a, &b, &partial, &n};
    return cudaLaunchCooperativeKernel((const void *)normalize, 1, block, args, 0, 0);
}
