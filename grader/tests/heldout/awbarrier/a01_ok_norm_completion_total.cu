// EXPECT normalize PASS
// Correct: the block sum is done by the barrier's completion function (runs once per phase,
// after every arrival, before anyone is released): it adds the warp totals into a shared
// double that every thread reads after wait(). libcu++ builds this barrier from atomics.
#define normalize normalize_reference
#define launch_normalize launch_normalize_reference
#include "../../../../solutions/awbarrier.cu"
#undef normalize
#undef launch_normalize

struct add_warps {
    double *warp_sums, *total;
    __device__ void operator()() noexcept {
        int nw = blockDim.x / 32;
        double t = 0.0;
        for (int w = 0; w < nw; w++) t += warp_sums[w];
        *total = t;
    }
};
typedef cuda::barrier<cuda::thread_scope_block, add_warps> sum_barrier;

__device__ double block_sum_cf(sum_barrier &bar, double *warp_sums, double *total, double x)
{
    x = warp_sum(x);
    if (threadIdx.x % 32 == 0)
        warp_sums[threadIdx.x / 32] = x;
    bar.arrive_and_wait();
    double t = *total;
    bar.arrive_and_wait();   /* nobody overwrites total / warp_sums while someone reads */
    return t;
}

__global__ void normalize(float *a, float *b, double *partial, int n)
{
    __shared__ sum_barrier bar;
    __shared__ double warp_sums[32];
    __shared__ double total;
    cg::grid_group grid = cg::this_grid();
    if (threadIdx.x == 0)
        init(&bar, blockDim.x, add_warps{warp_sums, &total});
    __syncthreads();
    double mine = 0.0;
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size())
        mine += (double)a[i] * (double)b[i];
    double block_dot = block_sum_cf(bar, warp_sums, &total, mine);
    if (threadIdx.x == 0)
        partial[blockIdx.x] = block_dot;
    grid.sync();
    double part = 0.0;
    for (unsigned j = threadIdx.x; j < gridDim.x; j += blockDim.x)
        part += partial[j];
    double norm = sqrt(block_sum_cf(bar, warp_sums, &total, part));
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size()) {
        a[i] = (float)(a[i] / norm);
        b[i] = (float)(b[i] / norm);
    }
}
cudaError_t launch_normalize(float *a, float *b, double *partial, int n, int block)
{
    int device, sms, per_sm;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, normalize, block, 0);
    int grid = per_sm * sms, needed = (n + block - 1) / block;
    if (grid > needed) grid = needed;
    if (grid > NORMALIZE_MAX_BLOCKS) grid = NORMALIZE_MAX_BLOCKS;
    if (grid < 1) grid = 1;
    void *args[] = { &a, &b, &partial, &n };
    return cudaLaunchCooperativeKernel((const void *)normalize, grid, block, args, 0, 0);
}
