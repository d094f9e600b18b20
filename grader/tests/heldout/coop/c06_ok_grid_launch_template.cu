// EXPECT grid_two_phase PASS
// Correct: grid.sync(); launched with the C++ template overload
// cudaLaunchCooperativeKernel(kernel, dim3, dim3, void**).
#define grid_two_phase grid_two_phase_reference
#define grid_two_phase_launch grid_two_phase_launch_reference
#include "../../../../solutions/coop.cu"
#undef grid_two_phase
#undef grid_two_phase_launch

__global__ void grid_two_phase(const int *in, int n, int *partials, int *out)
{
    __shared__ int warp_max[COOP_MAX_BLOCK / 32];
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    int first = (int)grid.thread_rank(), stride = (int)grid.num_threads();
    int m = INT_MIN;
    for (int i = first; i < n; i += stride)
        m = max(m, in[i]);
    m = block_max(block, warp_max, m);
    if (block.thread_rank() == 0)
        partials[block.group_index().x] = m;
    grid.sync();
    int p = INT_MIN;
    for (unsigned b = block.thread_rank(); b < gridDim.x; b += block.num_threads())
        p = max(p, partials[b]);
    int total_max = block_max(block, warp_max, p);
    for (int i = first; i < n; i += stride)
        out[i] = total_max - in[i];
}
static int pick_grid(int n, int block)
{
    int device = 0, sms = 1, per_sm = 1;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_two_phase, block, 0);
    int grid = per_sm * sms, needed = (n + block - 1) / block;
    if (grid > needed) grid = needed;
    return grid < 1 ? 1 : grid;
}

cudaError_t grid_two_phase_launch(const int *in, int n, int *partials, int partials_cap,
                                  int *out, int block)
{
    int grid = pick_grid(n, block);
    if (grid > partials_cap) grid = partials_cap;
    void *args[] = {(void *)&in, (void *)&n, (void *)&partials, (void *)&out};
    return cudaLaunchCooperativeKernel(grid_two_phase, dim3(grid), dim3(block), args);
}
