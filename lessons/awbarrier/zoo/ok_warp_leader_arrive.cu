// EXPECT normalize PASS
// Correct: lane 0 of each warp arrives on the block's barrier for its whole
// warp, bar.arrive(32), and the count stays blockDim.x. The first
// __syncwarp() orders the warp's writes before lane 0's arrival (a release),
// lane 0's wait (an acquire) returns once every warp arrived, and the second
// __syncwarp() orders it before the other lanes' reads. racecheck does not
// follow the order through __syncwarp() and reports the write and the read:
// the grader proves the order from the PTX and dismisses the hazard.
#define normalize normalize_reference
#define launch_normalize launch_normalize_reference
#include "../../../solutions/awbarrier.cu"
#undef normalize
#undef launch_normalize

__device__ double block_sum_leaders(block_barrier &bar, double *warp_sums, double x)
{
    unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    unsigned nwarps = blockDim.x >> 5;
    x = warp_sum(x);
    if (lane == 0)
        warp_sums[warp] = x;
    __syncwarp();
    if (lane == 0)
        bar.wait(bar.arrive(32)); /* one arrival for each of the warp's 32 threads */
    __syncwarp();
    double total = 0.0;
    for (unsigned w = 0; w < nwarps; w++)
        total += warp_sums[w];
    return total;
}

__global__ void normalize(float *a, float *b, double *partial, int n)
{
    __shared__ block_barrier bar;
    __shared__ double warp_sums[32];
    cg::grid_group grid = cg::this_grid();

    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    __syncthreads();

    /* Phase 1: this block's share of the dot product. */
    double mine = 0.0;
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size())
        mine += (double)a[i] * (double)b[i];
    double block_dot = block_sum_leaders(bar, warp_sums, mine);
    if (threadIdx.x == 0)
        partial[blockIdx.x] = block_dot;

    /* Every block's partial is written and visible; also keeps warp_sums
     * from being overwritten while a thread of this block still reads it. */
    grid.sync();

    /* Phase 2: every block adds all partials in the same order (same dot
     * everywhere), then scales its share of the vectors. */
    double part = 0.0;
    for (unsigned j = threadIdx.x; j < gridDim.x; j += blockDim.x)
        part += partial[j];
    double norm = sqrt(block_sum_leaders(bar, warp_sums, part));
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size()) {
        a[i] = (float)(a[i] / norm);
        b[i] = (float)(b[i] / norm);
    }
}

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
    /* grid.sync() waits for every block: all of them must be resident. */
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
