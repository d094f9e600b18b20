// EXPECT grid_two_phase WRONG
// The launcher runs a single block (allowed: fewer blocks than fit is fine)
// and the kernel only works with one: phase 2 takes partials[0] as the
// maximum instead of reading all gridDim.x partials. Through this launcher
// every input passes; the grader also launches grid_two_phase itself with
// grids of its choice (the contract says any grid works), where it fails.
#define grid_two_phase grid_two_phase_reference
#define grid_two_phase_launch grid_two_phase_launch_reference
#include "../../../solutions/coop.cu"
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

    int total_max = partials[0];   /* BUG: the other blocks' partials are ignored */
    for (int i = first; i < n; i += stride)
        out[i] = total_max - in[i];
}

cudaError_t grid_two_phase_launch(const int *in, int n, int *partials, int partials_cap,
                                  int *out, int block)
{
    (void)partials_cap;
    void *args[] = {(void *)&in, (void *)&n, (void *)&partials, (void *)&out};
    return cudaLaunchCooperativeKernel((void *)grid_two_phase, dim3(1), dim3(block), args, 0, 0);
}
