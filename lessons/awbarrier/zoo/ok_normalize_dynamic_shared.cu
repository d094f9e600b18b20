// EXPECT normalize PASS
// Correct, the way the CUDA sample simpleAWBarrier writes it: the warp sums
// live in dynamic shared memory that the launcher sizes ((warps + 1)
// doubles), a thread_block_tile<32> reduces, thread 0 of each block writes
// its partial, and after grid.sync() every block adds all partials. The
// grader's own launches (other grids, blockDim.x doubles of dynamic shared
// memory) must accept it too.
#define normalize normalize_reference
#define launch_normalize launch_normalize_reference
#include "../../../solutions/awbarrier.cu"
#undef normalize
#undef launch_normalize

__device__ double reduce_block_dynamic(block_barrier &bar, cg::thread_block_tile<32> &tile,
                                       double x)
{
    extern __shared__ double tmp[];
    for (int offset = (int)tile.size() / 2; offset > 0; offset /= 2)
        x += tile.shfl_down(x, offset);   /* rank 0 ends with the warp's sum */
    if (tile.thread_rank() == 0)
        tmp[tile.meta_group_rank()] = x;
    bar.arrive_and_wait();   /* every warp's sum is in tmp */
    double total = 0.0;
    for (unsigned w = 0; w < tile.meta_group_size(); w++)
        total += tmp[w];
    bar.arrive_and_wait();   /* everyone has read tmp before it is written again */
    return total;
}

__global__ void normalize(float *a, float *b, double *partial, int n)
{
    __shared__ block_barrier bar;
    cg::thread_block cta = cg::this_thread_block();
    cg::grid_group grid = cg::this_grid();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    cg::sync(cta);

    double sum = 0.0;
    for (int i = (int)grid.thread_rank(); i < n; i += (int)grid.size())
        sum += (double)a[i] * (double)b[i];
    double block_dot = reduce_block_dynamic(bar, tile, sum);
    if (threadIdx.x == 0)
        partial[blockIdx.x] = block_dot;
    cg::sync(grid);

    double dot = 0.0;
    for (unsigned k = threadIdx.x; k < gridDim.x; k += blockDim.x)
        dot += partial[k];
    dot = reduce_block_dynamic(bar, tile, dot);
    float scale = (float)(1.0 / sqrt(dot));
    for (int i = (int)grid.thread_rank(); i < n; i += (int)grid.size()) {
        a[i] = a[i] * scale;
        b[i] = b[i] * scale;
    }
}

cudaError_t launch_normalize(float *a, float *b, double *partial, int n, int block)
{
    size_t shared = (size_t)(block / 32 + 1) * sizeof(double);
    int device = 0, sms = 0, per_sm = 0;
    cudaError_t e = cudaGetDevice(&device);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (e == cudaSuccess)
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, normalize, block, shared);
    if (e != cudaSuccess)
        return e;
    int grid = per_sm * sms, needed = (n + block - 1) / block;
    if (grid > needed)
        grid = needed;
    if (grid > NORMALIZE_MAX_BLOCKS)
        grid = NORMALIZE_MAX_BLOCKS;
    if (grid < 1)
        grid = 1;
    void *args[] = {&a, &b, &partial, &n};
    return cudaLaunchCooperativeKernel((const void *)normalize, grid, block, args, shared, 0);
}
