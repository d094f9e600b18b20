// EXPECT normalize WRONG
// Divides by the dot product itself (the sample prose's "A.B") instead of
// its square root (what the sample code does and the exercise asks).
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

    double part = 0.0;
    for (unsigned j = threadIdx.x; j < gridDim.x; j += blockDim.x)
        part += partial[j];
    double norm = block_sum(bar, warp_sums, part);   /* BUG: sqrt missing */
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size()) {
        a[i] = (float)(a[i] / norm);
        b[i] = (float)(b[i] / norm);
    }
}

/* The reference launcher, launching this file's kernel. */
cudaError_t launch_normalize(float *a, float *b, double *partial, int n, int block)
{
    int device, sms, per_sm;
    cudaError_t e = cudaGetDevice(&device);
    if (e != cudaSuccess)
        return e;
    e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (e != cudaSuccess)
        return e;
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, normalize, block, 0);
    if (e != cudaSuccess)
        return e;
    int grid = per_sm * sms;
    int needed = (n + block - 1) / block;
    if (grid > needed)
        grid = needed;
    if (grid > NORMALIZE_MAX_BLOCKS)
        grid = NORMALIZE_MAX_BLOCKS;
    if (grid < 1)
        grid = 1;
    void *args[] = { &a, &b, &partial, &n };
    return cudaLaunchCooperativeKernel((const void *)normalize, grid, block, args, 0, 0);
}
