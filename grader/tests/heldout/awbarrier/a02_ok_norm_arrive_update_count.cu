// EXPECT normalize PASS
// Correct: init(&bar, blockDim.x); lane 0 of each warp arrives for its 32 lanes with
// bar.arrive(32) after __syncwarp() (which orders the warp's shared writes before lane 0's
// release), waits, then __syncwarp() releases the other lanes. arrive/wait under lane == 0.
#define normalize normalize_reference
#define launch_normalize launch_normalize_reference
#include "../../../../solutions/awbarrier.cu"
#undef normalize
#undef launch_normalize

__device__ double block_sum_upd(block_barrier &bar, double *warp_sums, double x)
{
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32, nwarps = blockDim.x / 32;
    x = warp_sum(x);
    if (lane == 0)
        warp_sums[warp] = x;
    __syncwarp();
    if (lane == 0) {
        block_barrier::arrival_token tok = bar.arrive(32);
        bar.wait(std::move(tok));
    }
    __syncwarp();
    double total = 0.0;
    for (int w = 0; w < nwarps; w++)
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
    double mine = 0.0;
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size())
        mine += (double)a[i] * (double)b[i];
    double block_dot = block_sum_upd(bar, warp_sums, mine);
    if (threadIdx.x == 0)
        partial[blockIdx.x] = block_dot;
    grid.sync();
    double part = 0.0;
    for (unsigned j = threadIdx.x; j < gridDim.x; j += blockDim.x)
        part += partial[j];
    double norm = sqrt(block_sum_upd(bar, warp_sums, part));
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
